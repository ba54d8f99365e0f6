"""Legal actions, derived once for every ruleset. A ruleset's pseudo-legal generator
(``candidates``) proposes actions and its ``judge`` disposes (``legal``), so a listed
action always validates as legal and the two can never disagree. ``first_legal`` bounds a
listing by its ``limit`` and by how many candidates one listing judges (``MAX_JUDGED``).

``legal_actions_query`` makes from these the ``legal-actions`` query of every ruleset,
served at ``POST /v1/rulesets/{id}/legal-actions`` and as the ``legalActions`` field: the
same request (``{Prefix}LegalActionsRequest``: ``state``, ``player``, ``limit``, one
default and one maximum for all) and the same answer (``{Prefix}LegalActionsResponse``:
``player``, ``actions`` each exactly as ``validate`` takes it, ``truncated``, ``count``).
A ruleset says only what is its own (``Listing``): the order its generator lists in, a
summary, examples, and the facts its answer carries beside the list (``Beside``:
region_conquest's cost of each conquest), typed, after the four fields every answer has.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, Field, RootModel, create_model

from arbiter.engine.bounds import checkpoint
from arbiter.engine.errors import Problems
from arbiter.engine.index import check_ref
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Verdict
from arbiter.engine.query import Query
from arbiter.engine.wire import Frozen, Id

if TYPE_CHECKING:
    from arbiter.engine.ruleset import Ruleset

A = TypeVar("A")
B = TypeVar("B")

LEGAL_ACTIONS = "legal-actions"

# How many candidates one listing judges at most, whatever its ``limit``: a combinatorial
# generator (splits, drops, pick-ups) may propose far more actions than are legal, and a
# listing stays within the request's compute budget by counting judgements, not time, so
# the same request always answers the same list.
MAX_JUDGED = 10_000

# The ``limit`` of every ruleset's legal-actions request. The default is a screenful of
# choices; the maximum is MAX_JUDGED, since a listing never lists more actions than it
# judges candidates, so a higher limit could never be reached.
LIMIT = 100
MAX_LIMIT = MAX_JUDGED


class Seated(Protocol):
    """A compiled board that knows its players: legal-actions refuses a player who is not
    one of them (a 422 at ``/player``)."""

    @property
    def players(self) -> Collection[str]: ...


def legal(judge: Callable[[B, A], Judgement], board: B, candidates: Iterable[A]
          ) -> Iterator[A]:
    """The candidates ``judge`` finds legal, in the generator's order."""
    for action in candidates:
        checkpoint()
        if judge(board, action).verdict.legal:
            yield action


@dataclass(frozen=True, slots=True)
class Bounded(Generic[A]):
    """The first ``limit`` legal actions, and whether the listing stopped short: more were
    legal than ``limit``, or the generator still had candidates when ``MAX_JUDGED`` of them
    had been judged."""

    actions: list[A]
    truncated: bool


def is_legal(verdict: Verdict) -> bool:
    return verdict.legal


def open_before_the_draw(verdict: Verdict) -> bool:
    """Whether a player who has not seen the draw may try the action: nothing refuses it
    before the draw is read (``Verdict.before_the_draw``). What the draw would show (a
    tile that does not fit) is not known to them, and so refuses nothing they can see."""
    return not verdict.before_the_draw


def first_legal(judge: Callable[[B, A], Judgement], board: B, candidates: Iterable[A],
                limit: int, max_judged: int = MAX_JUDGED,
                admits: Callable[[Verdict], bool] = is_legal) -> Bounded[A]:
    """At most ``limit`` legal actions, in the generator's order; the generator is judged
    one step past the limit so ``truncated`` is exact, and no further; at most
    ``max_judged`` candidates are judged (``truncated`` when some were left unjudged).
    ``admits``: what a listed action's verdict is (legal, or open before the draw)."""
    found: list[A] = []
    judged = 0
    for action in candidates:
        checkpoint()
        if judged == max_judged:
            return Bounded(found, True)
        judged += 1
        if not admits(judge(board, action).verdict):
            continue
        if len(found) == limit:
            return Bounded(found, True)
        found.append(action)
    return Bounded(found, False)


@dataclass(frozen=True, slots=True)
class Beside(Generic[B, A]):
    """The facts a ruleset's legal-actions answer carries beside its list: ``model``'s
    fields join the answer after ``count``, and ``facts`` makes them from the board, the
    player and the listing (never by changing an action: each stays as validate takes it)."""

    model: type[BaseModel]
    facts: Callable[[B, str, Bounded[A]], BaseModel]


@dataclass(frozen=True, slots=True)
class Listing(Generic[B, A]):
    """What a ruleset says of its legal-actions: a one-line ``summary``, the ``order`` its
    generator lists actions in (it ends the description of ``actions``), request
    ``examples`` to paste, and the facts ``beside`` the list, if any."""

    summary: str
    order: str
    examples: Sequence[Mapping[str, Any]] = ()
    beside: Beside[B, A] | None = None


def pascal(ruleset_id: str) -> str:
    """The prefix of a ruleset's model names: ``region_conquest`` -> ``RegionConquest``."""
    return "".join(part.capitalize() for part in ruleset_id.split("_"))


def action_union(action_model: type[RootModel[Any]]) -> Any:
    """The action union as a field type (the tag-discriminated union, not its root model,
    so GraphQL carries each action as the input validate takes)."""
    root = action_model.model_fields["root"]
    if root.discriminator:
        return Annotated[root.annotation, Field(discriminator=root.discriminator)]
    return root.annotation


def listing_models(ruleset: Ruleset[Any, Any, Any]) -> tuple[type[BaseModel], type[BaseModel]]:
    """The request and response models of the ruleset's legal-actions."""
    prefix, listing = pascal(ruleset.id), ruleset.listing
    request = create_model(
        f"{prefix}LegalActionsRequest", __base__=Frozen,
        state=(ruleset.state_model, ...),
        player=(Id, ...),
        limit=(int, Field(default=LIMIT, ge=1, le=MAX_LIMIT,
                          description="At most this many actions are listed.")))
    # The facts beside the list, each field as the ruleset's model declares it.
    beside: dict[str, Any] = {
        name: (info.annotation, info) for name, info in listing.beside.model.model_fields.items()
    } if listing.beside is not None else {}
    # The ruleset's action union, known only at run time: a type made, not written.
    actions: Any = list.__class_getitem__(action_union(ruleset.action_model))
    response = create_model(
        f"{prefix}LegalActionsResponse", __base__=Frozen,
        player=(str, ...),
        actions=(actions, Field(
            description="Each legal action exactly as validate takes it (send one back "
            f"unchanged as the request's action), in this order: {listing.order}")),
        truncated=(bool, Field(description="The listing stopped short: more actions are "
                               "legal than ``limit``, or the generator had more to judge "
                               "than one listing judges.")),
        count=(int, Field(description="Actions listed (at most ``limit``).")),
        **beside)
    return request, response


def legal_actions_query(ruleset: Ruleset[Any, Any, Any]) -> Query:
    """The ruleset's legal-actions: its candidates filtered through its judge, the first
    ``limit`` of them, with the facts the ruleset shows beside them."""
    request, response = listing_models(ruleset)
    return Query(name=LEGAL_ACTIONS, summary=ruleset.listing.summary, request=request,
                 response=response, run=lister(ruleset, response),
                 examples=tuple(ruleset.listing.examples))


def lister(ruleset: Ruleset[Any, Any, Any], response: type[BaseModel],
           admits: Callable[[Verdict], bool] = is_legal) -> Callable[[Any], BaseModel]:
    """What answers a legal-actions request as ``response``, listing the candidates whose
    verdict ``admits`` (the legal ones; for a player who has not seen a draw, those open
    before it: ``open_before_the_draw``)."""
    listing = ruleset.listing

    def run(asked: Any) -> BaseModel:
        board = ruleset.compile(asked.state)
        player = asked.player
        problems = Problems()
        check_ref(player, board.players, ("player",), "player", problems)
        problems.raise_if_any()
        found = first_legal(ruleset.judge, board, ruleset.candidates(board, player),
                            asked.limit, admits=admits)
        fields: dict[str, Any] = {"player": player, "actions": found.actions,
                                  "truncated": found.truncated, "count": len(found.actions)}
        beside = listing.beside
        if beside is not None:
            facts = beside.facts(board, player, found)
            fields.update((name, getattr(facts, name)) for name in beside.model.model_fields)
        return response(**fields)

    return run

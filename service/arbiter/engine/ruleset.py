"""The shape of a ruleset: the typed parts a ruleset fills in, and the pipeline the engine
runs over them the same way for every ruleset.

A ruleset package builds one ``Ruleset`` in its ``ruleset.py`` from:

- its pydantic models: ``state_model``, ``action_model`` (a root model over the union of
  its action types, tagged by ``type``) and ``options_model``;
- ``compile(state) -> Board``: the state indexed for fast questions, every inconsistency
  (an id listed twice, a reference to nothing) raised as ``InvalidInput`` at its pointer;
- ``judge(board, action) -> Judgement``: every violation, the derived facts, whether the
  step is reversible and how to apply it;
- ``candidates(board, player)``: a pseudo-legal generator of the player's actions, which
  ``judge`` filters into the legal ones;
- its ``listing`` (``engine.legal.Listing``): the order its generator lists in and what its
  legal-actions answer shows beside the list; the engine makes the ``legal-actions``
  query itself, from ``candidates`` and ``judge``, the same way for every ruleset;
- ``why_not``: its answer to "why can't I?" for a target (``engine.why_not``), which
  every ruleset must give;
- its ``catalogue`` (rules, codes, events, fixed data), its other derived ``queries`` and
  ``examples`` to paste;
- its ``board_fields``: the static part of a state, which a client may send by
  reference (``engine.boards``);
- optionally ``derived_model`` (the model of its outcomes' ``derived`` facts), ``ready``
  (the fields its compiled board keeps as JSON, which a state's hash reads rather than
  dumping them again) and ``reported_draws`` (the fields of an action
  that report a draw made at the table, which a signed game with a seed refuses) and
  ``information`` (what its states hide: ``engine.information``).

Randomness: a state's ``rng`` field is its seed (digital mode: the service draws with it
and the advanced seed comes back in the resulting state); a state without one is in table
mode, and its actions report the draws. ``start`` makes a game's first state with a seed
the caller drew: the engine draws nothing and keys nothing itself.

A state is judged from its ``Position`` (the state parsed and its board compiled, once,
whatever is asked of it): ``Position.canonical`` is its canonical JSON (what a caller
that checks a state before judging it digests), ``Position.ruling`` judges one action.

``S``, ``A`` and ``B`` are the ruleset's state model, action union and board (which knows
its players: ``engine.legal.Seated``): no ``Any`` at this boundary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, TypeVar, get_args

from pydantic import BaseModel, RootModel

from arbiter.engine.boards import BoardShape, board_shape
from arbiter.engine.bounds import checkpoint
from arbiter.engine.canonical import Canonical, Ready
from arbiter.engine.catalogue import Catalogue, CodeRef, EventRef, RuleRef
from arbiter.engine.draft import BoardRef, Draft
from arbiter.engine.information import PERFECT, Information
from arbiter.engine.judging import Judgement, Ruling, Settled, conclude, settle
from arbiter.engine.legal import LEGAL_ACTIONS, Listing, Seated, legal, legal_actions_query
from arbiter.engine.outcome import Mode, Outcome
from arbiter.engine.query import Query as Query  # re-exported: imported from here too
from arbiter.engine.why_not import WHY_NOT

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
B = TypeVar("B", bound=Seated)

# The field of a state that holds its seed (digital mode), in every ruleset that draws.
SEED_FIELD = "rng"


def no_draws(action: Any) -> tuple[str, ...]:
    """A ruleset whose actions report no draw."""
    return ()


@dataclass(frozen=True, slots=True)
class Examples:
    """A state and an action a reader can paste (OpenAPI examples, ``GET`` metadata)."""

    state: Mapping[str, Any]
    action: Mapping[str, Any]


@dataclass(frozen=True, eq=False)
class Ruleset(Generic[S, A, B]):
    catalogue: Catalogue
    state_model: type[S]
    action_model: type[RootModel[A]]
    options_model: type[BaseModel]
    compile: Callable[[S], B]
    judge: Callable[[B, A], Judgement]
    candidates: Callable[[B, str], Iterable[A]]
    listing: Listing[B, A]
    # Its derived questions (reachable, conquest-cost, ...). Legal-actions is the engine's:
    # whatever this holds under that name is replaced by the listing of ``candidates``
    # through ``judge`` (so a copy made with dataclasses.replace lists by its own judge).
    queries: Mapping[str, Query]
    examples: Examples
    # Its ``why-not`` question (``engine.why_not``): given a state and a target the player
    # could not reach or do, the action that would, judged by ``judge``, and what would
    # change the answer. Every ruleset answers it; it is served beside ``queries``.
    why_not: Query
    # The static part of a state (a hex map, an area graph): the top-level state fields a
    # client may send by reference (``engine.boards``). Empty: the ruleset has no board.
    board_fields: tuple[str, ...] = ()
    # The state fields its compiled board keeps as JSON already (a hex map dumped once per
    # map), so hashing a state reads their kept bytes (``Draft``'s ``ready``).
    ready: Callable[[B], Mapping[str, Ready]] | None = None
    # The fields of an action that report a draw made at the table (table mode: a die's
    # result, a tile or card named): where a signed state has a seed, the service draws
    # them, and the transport refuses an action that names them.
    reported_draws: Callable[[A], Sequence[str]] = no_draws
    # The model of its outcomes' ``derived`` facts (each optional fact absent from an
    # action that has none). ``judge`` builds plain dicts, never this model: it types
    # GraphQL and OpenAPI, and a test checks every judgement's facts against it. None:
    # the ruleset derives nothing.
    derived_model: type[BaseModel] | None = None
    # What nobody may read in its states, what players give in secret, how chance enters
    # (``engine.information``): the service seals and views by it. Default: perfect
    # information and no chance.
    information: Information = PERFECT

    def __post_init__(self) -> None:
        if self.why_not.name != WHY_NOT:
            raise ValueError(f"{self.catalogue.ruleset}: why_not is named {self.why_not.name}")
        listed = {**self.queries, WHY_NOT: self.why_not,
                  LEGAL_ACTIONS: legal_actions_query(self)}
        object.__setattr__(self, "queries", listed)  # frozen: set once, as it is made

    @cached_property
    def boards(self) -> BoardShape | None:
        """The models its boards travel in, when it has a board."""
        if not self.board_fields:
            return None
        return board_shape(self.state_model, self.board_fields)

    @property
    def id(self) -> str:
        return self.catalogue.ruleset

    @property
    def version(self) -> str:
        return self.catalogue.version

    @property
    def title(self) -> str:
        return self.catalogue.title

    @property
    def rules(self) -> Sequence[RuleRef]:
        return self.catalogue.rules

    @property
    def codes(self) -> Mapping[str, CodeRef]:
        return self.catalogue.codes

    @property
    def event_kinds(self) -> Mapping[str, EventRef]:
        return self.catalogue.events

    @property
    def action_types(self) -> tuple[str, ...]:
        """The ``type`` tags of the action union, in its order."""
        root = self.action_model.model_fields["root"]
        variants = get_args(root.annotation) or (root.annotation,)
        return tuple(get_args(v.model_fields["type"].annotation)[0] for v in variants)

    def parse_state(self, state: S | Mapping[str, Any]) -> S:
        """The state model, from a model or its JSON-shaped dict alike."""
        if isinstance(state, self.state_model):
            return state
        return self.state_model.model_validate(state)

    def parse_action(self, action: A | RootModel[A] | Mapping[str, Any]) -> A:
        """The action (a member of the union), from a member, the root model or a dict."""
        if isinstance(action, RootModel):
            return action.root
        if isinstance(action, BaseModel):
            return action
        return self.action_model.model_validate(action).root

    def position(self, state: S | Mapping[str, Any]) -> Position[S, A, B]:
        """The state parsed and its board compiled (every inconsistency raised as
        ``InvalidInput`` at its pointer), to judge actions against."""
        parsed = self.parse_state(state)
        return Position(self, parsed, self.compile(parsed))

    def start(self, state: S | Mapping[str, Any], seed: int,
              board: str | None = None) -> Settled:
        """A game's first state: ``state`` checked as every state is (compiled), its seed
        replaced by ``seed`` when it has one (digital mode; a state without one stays in
        table mode), naming its board when it came so."""
        position = self.position(state)
        draft = position.draft()
        if getattr(position.state, SEED_FIELD, None) is not None:
            draft[SEED_FIELD] = seed
        return settle(draft, self.state_model, self.board_ref(board))

    def ruling(self, state: S | Mapping[str, Any],
               action: A | RootModel[A] | Mapping[str, Any], mode: Mode = "strict",
               board: str | None = None) -> Ruling:
        """The pipeline: parse, compile, judge, apply, check the resulting state, conclude.
        ``board``: the id the state's board came by (``engine.boards``); the resulting
        state names it too when the action left the board as it was."""
        return self.position(state).ruling(action, mode, board)

    def validate(self, state: S | Mapping[str, Any],
                 action: A | RootModel[A] | Mapping[str, Any], mode: Mode = "strict",
                 board: str | None = None) -> Outcome:
        """``ruling``'s Outcome: what a client is told of the action."""
        return self.ruling(state, action, mode, board).outcome

    def rulings(self, state: S | Mapping[str, Any] | Position[S, A, B],
                actions: Sequence[A | RootModel[A] | Mapping[str, Any]], *, sequence: bool,
                mode: Mode = "strict", board: str | None = None) -> Iterator[Ruling]:
        """Each action alone against ``state``, or the actions in order, each against the
        state the previous one produced. A sequence stops after the first action that
        could not be applied: later actions have no defined state to be judged against.
        A generator, so the caller knows which action a malformed one (``InvalidInput``)
        was."""
        position = state if isinstance(state, Position) else self.position(state)
        for action in actions:
            checkpoint()
            ruling = position.ruling(action, mode, board)
            yield ruling
            if sequence:
                if ruling.result is None:
                    return
                position = self.position(ruling.result.model)  # type: ignore[arg-type]  # the pipeline validated it as S
                if "board" not in ruling.result.state:
                    board = None  # the action changed the board: it goes inline from now

    def validate_batch(self, state: S | Mapping[str, Any],
                       actions: Sequence[A | RootModel[A] | Mapping[str, Any]], *,
                       sequence: bool, mode: Mode = "strict", board: str | None = None
                       ) -> Iterator[Outcome]:
        """``rulings``' Outcomes."""
        return (r.outcome for r in self.rulings(state, actions, sequence=sequence, mode=mode,
                                                board=board))

    def board_ref(self, board: str | None) -> BoardRef | None:
        """The board a state named by its id, with the fields it stands for."""
        return BoardRef(board, self.board_fields) if board is not None else None

    def legal_actions(self, board: B, player: str) -> Iterator[A]:
        """Every legal action of ``player``: the generator filtered through ``judge``."""
        return legal(self.judge, board, self.candidates(board, player))


def describe(ruleset: Ruleset[Any, Any, Any]) -> dict[str, Any]:
    """What ``GET /v1/rulesets/{id}`` shows: every rule with its paraphrase, every
    violation code with its rule and template, event kinds, options and catalogues."""
    return {
        "id": ruleset.id,
        "version": ruleset.version,
        "title": ruleset.title,
        "action_types": list(ruleset.action_types),
        "queries": sorted(ruleset.queries),
        "rules": [{"id": r.id, "paraphrase": r.paraphrase} for r in ruleset.rules],
        "violation_codes": [
            {"code": c.code, "rule": c.rule, "template": c.template} for c in ruleset.codes.values()
        ],
        "event_kinds": [
            {"kind": e.kind, "rule": e.rule, "template": e.template}
            for e in ruleset.event_kinds.values()
        ],
        "information": ruleset.information.describe(),
        "options": ruleset.options_model.model_json_schema(),
        "catalogues": dict(ruleset.catalogue.data),
    }


@dataclass(frozen=True, eq=False)
class Position(Generic[S, A, B]):
    """A state parsed and its board compiled: what any number of actions are judged
    against (the compiled board is read, never changed, by ``judge``)."""

    ruleset: Ruleset[S, A, B]
    state: S
    compiled: B

    def draft(self) -> Draft:
        """A draft of the state as it stands (its ready fields read from its board)."""
        ready = self.ruleset.ready
        return Draft(self.state, ready(self.compiled) if ready is not None else None)

    def canonical(self) -> Canonical:
        """The state's canonical JSON, field by field."""
        return self.draft().canonical()

    def ruling(self, action: A | RootModel[A] | Mapping[str, Any], mode: Mode = "strict",
               board: str | None = None) -> Ruling:
        """Judge ``action``, apply it when the mode says so, and conclude (``validate``)."""
        ruleset = self.ruleset
        judgement = ruleset.judge(self.compiled, ruleset.parse_action(action))
        return conclude(ruleset.id, ruleset.version, judgement, mode, ruleset.state_model,
                        ruleset.board_ref(board))

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
- its ``catalogue`` (rules, codes, events, fixed data), its other derived ``queries`` and
  ``examples`` to paste;
- its ``board_fields``: the static part of a state, which a client may send by
  reference (``engine.boards``);
- optionally ``derived_model`` (the model of its outcomes' ``derived`` facts), ``ready``
  (the fields its compiled board keeps as JSON, which a state's hash reads rather than
  dumping them again) and ``reported_draws`` (the fields of an action
  that report a draw made at the table, which a signed game with a seed refuses).

Randomness: a state's ``rng`` field is its seed (digital mode: the service draws with it
and the advanced seed comes back in the resulting state); a state without one is in table
mode, and its actions report the draws. ``start`` makes a game's first state with a seed
the caller drew, and ``signing_digest`` is what a state's signature covers: the engine
draws nothing and keys nothing itself.

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
from arbiter.engine.catalogue import Catalogue, CodeRef, EventRef, RuleRef
from arbiter.engine.draft import BoardRef, Draft, Ready
from arbiter.engine.judging import Judgement, Seal, Signing, conclude, settle
from arbiter.engine.legal import LEGAL_ACTIONS, Listing, Seated, legal, legal_actions_query
from arbiter.engine.outcome import Mode, Outcome
from arbiter.engine.query import Query as Query  # re-exported: imported from here too

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
B = TypeVar("B", bound=Seated)

# The field of a state that holds its seed (digital mode), in every ruleset that draws.
SEED_FIELD = "rng"
# Called with the signing digest of a state before it is judged (``Ruleset.validate``);
# raises to refuse the state (the transport checks its signature).
StateCheck = Callable[[str], None]


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

    def __post_init__(self) -> None:
        listed = {**self.queries, LEGAL_ACTIONS: legal_actions_query(self)}
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

    def signing_digest(self, state: S | Mapping[str, Any], compiled: B | None = None) -> str:
        """What a signature of a (whole) state covers (``Draft.signing_digest``): the same
        whichever way its board travels. ``compiled``: the state's board, when the caller
        has compiled it already."""
        return self._hashed(self.parse_state(state), compiled).signing_digest(
            self.board_fields)

    def _hashed(self, parsed: S, compiled: B | None = None) -> Draft:
        """A draft of ``parsed`` as it stands, for its digests (its ready fields read from
        its compiled board)."""
        if self.ready is None:
            return Draft(parsed)
        return Draft(parsed, self.ready(self.compile(parsed) if compiled is None else compiled))

    def start(self, state: S | Mapping[str, Any], seed: int,
              board: str | None = None) -> tuple[dict[str, Any], str, str]:
        """A game's first state: ``state`` checked as every state is (compiled), its seed
        replaced by ``seed`` when it has one (digital mode; a state without a seed stays in
        table mode), as JSON (naming its board when it came so), its hash and its signing
        digest."""
        parsed = self.parse_state(state)
        compiled = self.compile(parsed)
        draft = Draft(parsed, self.ready(compiled) if self.ready is not None else None)
        if getattr(parsed, SEED_FIELD, None) is not None:
            draft[SEED_FIELD] = seed
        named = BoardRef(board, self.board_fields) if board is not None else None
        _, first, digest = settle(draft, self.state_model, named)
        return first, digest, draft.signing_digest(self.board_fields)

    def validate(self, state: S | Mapping[str, Any], action: A | RootModel[A] | Mapping[str, Any],
                 mode: Mode = "strict", board: str | None = None, *,
                 check_state: StateCheck | None = None, seal: Seal | None = None) -> Outcome:
        """The pipeline: parse, compile, judge, apply, check the resulting state, conclude.
        ``board``: the id the state's board came by (``engine.boards``); the resulting
        state names it too when the action left the board as it was. ``check_state`` is
        called with the state's signing digest before the outcome is returned (and raises
        to refuse the state); ``seal`` signs a legal action's resulting state."""
        parsed = self.parse_state(state)
        compiled = self.compile(parsed)
        judgement = self.judge(compiled, self.parse_action(action))
        named = BoardRef(board, self.board_fields) if board is not None else None
        signing = None
        if seal is not None or check_state is not None:
            signing = Signing(self.board_fields, seal,
                              judged=parsed if check_state is not None else None)
        outcome = conclude(self.id, self.version, judgement, mode, self.state_model, named,
                           signing=signing)
        if check_state is not None:
            # Checked once judged: writing the resulting state dumped what the state's
            # digest needs, and nothing is answered before the check.
            judged = outcome.judged_digest()
            check_state(judged if judged is not None else self.signing_digest(parsed, compiled))
        return outcome

    def validate_batch(self, state: S | Mapping[str, Any],
                       actions: Sequence[A | RootModel[A] | Mapping[str, Any]], *,
                       sequence: bool, mode: Mode = "strict", board: str | None = None,
                       check_state: StateCheck | None = None,
                       seal: Seal | None = None) -> Iterator[Outcome]:
        """Each action alone against ``state``, or the actions in order, each against the
        state the previous one produced. A sequence stops after the first action that
        could not be applied: later actions have no defined state to be judged against.
        A generator, so the caller knows which action a malformed one (``InvalidInput``)
        was. ``check_state``: as for ``validate``, for the state sent (the states after it
        are the engine's own); ``seal``: every resulting state is signed."""
        current = self.parse_state(state)
        for action in actions:
            outcome = self.validate(current, action, mode, board, check_state=check_state,
                                    seal=seal)
            check_state = None
            yield outcome
            if sequence:
                nxt = outcome.next_state()
                if nxt is None:
                    return
                current = nxt  # type: ignore[assignment]  # the pipeline validated it as S
                if outcome.state is not None and "board" not in outcome.state:
                    board = None  # the action changed the board: it goes inline from now

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
        "options": ruleset.options_model.model_json_schema(),
        "catalogues": dict(ruleset.catalogue.data),
    }

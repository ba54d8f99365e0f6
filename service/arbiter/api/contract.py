"""The request and response models of each ruleset's REST routes, derived from the
ruleset's own state and action models: one place that both the routes (for parsing) and
the OpenAPI document (for schemas) read, so they cannot disagree."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, Literal, TypeVar, Union

from pydantic import BaseModel, Field, create_model

from arbiter.engine.outcome import Event, Mode, Outcome, StateSignature, Violation
from arbiter.engine.registry import AnyRuleset as Ruleset
from arbiter.engine.wire import Frozen

MAX_BATCH_SCHEMA = 10_000


def camel(ruleset_id: str) -> str:
    """``hex_maneuver`` -> ``HexManeuver``."""
    return "".join(part.capitalize() for part in ruleset_id.split("_"))


@dataclass(frozen=True)
class Contract:
    ruleset: Ruleset
    validate_request: type[BaseModel]
    batch_request: type[BaseModel]
    outcome: type[BaseModel]
    batch_response: type[BaseModel]
    # Each query's request as REST reads it: its state may name its board by reference,
    # and come with its signature.
    query_requests: Mapping[str, type[BaseModel]]
    new_game_request: type[BaseModel]
    new_game: type[BaseModel]


Returns = Literal["state", "patch", "omit"]
RETURNS: Any = Field(
    default="state", alias="return",
    description="How the resulting state comes back: state (whole; by reference when the "
    "board came so and the action left it as it was), patch (an RFC 6902 JSON Patch against "
    "the state sent, in `patch`; in a sequence, against the state the action before "
    "produced), omit (not at all: the verdict and state_hash only).")

SIGNATURE: Any = Field(
    default=None, description="The state's signature, as the answer that gave the state "
    "had it (ARBITER_STATE_KEYS): checked whenever it is sent, required when the service "
    "requires signed states (ARBITER_REQUIRE_SIGNED_STATES).")

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)


class ValidateRequest(Frozen, Generic[S, A]):
    state: S
    signature: StateSignature | None = SIGNATURE
    action: A
    mode: Mode = Field(default="strict", description="advisory: apply an illegal action "
                       "whose effect is well defined and return its violations as warnings.")
    returns: Returns = RETURNS


class ValidateBatchRequest(Frozen, Generic[S, A]):
    state: S
    signature: StateSignature | None = SIGNATURE
    actions: list[A] = Field(min_length=1, max_length=MAX_BATCH_SCHEMA)
    mode: Literal["each", "sequence"] = Field(
        default="each", description="each: every action alone against the state; "
        "sequence: in order, each against the state the previous one produced, stopping "
        "after the first that is not applied.")
    strictness: Mode = "strict"
    returns: Returns = RETURNS


class NewGameRequest(Frozen, Generic[S]):
    """A game's first state: the board, the players and every piece as the game starts.
    Its seed (``rng``), when it has one, is replaced by one the service draws; a state
    without one starts a table-mode game, whose actions report the draws."""

    state: S


class NewGame(Frozen):
    """A game's first state, signed when the service signs states."""

    ruleset: str
    ruleset_version: str
    state: dict[str, Any] = Field(description="The first state: the one sent, checked as "
                                  "every state is, with the service's seed (by reference "
                                  "when its board came so).")
    state_hash: str
    signature: StateSignature | None = Field(
        default=None, description="Its signature (null when the service signs no states): "
        "send it beside the state with the game's first action.")


def list_of(tp: Any) -> Any:
    """``list[tp]`` of a model made at start-up, which mypy cannot see as a type."""
    made: Any = list[tp]
    return made


def _said(ruleset: Ruleset, said: Literal["violation", "event"]) -> Any:
    """The ruleset's Violation (or Event) for the documents: its codes (kinds) as an enum
    and its params as one of the params models of its catalogue, each described with
    its code's template (``Catalogue.params_model``)."""
    catalogue = ruleset.catalogue
    names = list(catalogue.codes if said == "violation" else catalogue.events)
    models = tuple(catalogue.params_model(said, n) for n in names)
    base = Violation if said == "violation" else Event
    key = "code" if said == "violation" else "kind"
    params: Any = Union[models] if len(models) > 1 else models[0]  # noqa: UP007
    code: Any = Literal[tuple(names)]
    fields: dict[str, Any] = {key: (code, ...)}
    return create_model(
        f"{camel(ruleset.id)}{base.__name__}", __base__=base, **fields,
        params=(params, Field(default_factory=dict, description=(
            f"The params of the {said}'s message: those of its {key}'s params model."))))


@cache
def contract(ruleset: Ruleset) -> Contract:
    prefix = camel(ruleset.id)
    action = ruleset.action_model
    # A request's state may name its board by reference (``engine.boards``).
    state: Any = ruleset.boards.state_input() if ruleset.boards else ruleset.state_model
    # The generic requests made concrete with models known only at start-up (Any: mypy
    # cannot check a subscript by runtime values).
    generic: Any = (ValidateRequest, ValidateBatchRequest)
    validate_request = create_model(f"{prefix}ValidateRequest",
                                    __base__=generic[0][state, action])
    batch_request = create_model(f"{prefix}ValidateBatchRequest",
                                 __base__=generic[1][state, action])
    # Outcome with the state typed as the ruleset's state: for the documents only; the
    # routes serialise the engine's Outcome, whose state is that model dumped as JSON.
    typed_state: Any = ruleset.state_model | None
    derived: Any = ruleset.derived_model or dict[str, Any]
    violations: Any = list_of(_said(ruleset, "violation"))
    events: Any = list_of(_said(ruleset, "event"))
    outcome = create_model(
        f"{prefix}Outcome", __base__=Outcome, state=(typed_state, None),
        violations=(violations, Field(default_factory=list)),
        events=(events, Field(default_factory=list)),
        derived=(derived, Field(default_factory=dict, description="The facts a frontend "
                                "shows beside the verdict (each present only when the "
                                "action has it).")))
    outcomes: Any = list[outcome]
    batch_response = create_model(f"{prefix}ValidateBatchResponse", __base__=Frozen,
                                  outcomes=(outcomes, ...))
    query_requests = {name: _as_sent(query.request, state)
                      for name, query in ruleset.queries.items()}
    new_game_request = create_model(f"{prefix}NewGameRequest", __doc__=NewGameRequest.__doc__,
                                    __base__=NewGameRequest[state])
    new_game = create_model(f"{prefix}NewGame", __base__=NewGame, __doc__=NewGame.__doc__,
                            state=(ruleset.state_model, Field(description=(
                                NewGame.model_fields["state"].description))))
    return Contract(ruleset, validate_request, batch_request, outcome, batch_response,
                    query_requests, new_game_request, new_game)


def _as_sent(request: type[BaseModel], state: Any) -> type[BaseModel]:
    """``request`` as REST reads it: its ``state`` read as ``state`` (the state, or it by
    reference) and its ``signature`` beside it; the same name, so the documents show it
    in the request's place."""
    field = request.model_fields.get("state")
    if field is None:
        return request
    return create_model(request.__name__, __base__=request, __doc__=request.__doc__,
                        state=(state, field), signature=(StateSignature | None, SIGNATURE))


def example_body(ruleset: Ruleset, what: str) -> dict[str, Any] | None:
    examples = ruleset.examples
    if what == "validate":
        return {"state": examples.state, "action": examples.action}
    if what == "validate-batch":
        return {"state": examples.state, "actions": [examples.action], "mode": "each"}
    if what == "new-game":
        return {"state": examples.state}
    query = ruleset.queries.get(what)
    if query is not None and query.examples:
        return dict(query.examples[0])
    return None

"""The request and response models of each ruleset's REST routes, derived from the
ruleset's own state and action models: one place that both the routes (for parsing) and
the OpenAPI document (for schemas) read, so they cannot disagree."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field, create_model

from arbiter.engine.outcome import Mode, Outcome
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


S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)


class ValidateRequest(Frozen, Generic[S, A]):
    state: S
    action: A
    mode: Mode = Field(default="strict", description="advisory: apply an illegal action "
                       "whose effect is well defined and return its violations as warnings.")


class ValidateBatchRequest(Frozen, Generic[S, A]):
    state: S
    actions: list[A] = Field(min_length=1, max_length=MAX_BATCH_SCHEMA)
    mode: Literal["each", "sequence"] = Field(
        default="each", description="each: every action alone against the state; "
        "sequence: in order, each against the state the previous one produced, stopping "
        "after the first that is not applied.")
    strictness: Mode = "strict"


@cache
def contract(ruleset: Ruleset) -> Contract:
    prefix = camel(ruleset.id)
    state, action = ruleset.state_model, ruleset.action_model
    # The generic requests made concrete with models known only at start-up (Any: mypy
    # cannot check a subscript by runtime values).
    generic: Any = (ValidateRequest, ValidateBatchRequest)
    validate_request = create_model(f"{prefix}ValidateRequest",
                                    __base__=generic[0][state, action])
    batch_request = create_model(f"{prefix}ValidateBatchRequest",
                                 __base__=generic[1][state, action])
    # Outcome with the state typed as the ruleset's state: for the documents only; the
    # routes serialise the engine's Outcome, whose state is that model dumped as JSON.
    typed_state: Any = state | None
    outcome = create_model(f"{prefix}Outcome", __base__=Outcome, state=(typed_state, None))
    outcomes: Any = list[outcome]
    batch_response = create_model(f"{prefix}ValidateBatchResponse", __base__=Frozen,
                                  outcomes=(outcomes, ...))
    return Contract(ruleset, validate_request, batch_request, outcome, batch_response)


def example_body(ruleset: Ruleset, what: str) -> dict[str, Any] | None:
    examples = ruleset.examples
    if what == "validate":
        return {"state": examples.state, "action": examples.action}
    if what == "validate-batch":
        return {"state": examples.state, "actions": [examples.action], "mode": "each"}
    query = ruleset.queries.get(what)
    if query is not None and query.examples:
        return dict(query.examples[0])
    return None

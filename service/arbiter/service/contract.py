"""The request and answer models of each ruleset, derived from the ruleset's own state
and action models: one place that the lifecycle (for parsing and answering) and the
documents (OpenAPI, GraphQL) read, so they cannot disagree."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, Generic, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from arbiter.engine.outcome import Event, Mode, Violation
from arbiter.engine.registry import AnyRuleset as Ruleset
from arbiter.engine.ruleset import describe
from arbiter.engine.wire import Frozen
from arbiter.service.catalogue import CodeEntry, EventEntry, RulesetDescription
from arbiter.service.signing import StateSignature

MAX_BATCH_SCHEMA = 10_000


def camel(ruleset_id: str) -> str:
    """``hex_maneuver`` -> ``HexManeuver``."""
    return "".join(part.capitalize() for part in ruleset_id.split("_"))


class Outcome(BaseModel):
    """The answer to ``validate``. An illegal action is a verdict, not an error."""

    # The engine's Outcome (engine.outcome) with what the service adds where the contract
    # has it: the patch after the state, the signature last. Written out rather than
    # subclassed: a subclass would put both after the engine's fields, and every answer's
    # bytes would change.

    model_config = ConfigDict(frozen=True, extra="forbid")

    ruleset: str
    ruleset_version: str
    legal: bool
    applied: bool = Field(
        description="True when ``state`` holds the result: always for a legal action, and "
        "for an illegal one in advisory mode when its effect is well defined."
    )
    violations: list[Violation] = Field(default_factory=list)
    state: dict[str, Any] | None = None
    patch: list[dict[str, Any]] | None = Field(
        default=None, description="With \"return\": \"patch\": the resulting state as "
        "an RFC 6902 JSON Patch against the state the request sent (state is then null).")
    events: list[Event] = Field(default_factory=list)
    derived: dict[str, Any] = Field(default_factory=dict)
    reversible: bool = True
    state_hash: str | None = None
    signature: StateSignature | None = Field(
        default=None, description="The resulting state's signature, when the service signs "
        "states (ARBITER_STATE_KEYS) and the state judged was signed: send it back beside "
        "that state (whole, by reference or patched, it is the same state).")


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
    view_request: type[BaseModel]
    view: type[BaseModel]
    # Sealed orders (rulesets whose players give orders in secret; None otherwise).
    seal_request: type[BaseModel] | None
    unseal_request: type[BaseModel] | None
    unsealed: type[BaseModel] | None
    # A state alone and its signature, as a transport that asks it several questions
    # sends them (GraphQL): parsed as the requests' states are.
    state_request: type[BaseModel]
    # GET /v1/rulesets/{id}: the catalogue, its codes and kinds as the enums below.
    description: type[BaseModel]


def lower_camel(name: str) -> str:
    """``legal-actions`` -> ``legalActions``: a route's name in an operation id."""
    first, *rest = name.split("-")
    return first + "".join(part.capitalize() for part in rest)


def _enum(name: str, values: Iterable[str], doc: str) -> Any:
    """A string enum of ``values`` (a catalogue's codes or kinds), so the documents list
    them; plain ``str`` when there are none (an empty enum admits nothing)."""
    members = list(values)
    if not members:
        return str
    enum = StrEnum(name, [(v, v) for v in members])  # type: ignore[misc]  # functional API
    enum.__doc__ = doc
    return enum


def _catalogued(ruleset: Ruleset) -> tuple[Any, Any, type[BaseModel]]:
    """The ruleset's violation and event models (``code`` and ``kind`` as its catalogue's
    enums) and its description model: for the documents; the engine's own ``Violation``
    and ``Event`` carry the same strings."""
    prefix = camel(ruleset.id)
    codes = _enum(f"{prefix}ViolationCode", ruleset.codes,
                  f"A violation code of {ruleset.title}: GET /v1/rulesets/{ruleset.id} "
                  "lists each with the rule it enforces and its message template.")
    kinds = _enum(f"{prefix}EventKind", ruleset.event_kinds,
                  f"An event kind of {ruleset.title}: GET /v1/rulesets/{ruleset.id} lists "
                  "each with the rule that makes it happen and its message template.")
    violation = create_model(f"{prefix}Violation", __base__=Violation,
                             __doc__="A rule the action breaks, with the rule's id.",
                             code=(codes, ...), params=_params(ruleset, "violation"))
    event = create_model(f"{prefix}Event", __base__=Event,
                         __doc__="Something the action made happen, with the rule's id.",
                         kind=(kinds, ...), params=_params(ruleset, "event"))
    code_entry = create_model(f"{prefix}CodeEntry", __base__=CodeEntry, code=(codes, ...))
    event_entry = create_model(f"{prefix}EventEntry", __base__=EventEntry, kind=(kinds, ...))
    description = create_model(
        f"{prefix}Description", __base__=RulesetDescription, __doc__=RulesetDescription.__doc__,
        violation_codes=(list[code_entry], ...), event_kinds=(list[event_entry], ...))
    return violation, event, description


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


class StateRequest(Frozen, Generic[S]):
    state: S
    signature: StateSignature | None = SIGNATURE


class Envelope(Frozen):
    """One player's orders, sealed by the service for that player and one state: only the
    service opens it, and only to resolve that state's turn (or for the player who sealed
    it, with its receipt)."""

    player: str = Field(min_length=1, max_length=64, description="Whose orders it holds.")
    sealed: str = Field(min_length=1, max_length=1 << 20, pattern=r"^sealed:v1:",
                        description="The seal, as the service answered it.")


ENVELOPES: Any = Field(default_factory=list, max_length=64, description=(
    "Sealed orders (from seal-orders), one envelope per player: each opened for its "
    "player and this state, its orders added to those given in the clear."))


class SealOrdersRequest(Frozen, Generic[S, A]):
    """A player's orders to seal for one state: checked as given alone, then sealed."""

    state: S
    signature: StateSignature | None = SIGNATURE
    action: A = Field(description="The player's orders, as the action that gives them "
                      "alone (phased_orders: submit).")


class SealedOrders(Frozen):
    """The verdict on the orders given alone, and, when they are legal, the envelope to
    hand to whoever resolves the turn, with the receipt to keep."""

    legal: bool
    violations: list[Violation] = Field(default_factory=list)
    envelope: Envelope | None = Field(default=None, description="The sealed orders (null "
                                      "when they break a rule): pass them on.")
    receipt: str | None = Field(default=None, description="Keep it: with it, the service "
                                "opens this envelope for you (unseal-orders); the relay "
                                "never sees it.")


class UnsealOrdersRequest(Frozen, Generic[S]):
    """An envelope to open for the player who sealed it."""

    state: S
    signature: StateSignature | None = SIGNATURE
    envelope: Envelope
    receipt: str = Field(pattern=r"^[0-9a-f]{64}$", description="The receipt given with "
                         "the envelope.")


class UnsealedOrders(Frozen):
    """An envelope opened for the player who sealed it (each ruleset types ``action`` as
    its own action)."""

    player: str
    action: Any = Field(description="The orders the envelope holds, as the action that "
                        "gave them.")


class ViewRequest(Frozen, Generic[S]):
    """A state to be shown as a player may see it."""

    state: S
    signature: StateSignature | None = SIGNATURE
    player: str | None = Field(default=None, min_length=1, max_length=64, description=(
        "The player who looks (one of the state's); omitted: anybody who is not the "
        "service. The five rulesets keep nothing private to one player in a state, so "
        "every player sees the same view."))


class HiddenShown(Frozen):
    pointer: str = Field(description="Where the hidden field is in the state.")
    count: int | None = Field(description="What anybody may see of it: a list's length "
                              "(null for a seed).")
    sealed: bool = Field(description="Sealed: the service opens it to judge the view as "
                         "the whole state. Otherwise withheld: a question that needs it is "
                         "refused.")


class View(Frozen):
    """A state as a player may see it: each field nobody may read as a handle (sealed
    when the service has keys, else withheld), with what anybody may see of it."""

    ruleset: str
    state: dict[str, Any] = Field(description="The state with its hidden fields as "
                                  "handles: send it to any question or to validate.")
    state_hash: str = Field(description="The sha256 of the view's canonical JSON.")
    hidden: list[HiddenShown] = Field(description="Each hidden field of the state.")


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


def _params(ruleset: Ruleset, said: Literal["violation", "event"]) -> Any:
    """The params field of the ruleset's Violation (or Event) for the documents: one of
    the params models of its catalogue, each described with its code's template
    (``Catalogue.params_model``)."""
    catalogue = ruleset.catalogue
    names = list(catalogue.codes if said == "violation" else catalogue.events)
    models = tuple(catalogue.params_model(said, n) for n in names)
    params: Any = Union[models] if len(models) > 1 else models[0]  # noqa: UP007
    key = "code" if said == "violation" else "kind"
    return (params, Field(default_factory=dict, description=(
        f"The params of the {said}'s message: those of its {key}'s params model.")))


@cache
def contract(ruleset: Ruleset) -> Contract:
    prefix = camel(ruleset.id)
    action = ruleset.action_model
    # A request's state may name its board by reference (``engine.boards``).
    state: Any = ruleset.boards.state_input() if ruleset.boards else ruleset.state_model
    # The generic requests made concrete with models known only at start-up (Any: mypy
    # cannot check a subscript by runtime values).
    generic: Any = (ValidateRequest, ValidateBatchRequest)
    private = ruleset.information.private
    # A ruleset with sealed orders takes the envelopes beside the action that reveals them.
    envelopes: dict[str, Any] = {"envelopes": (list[Envelope], ENVELOPES)} if private else {}
    validate_request = create_model(f"{prefix}ValidateRequest",
                                    __base__=generic[0][state, action], **envelopes)
    batch_request = create_model(f"{prefix}ValidateBatchRequest",
                                 __base__=generic[1][state, action])
    # Outcome with the state typed as the ruleset's state, whole or by reference (when the
    # state's board came so and the action left it as it was): for the documents only; the
    # routes serialise the engine's Outcome, whose state is that model dumped as JSON.
    whole: Any = ruleset.state_model
    if ruleset.boards is not None:
        whole = ruleset.state_model | ruleset.boards.reference_model
    typed_state: Any = whole | None
    derived: Any = ruleset.derived_model or dict[str, Any]
    violation, event, description = _catalogued(ruleset)
    violations: Any = list[violation]  # type: ignore[valid-type]  # a model made at start-up
    events: Any = list[event]  # type: ignore[valid-type]  # a model made at start-up
    outcome = create_model(f"{prefix}Outcome", __base__=Outcome, __doc__=Outcome.__doc__,
                           state=(typed_state, None),
                           violations=(violations, Field(default_factory=list)),
                           events=(events, Field(default_factory=list)),
                           derived=(derived, Field(
                               default_factory=dict, description="The facts a frontend "
                               "shows beside the verdict (each present only when the "
                               "action has it).")))
    outcomes: Any = list[outcome]
    batch_response = create_model(f"{prefix}ValidateBatchResponse", __base__=Frozen,
                                  outcomes=(outcomes, ...))
    query_requests = {name: _as_sent(query.request, state,
                                     bool(private) and name == private[0].into)
                      for name, query in ruleset.queries.items()}
    seal_request, unseal_request, unsealed = (_sealed_orders(ruleset, state) if private
                                              else (None, None, None))
    new_game_request = create_model(f"{prefix}NewGameRequest", __doc__=NewGameRequest.__doc__,
                                    __base__=NewGameRequest[state])
    new_game = create_model(f"{prefix}NewGame", __base__=NewGame, __doc__=NewGame.__doc__,
                            state=(whole, Field(description=(
                                NewGame.model_fields["state"].description))))
    view_request = create_model(f"{prefix}ViewRequest", __doc__=ViewRequest.__doc__,
                                __base__=ViewRequest[state])
    view = create_model(f"{prefix}View", __base__=View, __doc__=View.__doc__,
                        state=(whole, Field(description=View.model_fields["state"].description)))
    state_request = create_model(f"{prefix}StateRequest", __base__=StateRequest[state])
    return Contract(ruleset, validate_request, batch_request, outcome, batch_response,
                    query_requests, new_game_request, new_game, view_request, view,
                    seal_request, unseal_request, unsealed, state_request, description)


def _sealed_orders(ruleset: Ruleset, state: Any
                   ) -> tuple[type[BaseModel], type[BaseModel], type[BaseModel]]:
    """The requests of seal-orders and unseal-orders, and unseal-orders' answer, for a
    ruleset whose players give orders in secret."""
    prefix = camel(ruleset.id)
    sealing: Any = SealOrdersRequest
    union = ruleset.action_model.model_fields["root"].annotation
    action: Any = Annotated[union, Field(discriminator="type")]
    return (create_model(f"{prefix}SealOrdersRequest", __doc__=SealOrdersRequest.__doc__,
                         __base__=sealing[state, ruleset.action_model]),
            create_model(f"{prefix}UnsealOrdersRequest", __doc__=UnsealOrdersRequest.__doc__,
                         __base__=UnsealOrdersRequest[state]),
            create_model(f"{prefix}UnsealedOrders", __doc__=UnsealedOrders.__doc__,
                         __base__=UnsealedOrders, action=(action, Field(
                             description=UnsealedOrders.model_fields["action"].description))))


def _as_sent(request: type[BaseModel], state: Any, envelopes: bool = False
             ) -> type[BaseModel]:
    """``request`` as REST reads it: its ``state`` read as ``state`` (the state, or it by
    reference) and its ``signature`` beside it (and the ``envelopes`` of sealed orders,
    for the query that reveals them); the same name, so the documents show it in the
    request's place."""
    field = request.model_fields.get("state")
    if field is None:
        return request
    extra: dict[str, Any] = {"envelopes": (list[Envelope], ENVELOPES)} if envelopes else {}
    return create_model(request.__name__, __base__=request, __doc__=request.__doc__,
                        state=(state, field), signature=(StateSignature | None, SIGNATURE),
                        **extra)


def example_body(ruleset: Ruleset, what: str) -> dict[str, Any] | None:
    examples = ruleset.examples
    if what == "validate":
        return {"state": examples.state, "action": examples.action}
    if what == "validate-batch":
        return {"state": examples.state, "actions": [examples.action], "mode": "each"}
    if what in ("new-game", "view"):
        return {"state": examples.state}
    private = ruleset.information.private
    if what == "seal-orders" and private:
        return {"state": examples.state, "action": private[0].example(examples.action)}
    query = ruleset.queries.get(what)
    if query is not None and query.examples:
        return dict(query.examples[0])
    return None


def description(ruleset: Ruleset) -> BaseModel:
    """What ``GET /v1/rulesets/{id}`` answers: the catalogue, with its schemas' links, as
    the ruleset's own description model (its codes and kinds as its enums)."""
    body = describe(ruleset)
    body["schemas"] = {"state": f"/v1/rulesets/{ruleset.id}/schema/state.json",
                       "action": f"/v1/rulesets/{ruleset.id}/schema/action.json"}
    return contract(ruleset).description.model_validate(body)

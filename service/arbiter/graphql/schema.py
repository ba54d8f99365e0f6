"""The GraphQL schema: one field per ruleset that takes the state once and answers many
questions of it in one query (``validate``, ``validateBatch`` and each derived query),
and beside it, for every REST route of the ruleset, its field: the catalogue
(``catalogue``), a board held (``boards``: ``<ruleset>Board``) on the Query; a new game
(``new_game``) and a board stored (``<ruleset>PutBoard``) on the Mutation, since one
draws a seed and the other stores. tests/api/test_graphql_parity.py holds the two APIs to
one list of capabilities.

Each resolver converts its GraphQL input to the JSON REST would send, asks the service's
lifecycle (``service.lifecycle``: the ruleset's field opens the state once, each question
is asked of it) and hands back what it answers; what keeps it from answering is a GraphQL
error with the same JSON pointers a REST 422 would carry (``errors``). The ruleset's field
takes the state's ``signature`` beside the state: checked once for every question, and
each resulting state of a signed state is signed. Limits: depth, aliases, tokens and
fields per operation (``cost``), the state's size and the actions' lists (the service's),
and the request's compute budget, which every question of the request shares.

The schema holds no app: the service a resolver asks, and the limits and budget an
operation is held to, are the app's, found in the operation's context (``served``), so one
schema, built once per process for the rulesets served (``build_schema``), serves every
app of the process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import strawberry
from graphql import GraphQLError
from pydantic import BaseModel
from strawberry import Info
from strawberry.annotation import StrawberryAnnotation
from strawberry.extensions import MaskErrors, ParserCache
from strawberry.schema.config import StrawberryConfig
from strawberry.tools import create_type
from strawberry.types.field import StrawberryField

from arbiter.engine.errors import InvalidInput, Problem, pointer
from arbiter.engine.outcome import Event, Location, Violation
from arbiter.engine.outcome import Mode as EngineMode
from arbiter.engine.registry import AnyRuleset as Ruleset
from arbiter.engine.registry import Registry
from arbiter.engine.ruleset import Query
from arbiter.graphql.boards import board_fields
from arbiter.graphql.catalogue import catalogue_field, ruleset_list
from arbiter.graphql.cost import CostedValidation, TokenLimit, budgeted_execution
from arbiter.graphql.errors import answered, graphql_error
from arbiter.graphql.fields import argument, field
from arbiter.graphql.input_problems import InputProblems
from arbiter.graphql.new_game import new_game_field
from arbiter.graphql.paths import Where
from arbiter.graphql.served import budget_ms_of, cost_of, max_tokens_of, service_of
from arbiter.graphql.types import (
    BatchMode,
    ListedTwice,
    Mode,
    Return,
    TypeMaker,
    count_entry,
    count_key,
    count_map,
    is_count_map,
    list_of,
    patch_operations,
    plain,
    state_scalar,
)
from arbiter.service.contract import (
    Envelope,
    Outcome,
    Returns,
    SealedOrders,
    View,
    camel,
    contract,
)
from arbiter.service.lifecycle import envelopes_of
from arbiter.service.opened import Judged, Opened
from arbiter.service.signing import StateSignature
from arbiter.settings import Settings


@dataclass(frozen=True, slots=True)
class Asked:
    """The root value of a ruleset's questions: the state the service opened (once per
    query), and the field that took it, for the problems' paths."""

    opened: Opened
    where: Where | None = None


@dataclass(frozen=True, slots=True)
class Answered:
    """An outcome as GraphQL answers it: its fields, and the resulting state to ask more
    questions of (``next``)."""

    judged: Judged

    def __getattr__(self, name: str) -> Any:
        return getattr(self.judged.answer, name)


def _derived_field(maker: TypeMaker, model: type[BaseModel]) -> Any:
    """``Outcome.derived`` as the ruleset's derived model (a fact the action does not
    have is null). Only GraphQL reads the facts into the model; REST dumps the dict."""

    def resolve(root: Any) -> Any:
        return model.model_validate(root.derived)

    return strawberry.field(resolver=resolve, graphql_type=maker.object(model, input=False),
                            description=Outcome.model_fields["derived"].description or
                            "The facts a frontend shows beside the verdict.")


@dataclass(frozen=True, slots=True)
class Outcomes:
    """What ``validateBatch`` answers: its outcomes, in order."""

    outcomes: list[Answered]


def _outcomes(root: Outcomes) -> list[Answered]:
    return root.outcomes


def _next_state(root: Any) -> Asked | None:
    """``Outcome.next``: the questions about the state the action resulted in."""
    after = root.judged.after() if isinstance(root, Answered) else None
    return Asked(after) if after is not None else None


class SchemaBuilder:
    """The schema of ``registry``, its scalars ``@specifiedBy`` links under ``public_url``.
    It holds no app: each resolver finds the service in its operation's context
    (``served``)."""

    def __init__(self, registry: Registry, public_url: str) -> None:
        self.registry = registry
        self.public_url = public_url
        self.maker = TypeMaker()
        # Shared output types first, so every ruleset's Outcome reuses them.
        for model in (Location, StateSignature):
            self.maker.object(model, input=False)
        self.signature_input = self.maker.object(StateSignature, input=True)

    def _outcome_type(self, ruleset: Ruleset, state_type: Any) -> tuple[Any, StrawberryField]:
        """The ruleset's Outcome: violation codes and event kinds as its own enums (from its
        catalogue), and ``next``, the ruleset's questions about the resulting state (typed
        once the questions type exists: ``questions``)."""
        maker = self.maker
        prefix = camel(ruleset.id)
        codes = maker.named_enum(f"{prefix}ViolationCode", list(ruleset.codes),
                                 f"The violation codes of {ruleset.id} (its catalogue).")
        kinds = maker.named_enum(f"{prefix}EventKind", list(ruleset.event_kinds),
                                 f"The event kinds of {ruleset.id} (its catalogue).")
        severity = maker.of(Violation.model_fields["severity"].annotation, input=False,
                            name="Severity")
        catalogue = ruleset.catalogue
        violation_params = maker.params_union(
            f"{prefix}ViolationParams",
            {c: catalogue.params_model("violation", c) for c in ruleset.codes},
            "violation", "code",
            f"The params of a {ruleset.id} violation: one type per code.")
        event_params = maker.params_union(
            f"{prefix}EventParams",
            {k: catalogue.params_model("event", k) for k in ruleset.event_kinds},
            "event", "kind",
            f"The params of a {ruleset.id} event: one type per kind.")
        violation = maker.object(Violation, input=False, name=f"{prefix}Violation",
                                 overrides={"code": codes, "severity": severity},
                                 exclude=frozenset({"params"}),
                                 extra={"params": violation_params})
        event = maker.object(Event, input=False, name=f"{prefix}Event",
                             overrides={"kind": kinds}, exclude=frozenset({"params"}),
                             extra={"params": event_params})
        next_field: Any = strawberry.field(
            resolver=_next_state,
            description="The ruleset's questions about the resulting "
            "state (null when no state results): a what-if chain in one request, every "
            "judgement counted against the request's compute budget.")
        patch: Any = strawberry.field(
            resolver=patch_operations, description=Outcome.model_fields["patch"].description)
        extra = {"next": next_field, "patch": patch}
        if ruleset.derived_model is not None:
            extra["derived"] = _derived_field(maker, ruleset.derived_model)
        outcome = maker.object(Outcome, input=False, name=f"{prefix}Outcome", overrides={
            "state": state_type | None, "violations": list_of(violation),
            "events": list_of(event)}, extra=extra, exclude=frozenset(extra))
        return outcome, next_field

    def questions(self, ruleset: Ruleset) -> tuple[type, Any]:
        """The ruleset's questions type and its state scalar."""
        maker = self.maker
        prefix = camel(ruleset.id)
        state_type = state_scalar(ruleset.id, self.public_url)
        action_input = maker.action_input(ruleset.id, ruleset.action_model)
        outcome, next_field = self._outcome_type(ruleset, state_type)
        fields = self._judging_fields(ruleset, action_input, outcome)
        fields.append(self._view_field(ruleset, state_type))
        # Its answers' violations and events are its own (codes as its enums), a state in
        # them its state scalar.
        maker.local = {Violation: maker.object(Violation, input=False,
                                               name=f"{prefix}Violation"),
                       Event: maker.object(Event, input=False, name=f"{prefix}Event")}
        maker.local_state = state_type
        try:
            for query in ruleset.queries.values():
                fields.append(self._query_field(ruleset, query))
            if ruleset.information.private:
                fields += self._sealed_orders_fields(ruleset, action_input)
        finally:
            maker.local, maker.local_state = {}, None
        questions = create_type(f"{prefix}Questions", fields,
                                description=f"Questions about one {ruleset.id} state.")
        next_field.type_annotation = StrawberryAnnotation(Optional[questions])  # noqa: UP045
        return questions, state_type

    def _judging_fields(self, ruleset: Ruleset, action_input: Any, outcome: Any
                        ) -> list[StrawberryField]:
        """``validate`` and ``validateBatch`` (its outcomes in ``{outcomes}``, as REST's
        validate-batch answers): their outcomes carry the state each action resulted in,
        for ``Outcome.next``; ``return`` says how the resulting state comes back."""
        maker = self.maker

        async def validate(root: Asked, info: Info, action: Any, mode: Any = None,
                           returns: Any = None, envelopes: Any = None) -> Answered:
            service = service_of(info.context)
            where = Where("validate", {"action": action, "envelopes": envelopes}, maker,
                          root.where)
            sent = _action_json(action, ("action",), maker, where)
            judged = await answered(service.judge(root.opened, sent, _mode(mode),
                                                  _returns(returns),
                                                  plain(envelopes or [], maker)), where)
            return Answered(judged)

        async def validate_many(root: Asked, info: Info, actions: list[Any], mode: Any = None,
                                strictness: Any = None, returns: Any = None) -> Outcomes:
            service = service_of(info.context)
            where = Where("validateBatch", {"actions": actions}, maker, root.where)
            sent = [_action_json(a, ("actions", i), maker, where) for i, a in enumerate(actions)]
            judged = await answered(service.judge_batch(
                root.opened, sent, mode is not None and mode.value == "sequence",
                _mode(strictness), _returns(returns)), where)
            return Outcomes([Answered(j) for j in judged])

        returned = argument("returns", Return | None, None, graphql_name="return")
        outcomes = create_type(f"{camel(ruleset.id)}ValidateBatchResponse", [field(
            "outcomes", _outcomes, list_of(outcome), "One outcome per action judged, in "
            "order (a sequence stops after the first not applied).", [])],
            description="What validateBatch answers, as REST's validate-batch does.")
        sealed = self._envelopes_argument(ruleset, ruleset.information.private[0].into
                                          if ruleset.information.private else "")
        return [
            field("validate", validate, outcome, "Judge one action against the state.",
                  [argument("action", action_input), argument("mode", Mode | None, None),
                   returned, *sealed]),
            field("validate_batch", validate_many, outcomes,
                  "Judge several actions, each alone or in sequence.",
                  [argument("actions", list_of(action_input)),
                   argument("mode", BatchMode | None, None),
                   argument("strictness", Mode | None, None), returned]),
        ]

    def _envelopes_argument(self, ruleset: Ruleset, name: str) -> list[Any]:
        """``envelopes``: the sealed orders of every player, for the action (or query)
        ``name`` when it is the one that reveals them (``Information.private``)."""
        private = ruleset.information.private
        if not private or name != private[0].into:
            return []
        envelope = self.maker.object(Envelope, input=True, name="EnvelopeInput")
        return [argument("envelopes", list_of(envelope) | None, None)]

    def _sealed_orders_fields(self, ruleset: Ruleset, action_input: Any
                              ) -> list[StrawberryField]:
        """``sealOrders(action)`` and ``unsealOrders(envelope, receipt)``, as REST's
        seal-orders and unseal-orders answer (a ruleset whose players give orders in
        secret)."""
        maker = self.maker
        sealed = maker.object(SealedOrders, input=False,
                              name=f"{camel(ruleset.id)}SealedOrders")
        answer = contract(ruleset).unsealed
        assert answer is not None  # asked only of a ruleset with sealed orders
        unsealed = maker.object(answer, input=False)
        envelope = maker.object(Envelope, input=True, name="EnvelopeInput")

        async def seal(root: Asked, info: Info, action: Any) -> SealedOrders:
            service = service_of(info.context)
            where = Where("sealOrders", {"action": action}, maker, root.where)
            sent = _action_json(action, ("action",), maker, where)
            return await answered(service.compute.run(
                lambda: service.sealed(root.opened, sent)), where)

        async def unseal(root: Asked, info: Info, envelope: Any, receipt: str) -> BaseModel:
            service = service_of(info.context)
            where = Where("unsealOrders", {"envelope": envelope, "receipt": receipt}, maker,
                          root.where)
            sent = envelopes_of([plain(envelope, maker)])[0]
            return await answered(service.compute.run(
                lambda: service.unsealed(root.opened, sent, receipt)), where)

        return [field("seal_orders", seal, sealed, "Seal one player's orders for this state "
                      "(judged as given alone): an envelope only the service opens, to "
                      "resolve this state's turn, and the receipt to keep.",
                      [argument("action", action_input)]),
                field("unseal_orders", unseal, unsealed, "Open an envelope for the player who "
                      "sealed it (with its receipt).",
                      [argument("envelope", envelope), argument("receipt", str)])]

    def _view_field(self, ruleset: Ruleset, state_type: Any) -> StrawberryField:
        """``view(player)``: the state as a player may see it, as REST's view answers."""
        answer = self.maker.object(View, input=False, name=f"{camel(ruleset.id)}View",
                                   overrides={"state": state_type})

        async def view(root: Asked, info: Info, player: str | None = None) -> View:
            service = service_of(info.context)
            where = Where("view", {"player": player}, self.maker, root.where)
            opened = root.opened
            return await answered(service.compute.run(lambda: service.seen(opened, player)),
                                  where)

        return field("view", view, answer, "The state as a player may see it: each field "
                     "nobody may read as a handle with its count (sealed when the service "
                     "has keys: the view is then judged as the whole state; else withheld).",
                     [argument("player", str | None, None)])

    def _query_field(self, ruleset: Ruleset, query: Query) -> StrawberryField:
        """A derived query: its arguments are the request model's fields but the state,
        its answer the response model, through the cache."""
        maker = self.maker
        arguments = []
        counts: dict[str, str] = {}  # the arguments that are count maps: name -> key
        for name, info in query.request.model_fields.items():
            if name == "state":
                continue
            # Named as the request's field, so a closed set of words is an enum as REST's
            # is (one made already for the same words keeps its name).
            tp = maker.of(info.annotation, input=True, name=query.request.__name__ + camel(name))
            if is_count_map(info.annotation):
                counts[name] = count_key(name)
                tp = list_of(count_entry(name, input=True))
            arguments.append(argument(name, tp) if info.is_required()
                             else argument(name, tp | None, None))
        arguments += self._envelopes_argument(ruleset, query.name)
        response = maker.object(query.response, input=False)

        field_name = camel(query.name.replace("-", "_"))
        field_name = field_name[:1].lower() + field_name[1:]

        async def run(root: Asked, info: Info, **kwargs: Any) -> BaseModel:
            where = Where(field_name, kwargs, maker, root.where, counts)
            try:
                sent = {k: count_map(v, counts[k], (k,)) if k in counts else plain(v, maker, (k,))
                        for k, v in kwargs.items() if v is not None}
            except ListedTwice as twice:
                raise graphql_error(_listed_twice(twice), where) from None
            return await answered(service_of(info.context).ask(root.opened, query, sent),
                                  where)

        return field(query.name.replace("-", "_"), run, response, query.summary, arguments)

    def _ruleset_fields(self, ruleset: Ruleset
                        ) -> tuple[list[StrawberryField], list[StrawberryField]]:
        """The Query's fields of ``ruleset`` (its questions about one state, its catalogue,
        and whether a board is held) and its Mutation's (a new game, a board stored)."""
        questions, state_type = self.questions(ruleset)
        field_name = camel(ruleset.id)[:1].lower() + camel(ruleset.id)[1:]
        maker = self.maker

        async def ask(info: Info, state: Any, signature: Any = None) -> Asked:
            where = Where(field_name, {"state": state, "signature": signature}, maker)
            service = service_of(info.context)
            opened = await answered(service.open(ruleset, state, plain(signature)), where)
            return Asked(opened, where)

        queries = [field(ruleset.id, ask, questions,
                         f"{ruleset.title} (v{ruleset.version}): ask questions of one state.",
                         [argument("state", state_type),
                          argument("signature", self.signature_input | None, None)]),
                   catalogue_field(ruleset, maker)]
        mutations = [new_game_field(ruleset, maker, state_type)]
        if ruleset.boards is not None:
            held, put = board_fields(ruleset, maker, self.public_url)
            queries.append(held)
            mutations.append(put)
        return queries, mutations

    def schema(self) -> strawberry.Schema:
        queries: list[StrawberryField] = []
        mutations: list[StrawberryField] = []
        for ruleset in self.registry:
            asked, done = self._ruleset_fields(ruleset)
            queries += asked
            mutations += done
        query_type = create_type("Query", [*queries, ruleset_list(self.registry)])
        mutation_type = create_type("Mutation", mutations)
        # Each operation gets extensions of its own (strawberry's classes or factories);
        # the parser's and validation's caches are strawberry's, kept per maxsize for the
        # process. The limits are the app's, found in the operation's context (``served``).
        extensions: list[Any] = [
            lambda: ParserCache(maxsize=256),
            # Depth, aliases, fields and spreads in one linear pass (``cost``), before
            # the validation (and its cache) ever sees the document.
            lambda: CostedValidation(cost_of, maxsize=256),
            lambda: TokenLimit(max_tokens_of),
            InputProblems,
            lambda: MaskErrors(should_mask_error=_unexpected),
        ]
        return ArbiterSchema(query=query_type, mutation=mutation_type,
                             config=StrawberryConfig(auto_camel_case=True),
                             extensions=extensions,
                             execution_context_class=budgeted_execution(budget_ms_of))


class ArbiterSchema(strawberry.Schema):
    """Logs only unexpected errors: a client's malformed state is an answer, not an incident."""

    def process_errors(self, errors: list[GraphQLError],
                       execution_context: Any = None) -> None:
        unexpected = [e for e in errors if _unexpected(e)]
        if unexpected:
            super().process_errors(unexpected, execution_context)


def _unexpected(error: GraphQLError) -> bool:
    """Mask only errors that are not ours: never leak an internal exception's text."""
    original = error.original_error
    return original is not None and not isinstance(original, GraphQLError)


def _mode(choice: Mode | None) -> EngineMode:
    """The ``Mode`` argument as the lifecycle takes it (None: strict)."""
    return "advisory" if choice is not None and choice.value == "advisory" else "strict"


def _returns(choice: Return | None) -> Returns:
    """The ``return`` argument as the lifecycle takes it (None: the state, whole)."""
    return "state" if choice is None else choice.value


def _action_json(value: Any, root: tuple[str | int, ...], maker: TypeMaker, where: Where
                 ) -> Any:
    """An action input as the JSON REST would send (one-of member unwrapped, count lists
    as maps); a map given one key twice is refused as REST refuses it."""
    try:
        return plain(value, maker, root)
    except ListedTwice as twice:
        raise graphql_error(_listed_twice(twice), where) from None


def _listed_twice(twice: ListedTwice) -> InvalidInput:
    return InvalidInput([Problem(pointer(*twice.where), f"{twice.key} is listed twice: a "
                                 "map has one entry per key")])


# Building the schema costs about 0.4 s of CPU (five rulesets typed end to end), and every
# app of a process serving the same rulesets has the same one (each test's app,
# export-schema): built once per process for them. Its shape is the rulesets' and the
# public URL's alone (ARBITER_PUBLIC_URL is in the state and board scalars' @specifiedBy
# links); every other setting, and the service, is an app's, reached through each
# operation's context (``served``). Keyed by the rulesets' identity, kept alive here.
_SCHEMAS: dict[tuple[tuple[int, ...], str],
               tuple[tuple[Ruleset, ...], strawberry.Schema]] = {}


def build_schema(registry: Registry, settings: Settings) -> strawberry.Schema:
    """The schema of ``registry`` (of ``settings``, only the public URL shapes it); its
    operations need a context with the app's ``served.Served`` (the endpoint gives it)."""
    rulesets = tuple(registry)
    key = (tuple(id(ruleset) for ruleset in rulesets), settings.public_url)
    if key not in _SCHEMAS:
        _SCHEMAS[key] = (rulesets, SchemaBuilder(registry, settings.public_url).schema())
    return _SCHEMAS[key][1]

"""The GraphQL schema: one field per ruleset that takes the state once and answers many
questions of it in one query (``validate``, ``validateBatch`` and each derived query).

Errors: a state or action that does not validate comes back as a GraphQL error whose
``extensions.problems`` carry the same JSON pointers a REST 422 would (``/state/...``,
``/action/...``); a refused signature (``signing``) has ``extensions.code``
``STATE_SIGNATURE``. The ruleset's field takes the state's ``signature`` beside the state:
checked once for every question, and each resulting state of a signed state is signed.
Limits: depth, aliases, tokens and fields per operation, the state's size and the
actions' lists (``limits.py``), and the request's compute budget, which every judgement
of the request shares (``limits.Compute``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
import strawberry
from graphql import GraphQLError
from pydantic import BaseModel, TypeAdapter, ValidationError
from strawberry.annotation import StrawberryAnnotation
from strawberry.extensions import (
    MaskErrors,
    MaxTokensLimiter,
    ParserCache,
)
from strawberry.schema.config import StrawberryConfig
from strawberry.tools import create_type
from strawberry.types.arguments import StrawberryArgument
from strawberry.types.field import StrawberryField
from strawberry.types.unset import UNSET

from arbiter.api.answers import Answerer, digest
from arbiter.api.boards import BoardMissing, BoardStore, whole_state
from arbiter.api.contract import camel
from arbiter.api.graphql_cost import CostedValidation, CostLimits, budgeted_execution
from arbiter.api.graphql_loop import on_service_loop
from arbiter.api.graphql_types import (
    JSON,
    BatchMode,
    Mode,
    TypeMaker,
    list_of,
    plain,
    state_scalar,
)
from arbiter.api.limits import (
    BudgetExceeded,
    Busy,
    Compute,
    LimitExceeded,
    Limits,
)
from arbiter.api.metrics import Metrics
from arbiter.api.problems import at_actions, validation_problems
from arbiter.api.signing import SignatureRefused, Signer
from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.judging import Seal
from arbiter.engine.outcome import Event, Location, Outcome, StateSignature, Violation
from arbiter.engine.registry import AnyRuleset as Ruleset
from arbiter.engine.registry import Registry
from arbiter.engine.ruleset import Query
from arbiter.settings import Settings

T = TypeVar("T")


def _problem_error(message: str, problems: list[Problem]) -> GraphQLError:
    return GraphQLError(message, extensions={
        "code": "INVALID_INPUT",
        "problems": [{"pointer": p.pointer, "detail": p.detail} for p in problems]})


def _refused(exc: ValidationError, value: Any, root: tuple[str | int, ...]) -> GraphQLError:
    """A ValidationError as a GraphQL error whose pointers start at ``root`` (``/state``,
    ``/action``, ``/actions/3``), as in REST."""
    document: Any = value  # the value where REST would have it, for the pointers
    for seg in reversed(root):
        document = [None] * seg + [document] if isinstance(seg, int) else {seg: document}
    where = "/".join(map(str, root))
    return _problem_error(f"invalid {where}: see extensions.problems",
                          validation_problems(exc, document, root))


def _parse(model: type[BaseModel], value: Any, *root: str | int) -> Any:
    """A typed GraphQL input (its types already checked by GraphQL) validated by ``model``."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise _refused(exc, value, root) from None


def _parse_state(model: TypeAdapter[Any], value: Any) -> tuple[BaseModel, bytes]:
    """A state scalar: JSON the client wrote, judged as strictly as a REST body is (no
    ``true`` for a count, no ``"3"`` for a number). Dumped once, in the client's order
    (the order of a map's keys can be part of an answer, as in REST): the same bytes are
    parsed and key the cache."""
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:
        # An integer beyond 64 bits: the model's bounds refuse it with its pointer.
        written = b""
    try:
        if written:
            return model.validate_json(written, strict=True), written
        return model.validate_python(value), written
    except ValidationError as exc:
        raise _refused(exc, value, ("state",)) from None


def _invalid(exc: InvalidInput) -> GraphQLError:
    return _problem_error("the request cannot be judged: see extensions.problems", exc.problems)


def _over_limit(exc: LimitExceeded | BudgetExceeded | Busy) -> GraphQLError:
    """The GraphQL form of a 413/422 limit problem (or of a busy 503)."""
    if isinstance(exc, Busy):
        return GraphQLError(str(exc), extensions={"code": "BUSY",
                                                  "retry_after": exc.retry_after})
    if isinstance(exc, BudgetExceeded):
        return GraphQLError(str(exc), extensions={
            "code": "LIMIT_EXCEEDED", "limit": exc.limit, "maximum": exc.budget_ms,
            "problems": [{"pointer": "", "detail": str(exc)}]})
    return GraphQLError(f"the request is over a limit ({exc.limit}: {exc.maximum}): see "
                        "extensions.problems", extensions={
                            "code": "LIMIT_EXCEEDED", "limit": exc.limit,
                            "maximum": exc.maximum,
                            "problems": [{"pointer": p.pointer, "detail": p.detail}
                                         for p in exc.problems]})


def _signature_refused(exc: SignatureRefused) -> GraphQLError:
    return GraphQLError(exc.detail, extensions={
        "code": "STATE_SIGNATURE", "problems": [{"pointer": exc.pointer, "detail": exc.detail}]})


async def _judged(compute: Compute, work: Callable[[], T]) -> T:
    """Run ``work`` under the request's compute budget, errors as GraphQL errors."""
    try:
        return await on_service_loop(lambda: compute.run(work))
    except InvalidInput as exc:
        raise _invalid(exc) from None
    except SignatureRefused as exc:
        raise _signature_refused(exc) from None
    except (LimitExceeded, BudgetExceeded, Busy) as exc:
        raise _over_limit(exc) from None


@dataclass(frozen=True, slots=True)
class Asked:
    """The root value of a ruleset's questions: the state, parsed once per query, and the
    digest and size of its JSON, which key the cached answers."""

    ruleset: Ruleset
    state: BaseModel
    state_digest: bytes
    state_size: int
    board: str | None = None   # the board's id, when the state named it
    signed: bool = False       # it came signed, and its signature holds



def _argument(name: str, annotation: Any, default: Any = UNSET) -> StrawberryArgument:
    return StrawberryArgument(python_name=name, graphql_name=None,
                              type_annotation=StrawberryAnnotation(annotation), default=default)


def _field(name: str, resolve: Callable[..., Any], returns: Any, description: str,
           arguments: list[StrawberryArgument]) -> StrawberryField:
    """A field whose GraphQL arguments are declared here rather than read from the
    resolver's signature: they come from the rulesets' models, known only at start-up.
    ``name`` is the Python name (``validate_batch``), camel-cased in the schema."""
    made: StrawberryField = strawberry.field(resolver=resolve, graphql_type=returns,
                                             description=description)
    made.arguments = arguments
    made.python_name = name
    return made


class SchemaBuilder:
    def __init__(self, registry: Registry, settings: Settings, answerer: Answerer,
                 compute: Compute | None = None, boards: BoardStore | None = None,
                 metrics: Metrics | None = None, signer: Signer | None = None) -> None:
        self.registry = registry
        self.boards = boards or BoardStore(0)
        self.signer = signer or Signer.from_settings(settings)
        self.metrics = metrics
        self.settings = settings
        self.answerer = answerer
        self.limits = Limits.from_settings(settings)
        self.compute = compute or Compute(0, 1)
        self.maker = TypeMaker()
        # Shared output types first, so every ruleset's Outcome reuses them.
        for model in (Location, Violation, Event, StateSignature):
            self.maker.object(model, input=False)
        self.signature_input = self.maker.object(StateSignature, input=True)

    def questions(self, ruleset: Ruleset) -> tuple[type, Any]:
        """The ruleset's questions type and its state scalar."""
        maker = self.maker
        prefix = camel(ruleset.id)
        state_type = state_scalar(ruleset.id, self.settings.public_url)
        outcome = maker.object(Outcome, input=False, name=f"{prefix}Outcome",
                               overrides={"state": state_type | None})
        action_input = maker.action_input(ruleset.id, ruleset.action_model)
        limits = self.limits
        compute = self.compute
        metrics = self.metrics
        sealed = self._sealed

        def counted(outcome: Outcome) -> Outcome:
            if metrics is not None:
                metrics.violations_found(ruleset.id, (v.code for v in outcome.violations))
            return outcome

        def action_of(value: Any, *pointer_root: str | int) -> Any:
            action = _parse(ruleset.action_model, plain(value, maker), *pointer_root)
            limits.check_steps(action, *pointer_root)
            return action

        async def validate(root: Asked, action: Any, mode: Any = None) -> Outcome:
            def work() -> Outcome:
                limits.check_outcomes(1, root.state_size, True, add_up=True)
                act = action_of(action, "action")
                return counted(root.ruleset.validate(
                    root.state, act, mode.value if mode else "strict", root.board,
                    seal=sealed(root, [(act, "/action")])))

            return await _judged(compute, work)

        async def validate_many(root: Asked, actions: list[Any], mode: Any = None,
                                strictness: Any = None) -> list[Outcome]:
            def work() -> list[Outcome]:
                limits.check_batch(len(actions))
                limits.check_outcomes(len(actions), root.state_size, True, add_up=True)
                parsed = [action_of(a, "actions", i) for i, a in enumerate(actions)]
                seal = sealed(root, [(a, f"/actions/{i}") for i, a in enumerate(parsed)])
                return [counted(o) for o in at_actions(root.ruleset.validate_batch(
                    root.state, parsed, sequence=bool(mode and mode.value == "sequence"),
                    mode=strictness.value if strictness else "strict", board=root.board,
                    seal=seal))]

            return await _judged(compute, work)

        fields = [
            _field("validate", validate, outcome, "Judge one action against the state.",
                   [_argument("action", action_input), _argument("mode", Mode | None, None)]),
            _field("validate_batch", validate_many, list_of(outcome),
                   "Judge several actions, each alone or in sequence.",
                   [_argument("actions", list_of(action_input)),
                    _argument("mode", BatchMode | None, None),
                    _argument("strictness", Mode | None, None)]),
        ]
        for query in ruleset.queries.values():
            fields.append(self._query_field(ruleset, query))
        return create_type(f"{prefix}Questions", fields,
                           description=f"Questions about one {ruleset.id} state."), state_type

    def _sealed(self, root: Asked, actions: list[tuple[Any, str]]) -> Seal | None:
        """What signs the resulting states of a state that came signed (and whose signature
        held), once no action (each with its pointer) reports a draw its seed makes; None
        for a state that came unsigned, whose resulting states are not signed."""
        if not root.signed:
            return None
        self.signer.refuse_draws(root.ruleset, root.state, actions)
        return self.signer.seal(root.ruleset.id)

    def _query_field(self, ruleset: Ruleset, query: Query) -> StrawberryField:
        """A derived query: its arguments are the request model's fields but the state,
        its answer the response model, through the cache."""
        maker = self.maker
        answerer = self.answerer
        limits = self.limits
        arguments = []
        for name, info in query.request.model_fields.items():
            if name == "state":
                continue
            tp = maker.of(info.annotation, input=True)
            arguments.append(_argument(name, tp) if info.is_required()
                             else _argument(name, tp | None, None))
        response = maker.object(query.response, input=False)

        async def run(root: Asked, **kwargs: Any) -> BaseModel:
            body = {k: plain(v, maker) for k, v in kwargs.items() if v is not None}

            def request() -> BaseModel:
                req = query.request.model_validate({"state": root.state, **body})
                limits.check_steps(req, skip=("state",))
                return req

            try:
                return await on_service_loop(lambda: answerer.answer_parsed(
                    ruleset, query, root.state_digest, root.state_size, body, request))
            except ValidationError as exc:
                raise _problem_error("invalid arguments: see extensions.problems",
                                     validation_problems(exc, body)) from None
            except InvalidInput as exc:
                raise _invalid(exc) from None
            except (LimitExceeded, BudgetExceeded, Busy) as exc:
                raise _over_limit(exc) from None

        return _field(query.name.replace("-", "_"), run, response, query.summary, arguments)

    def _ruleset_field(self, ruleset: Ruleset) -> StrawberryField:
        """The root field that takes one state of ``ruleset`` and asks it questions."""
        questions, state_type = self.questions(ruleset)
        limits = self.limits

        boards = self.boards
        shape = ruleset.boards
        state_input: TypeAdapter[Any] = TypeAdapter(
            shape.state_input() if shape is not None else ruleset.state_model)

        signer = self.signer
        compute = self.compute

        async def ask(state: Any, signature: Any = None) -> Asked:
            parsed, written = await _judged(compute, lambda: _parse_state(state_input, state))
            sent = plain(signature)
            signed_as = _parse(StateSignature, sent, "signature") if sent is not None else None
            try:
                limits.check_state(parsed)
                whole, board = await _whole(boards, ruleset, parsed, state)
            except LimitExceeded as exc:
                raise _over_limit(exc) from None
            except InvalidInput as exc:
                raise _invalid(exc) from None
            signed = await _judged(compute, lambda: signer.check_now(ruleset, whole, signed_as))
            return Asked(ruleset, whole, digest(written), len(written), board, signed)

        return _field(ruleset.id, ask, questions,
                      f"{ruleset.title} (v{ruleset.version}): ask questions of one state.",
                      [_argument("state", state_type),
                       _argument("signature", self.signature_input | None, None)])

    def schema(self) -> strawberry.Schema:
        registry = self.registry

        def rulesets() -> list[RulesetSummary]:
            return [RulesetSummary(id=r.id, version=r.version, title=r.title,
                                   action_types=list(r.action_types), queries=sorted(r.queries),
                                   rules=[{"id": x.id, "paraphrase": x.paraphrase}
                                          for x in r.rules])
                    for r in registry]

        listing = _field("rulesets", rulesets, list[RulesetSummary],
                         "The rulesets this service judges.", [])
        query_type = create_type(
            "Query", [*(self._ruleset_field(r) for r in registry), listing])
        s = self.settings
        # strawberry's annotation asks for extension classes or factories; instances work
        # too (it checks isinstance first) and carry their settings.
        extensions: list[Any] = [
            ParserCache(maxsize=256),
            # Depth, aliases, fields and spreads in one linear pass (graphql_cost), before
            # the validation (and its cache) ever sees the document.
            CostedValidation(CostLimits.from_settings(s), maxsize=256),
            MaxTokensLimiter(max_token_count=s.graphql_max_tokens),
            MaskErrors(should_mask_error=_unexpected),
        ]
        return ArbiterSchema(query=query_type, config=StrawberryConfig(auto_camel_case=True),
                             extensions=extensions,
                             execution_context_class=budgeted_execution(self.compute.budget_ms))


@strawberry.type(description="A ruleset this service judges: its id, version, actions, "
                 "queries and rules.")
class RulesetSummary:
    id: str
    version: str
    title: str
    action_types: list[str]
    queries: list[str]
    rules: JSON  # type: ignore[valid-type]  # a scalar strawberry makes: typed in issue 23


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


async def _whole(boards: BoardStore, ruleset: Ruleset, state: BaseModel, sent: Any
                 ) -> tuple[BaseModel, str | None]:
    """The whole state a state scalar stands for (``api.boards.whole_state``), the board
    fetched from Redis when this replica has not kept it; a board no tier holds is a
    GraphQL error the client answers by sending the board inline once."""
    try:
        return whole_state(boards, ruleset, state, lambda: sent)
    except BoardMissing as missing:
        board = missing.board
        if await on_service_loop(lambda: boards.fetch(ruleset, board)) is None:
            raise GraphQLError(str(missing), extensions={
                "code": "BOARD_NOT_FOUND", "board": missing.board,
                "problems": [{"pointer": missing.pointer, "detail": str(missing)}]}) from None
        return whole_state(boards, ruleset, state, lambda: sent)
    finally:
        boards.publish()


def build_schema(registry: Registry, settings: Settings, answerer: Answerer | None = None,
                 compute: Compute | None = None, boards: BoardStore | None = None,
                 metrics: Metrics | None = None, signer: Signer | None = None
                 ) -> strawberry.Schema:
    return SchemaBuilder(registry, settings, answerer or Answerer(None), compute,
                         boards, metrics, signer).schema()

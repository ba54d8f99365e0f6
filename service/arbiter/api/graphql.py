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
from typing import Any, Optional, TypeVar

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
from arbiter.api.boards import (
    BoardMissing,
    BoardStore,
    Parsed,
    Sent,
    StoredBoard,
    inline_board,
    naming,
    whole_state,
)
from arbiter.api.contract import camel
from arbiter.api.graphql_cost import CostedValidation, CostLimits, budgeted_execution
from arbiter.api.graphql_loop import on_service_loop, service_loop
from arbiter.api.graphql_paths import Where
from arbiter.api.graphql_problems import InputProblems
from arbiter.api.graphql_types import (
    BatchMode,
    ListedTwice,
    Mode,
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
from arbiter.api.limits import (
    BudgetExceeded,
    Compute,
    LimitExceeded,
    Limits,
)
from arbiter.api.metrics import Metrics
from arbiter.api.problems import at_actions, validation_problems
from arbiter.api.signing import SignatureRefused, Signer
from arbiter.engine.errors import InvalidInput, Problem, pointer
from arbiter.engine.judging import Seal
from arbiter.engine.outcome import Event, Location, Outcome, StateSignature, Violation
from arbiter.engine.registry import AnyRuleset as Ruleset
from arbiter.engine.registry import Registry
from arbiter.engine.ruleset import Query
from arbiter.settings import Settings

T = TypeVar("T")


def _problem_error(message: str, problems: list[Problem], where: Where | None = None
                   ) -> GraphQLError:
    """A refused input: each problem with its REST pointer and, where the request holds
    it, the GraphQL path of the same input (``graphql_paths``)."""
    return GraphQLError(message, extensions={
        "code": "INVALID_INPUT", "problems": [_located(p, where) for p in problems]})


def _located(problem: Problem, where: Where | None) -> dict[str, Any]:
    path = where.path(problem.pointer) if where is not None else None
    found: dict[str, Any] = {"pointer": problem.pointer, "detail": problem.detail}
    if path is not None:
        found["path"] = path
    return found


def _refused(exc: ValidationError, value: Any, root: tuple[str | int, ...],
             where: Where | None = None) -> GraphQLError:
    """A ValidationError as a GraphQL error whose pointers start at ``root`` (``/state``,
    ``/action``, ``/actions/3``), as in REST."""
    document: Any = value  # the value where REST would have it, for the pointers
    for seg in reversed(root):
        document = [None] * seg + [document] if isinstance(seg, int) else {seg: document}
    named = "/".join(map(str, root))
    return _problem_error(f"invalid {named}: see extensions.problems",
                          validation_problems(exc, document, root), where)


def _parse(model: type[BaseModel], value: Any, *root: str | int, where: Where | None = None
           ) -> Any:
    """A typed GraphQL input (its types already checked by GraphQL) validated by ``model``."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise _refused(exc, value, root, where) from None


def _parse_state(model: TypeAdapter[Any], value: Any, where: Where,
                 board: tuple[Sent, StoredBoard | None] | None = None,
                 lean: Any = None) -> tuple[BaseModel, bytes, Parsed]:
    """A state scalar: JSON the client wrote, judged as strictly as a REST body is (no
    ``true`` for a count, no ``"3"`` for a number). Dumped once, in the client's order
    (the order of a map's keys can be part of an answer, as in REST): the same bytes are
    parsed and key the cache. ``board``: the board it sends inline (``inline_board``);
    one this replica keeps is not parsed again, as in REST (``parse_request``): ``lean``,
    the state naming it instead, is (a state that refuses is parsed as it came, for its
    problems as they always are)."""
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:
        # An integer beyond 64 bits: the model's bounds refuse it with its pointer.
        written = b""
    if board is not None and board[1] is not None and lean is not None and written:
        try:
            parsed = model.validate_json(orjson.dumps(lean), strict=True)
            return parsed, written, Parsed(parsed, board[1])
        except ValidationError:
            pass
    try:
        parsed = model.validate_json(written, strict=True) if written \
            else model.validate_python(value)
        return parsed, written, Parsed(parsed, sent=board[0] if board is not None else None)
    except ValidationError as exc:
        raise _refused(exc, value, ("state",), where) from None


def _invalid(exc: InvalidInput, where: Where | None = None) -> GraphQLError:
    return _problem_error("the request cannot be judged: see extensions.problems",
                          exc.problems, where)


def _over_limit(exc: LimitExceeded | BudgetExceeded, where: Where | None = None
                ) -> GraphQLError:
    """The GraphQL form of a 413/422 limit problem."""
    if isinstance(exc, BudgetExceeded):
        return GraphQLError(str(exc), extensions={
            "code": "LIMIT_EXCEEDED", "limit": exc.limit, "maximum": exc.budget_ms,
            "problems": [{"pointer": "", "detail": str(exc)}]})
    return GraphQLError(f"the request is over a limit ({exc.limit}: {exc.maximum}): see "
                        "extensions.problems", extensions={
                            "code": "LIMIT_EXCEEDED", "limit": exc.limit,
                            "maximum": exc.maximum,
                            "problems": [_located(p, where) for p in exc.problems]})


def _signature_refused(exc: SignatureRefused) -> GraphQLError:
    return GraphQLError(exc.detail, extensions={
        "code": "STATE_SIGNATURE", "problems": [{"pointer": exc.pointer, "detail": exc.detail}]})


async def _judged(compute: Compute, work: Callable[[], T], where: Where | None = None) -> T:
    """Run ``work`` under the request's compute budget, errors as GraphQL errors: where
    the operation runs (GraphQL's own thread), else in a worker thread."""
    try:
        service = service_loop()
        if service is not None:
            return compute.run_here(work, service)
        return await compute.run(work)
    except InvalidInput as exc:
        raise _invalid(exc, where) from None
    except SignatureRefused as exc:
        raise _signature_refused(exc) from None
    except (LimitExceeded, BudgetExceeded) as exc:
        raise _over_limit(exc, where) from None


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
    where: Where | None = None  # the field that took the state, for the problems' paths

    def after(self, outcome: Outcome, actions: list[Any], mode: Any) -> Asked | None:
        """The state ``outcome`` resulted in (after ``actions`` from this one), to ask
        questions of (``Outcome.next``); None when no state resulted. Its digest, which
        keys cached answers, is a digest of what determines it: this state's digest, the
        actions and the mode."""
        state = outcome.next_state()
        if state is None or not outcome.applied:
            return None
        material = [self.state_digest, (mode.value if mode else "strict").encode()]
        material += [orjson.dumps(a.model_dump(mode="json")) for a in actions]
        lean = outcome.state is not None and "board" in outcome.state
        return Asked(self.ruleset, state, digest(b"next\0" + b"\0".join(material)),
                     self.state_size, self.board if lean else None,
                     self.signed and outcome.signature is not None)


@dataclass(frozen=True, slots=True)
class Judged:
    """An Outcome as GraphQL answers it: its fields, and the resulting state to ask more
    questions of (``next``)."""

    outcome: Outcome
    after: Asked | None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.outcome, name)


def _derived_field(maker: TypeMaker, model: type[BaseModel]) -> Any:
    """``Outcome.derived`` as the ruleset's derived model (a fact the action does not
    have is null). Only GraphQL reads the facts into the model; REST dumps the dict."""

    def resolve(root: Any) -> Any:
        return model.model_validate(root.derived)

    return strawberry.field(resolver=resolve, graphql_type=maker.object(model, input=False),
                            description=Outcome.model_fields["derived"].description or
                            "The facts a frontend shows beside the verdict.")


def _next_state(root: Any) -> Asked | None:
    """``Outcome.next``: the questions about the state the action resulted in."""
    return root.after if isinstance(root, Judged) else None


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
        state_type = state_scalar(ruleset.id, self.settings.public_url)
        action_input = maker.action_input(ruleset.id, ruleset.action_model)
        outcome, next_field = self._outcome_type(ruleset, state_type)
        fields = self._judging_fields(ruleset, action_input, outcome)
        # Its answers' violations and events are its own (codes as its enums), a state in
        # them its state scalar.
        maker.local = {Violation: maker.object(Violation, input=False,
                                               name=f"{prefix}Violation"),
                       Event: maker.object(Event, input=False, name=f"{prefix}Event")}
        maker.local_state = state_type
        try:
            for query in ruleset.queries.values():
                fields.append(self._query_field(ruleset, query))
        finally:
            maker.local, maker.local_state = {}, None
        questions = create_type(f"{prefix}Questions", fields,
                                description=f"Questions about one {ruleset.id} state.")
        next_field.type_annotation = StrawberryAnnotation(Optional[questions])  # noqa: UP045
        return questions, state_type

    def _judging_fields(self, ruleset: Ruleset, action_input: Any, outcome: Any
                        ) -> list[StrawberryField]:
        """``validate`` and ``validateBatch``: their outcomes carry the state each action
        resulted in, for ``Outcome.next``."""
        maker = self.maker
        limits = self.limits
        compute = self.compute
        metrics = self.metrics
        sealed = self._sealed

        def counted(outcome: Outcome) -> Outcome:
            if metrics is not None:
                metrics.violations_found(ruleset.id, (v.code for v in outcome.violations))
            return outcome

        def action_of(value: Any, *pointer_root: str | int, where: Where) -> Any:
            return self._action_of(ruleset, value, pointer_root, where)

        async def validate(root: Asked, action: Any, mode: Any = None) -> Judged:
            where = Where("validate", {"action": action}, maker, root.where)

            def work() -> Judged:
                limits.check_outcomes(1, root.state_size, True, add_up=True)
                act = action_of(action, "action", where=where)
                judged = counted(root.ruleset.validate(
                    root.state, act, mode.value if mode else "strict", root.board,
                    seal=sealed(root, [(act, "/action")])))
                return Judged(judged, root.after(judged, [act], mode))

            return await _judged(compute, work, where)

        async def validate_many(root: Asked, actions: list[Any], mode: Any = None,
                                strictness: Any = None) -> list[Judged]:
            where = Where("validateBatch", {"actions": actions}, maker, root.where)
            sequence = bool(mode and mode.value == "sequence")

            def work() -> list[Judged]:
                limits.check_batch(len(actions))
                limits.check_outcomes(len(actions), root.state_size, True, add_up=True)
                parsed = [action_of(a, "actions", i, where=where) for i, a in enumerate(actions)]
                seal = sealed(root, [(a, f"/actions/{i}") for i, a in enumerate(parsed)])
                outcomes = [counted(o) for o in at_actions(root.ruleset.validate_batch(
                    root.state, parsed, sequence=sequence,
                    mode=strictness.value if strictness else "strict", board=root.board,
                    seal=seal))]
                return [Judged(o, root.after(o, parsed[:i + 1] if sequence else [parsed[i]],
                                             strictness))
                        for i, o in enumerate(outcomes)]

            return await _judged(compute, work, where)

        return [
            _field("validate", validate, outcome, "Judge one action against the state.",
                   [_argument("action", action_input), _argument("mode", Mode | None, None)]),
            _field("validate_batch", validate_many, list_of(outcome),
                   "Judge several actions, each alone or in sequence.",
                   [_argument("actions", list_of(action_input)),
                    _argument("mode", BatchMode | None, None),
                    _argument("strictness", Mode | None, None)]),
        ]

    def _action_of(self, ruleset: Ruleset, value: Any, pointer_root: tuple[str | int, ...],
                   where: Where) -> Any:
        """An action input as the ruleset's action, refused as REST refuses it."""
        try:
            written = plain(value, self.maker, pointer_root)
        except ListedTwice as twice:
            raise InvalidInput([Problem(pointer(*twice.where), f"{twice.key} is listed "
                                        "twice: a map has one entry per key")]) from None
        action = _parse(ruleset.action_model, written, *pointer_root, where=where)
        self.limits.check_steps(action, *pointer_root)
        return action

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
        counts: dict[str, str] = {}  # the arguments that are count maps: name -> key
        for name, info in query.request.model_fields.items():
            if name == "state":
                continue
            tp = maker.of(info.annotation, input=True)
            if is_count_map(info.annotation):
                counts[name] = count_key(name)
                tp = list_of(count_entry(name, input=True))
            arguments.append(_argument(name, tp) if info.is_required()
                             else _argument(name, tp | None, None))
        response = maker.object(query.response, input=False)

        field_name = camel(query.name.replace("-", "_"))
        field_name = field_name[:1].lower() + field_name[1:]

        async def run(root: Asked, **kwargs: Any) -> BaseModel:
            where = Where(field_name, kwargs, maker, root.where, counts)
            try:
                body = {k: count_map(v, counts[k], (k,)) if k in counts else plain(v, maker, (k,))
                        for k, v in kwargs.items() if v is not None}
            except ListedTwice as twice:
                raise _invalid(InvalidInput([Problem(pointer(*twice.where), f"{twice.key} is "
                               "listed twice: a map has one entry per key")]), where) from None

            def request() -> BaseModel:
                req = query.request.model_validate({"state": root.state, **body})
                limits.check_steps(req, skip=("state",))
                return req

            try:
                return await answerer.answer_parsed(
                    ruleset, query, root.state_digest, root.state_size, body, request)
            except ValidationError as exc:
                raise _problem_error("invalid arguments: see extensions.problems",
                                     validation_problems(exc, body), where) from None
            except InvalidInput as exc:
                raise _invalid(exc, where) from None
            except (LimitExceeded, BudgetExceeded) as exc:
                raise _over_limit(exc, where) from None

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

        field_name = camel(ruleset.id)[:1].lower() + camel(ruleset.id)[1:]
        maker = self.maker

        async def ask(state: Any, signature: Any = None) -> Asked:
            where = Where(field_name, {"state": state, "signature": signature}, maker)
            def parse() -> tuple[BaseModel, bytes, Parsed]:
                # (Under the budget: a board's id is a dump and a hash of the whole board.)
                board = inline_board(boards, ruleset, state)
                lean = naming(ruleset, state, board[0].id) \
                    if board is not None and board[1] is not None else None
                return _parse_state(state_input, state, where, board, lean)

            parsed, written, found = await _judged(compute, parse, where)
            sent = plain(signature)
            signed_as = (_parse(StateSignature, sent, "signature", where=where)
                         if sent is not None else None)
            try:
                limits.check_state(parsed)
                whole, named = await _whole(boards, ruleset, parsed, state, found)
                if whole is not parsed:  # its board was not in the state parsed (nor checked)
                    limits.check_state(whole)
            except LimitExceeded as exc:
                raise _over_limit(exc, where) from None
            except InvalidInput as exc:
                raise _invalid(exc, where) from None
            signed = await _judged(compute, lambda: signer.check_now(ruleset, whole, signed_as),
                                   where)
            return Asked(ruleset, whole, digest(written), len(written), named, signed, where)

        return _field(ruleset.id, ask, questions,
                      f"{ruleset.title} (v{ruleset.version}): ask questions of one state.",
                      [_argument("state", state_type),
                       _argument("signature", self.signature_input | None, None)])

    def schema(self) -> strawberry.Schema:
        registry = self.registry

        def rulesets() -> list[RulesetSummary]:
            return [RulesetSummary(id=r.id, version=r.version, title=r.title,
                                   action_types=list(r.action_types), queries=sorted(r.queries),
                                   rules=[Rule(id=x.id, paraphrase=x.paraphrase)
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
            InputProblems,
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
    rules: list[Rule]


@strawberry.type(description="One rule of a ruleset: its id and a one-line paraphrase.")
class Rule:
    id: str
    paraphrase: str


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


async def _whole(boards: BoardStore, ruleset: Ruleset, state: BaseModel, sent: Any,
                 parsed: Parsed | None = None) -> tuple[BaseModel, str | None]:
    """The whole state a state scalar stands for (``api.boards.whole_state``), the board
    fetched from Redis when this replica has not kept it; a board no tier holds is a
    GraphQL error the client answers by sending the board inline once."""
    try:
        return whole_state(boards, ruleset, state, lambda: sent, parsed=parsed)
    except BoardMissing as missing:
        board = missing.board
        if await on_service_loop(lambda: boards.fetch(ruleset, board)) is None:
            raise GraphQLError(str(missing), extensions={
                "code": "BOARD_NOT_FOUND", "board": missing.board,
                "problems": [{"pointer": missing.pointer, "detail": str(missing)}]}) from None
        return whole_state(boards, ruleset, state, lambda: sent)
    finally:
        service = service_loop()  # the Redis client is the service loop's
        if service is None:
            boards.publish()
        else:
            boards.publish_on(service)


def build_schema(registry: Registry, settings: Settings, answerer: Answerer | None = None,
                 compute: Compute | None = None, boards: BoardStore | None = None,
                 metrics: Metrics | None = None, signer: Signer | None = None
                 ) -> strawberry.Schema:
    return SchemaBuilder(registry, settings, answerer or Answerer(None), compute,
                         boards, metrics, signer).schema()

"""The GraphQL schema: one field per ruleset that takes the state once and answers many
questions of it in one query (``validate``, ``validateBatch`` and each derived query).

Errors: a state or action that does not validate comes back as a GraphQL error whose
``extensions.problems`` carry the same JSON pointers a REST 422 would (``/state/...``,
``/action/...``). Limits: depth, aliases, tokens and fields per operation, the state's
size and the actions' lists (``limits.py``), and the request's compute budget, which every
judgement of the request shares (``limits.Compute``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import orjson
import strawberry
from graphql import GraphQLError
from pydantic import BaseModel, ValidationError
from strawberry.extensions import (
    AddValidationRules,
    MaskErrors,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    ValidationCache,
)
from strawberry.schema.config import StrawberryConfig

from arbiter.api.answers import Answerer, canonical, digest
from arbiter.api.contract import camel
from arbiter.api.graphql_types import JSON, TypeMaker, plain, state_scalar
from arbiter.api.limits import (
    BudgetExceeded,
    Busy,
    Compute,
    LimitExceeded,
    Limits,
    max_fields_rule,
)
from arbiter.api.problems import validation_problems
from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.outcome import Event, Location, Outcome, Violation
from arbiter.engine.registry import Query, Registry, Ruleset, validate_batch
from arbiter.settings import Settings

T = TypeVar("T")


def _problem_error(message: str, problems: list[Problem]) -> GraphQLError:
    return GraphQLError(message, extensions={
        "code": "INVALID_INPUT",
        "problems": [{"pointer": p.pointer, "detail": p.detail} for p in problems]})


def _parse(model: type[BaseModel], value: Any, *root: str | int, json: bool = False) -> Any:
    """``value`` validated by ``model``; a ValidationError becomes a GraphQL error whose
    pointers start at ``root`` (``/state``, ``/action``, ``/actions/3``), as in REST.

    ``json``: ``value`` is JSON the client wrote (a state scalar), judged as strictly as a
    REST body is (no ``true`` for a count, no ``"3"`` for a number); typed GraphQL inputs
    have had their types checked by GraphQL already."""
    try:
        if json:
            try:
                return model.model_validate_json(orjson.dumps(value), strict=True)
            except orjson.JSONEncodeError:
                pass  # an integer beyond 64 bits: the model's bounds refuse it below
        return model.model_validate(value)
    except ValidationError as exc:
        document: Any = value  # the value where REST would have it, for the pointers
        for seg in reversed(root):
            document = [None] * seg + [document] if isinstance(seg, int) else {seg: document}
        where = "/".join(map(str, root))
        raise _problem_error(f"invalid {where}: see extensions.problems",
                             validation_problems(exc, document, root)) from None


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


async def _judged(compute: Compute, work: Callable[[], T]) -> T:
    """Run ``work`` under the request's compute budget, errors as GraphQL errors."""
    try:
        return await compute.run(work)
    except InvalidInput as exc:
        raise _invalid(exc) from None
    except (LimitExceeded, BudgetExceeded, Busy) as exc:
        raise _over_limit(exc) from None


@dataclass
class Asked:
    """The root value of a ruleset's questions: the state, parsed once per query, and the
    digest of its canonical JSON once the first question needs it for the cache."""

    ruleset: Ruleset
    state: BaseModel
    raw_state: Any = None
    _digest: tuple[bytes, int] | None = field(default=None, repr=False)

    def state_digest(self) -> tuple[bytes, int]:
        if self._digest is None:
            data = canonical(self.raw_state)
            self._digest = (digest(data), len(data))
        return self._digest


def _resolver(fn: Callable[..., Any], params: list[inspect.Parameter], returns: Any
              ) -> Callable[..., Any]:
    """A resolver whose GraphQL arguments are ``params``: strawberry reads them from the
    signature, so the signature is built from the ruleset's models."""
    if inspect.iscoroutinefunction(fn):
        async def resolve(root: Any, **kwargs: Any) -> Any:
            return await fn(root, **kwargs)
    else:
        def resolve(root: Any, **kwargs: Any) -> Any:
            return fn(root, **kwargs)

    resolve.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("root", inspect.Parameter.POSITIONAL_OR_KEYWORD), *params],
        return_annotation=returns)
    return resolve


def _kw(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                             default=default)


class SchemaBuilder:
    def __init__(self, registry: Registry, settings: Settings, answerer: Answerer,
                 compute: Compute | None = None) -> None:
        self.registry = registry
        self.settings = settings
        self.answerer = answerer
        self.limits = Limits.from_settings(settings)
        self.compute = compute or Compute(0, 1)
        self.maker = TypeMaker()
        # Shared output types first, so every ruleset's Outcome reuses them.
        for model in (Location, Violation, Event):
            self.maker.object(model, input=False)

    def questions(self, ruleset: Ruleset) -> tuple[Any, Any]:
        """The ruleset's questions type and its state scalar."""
        maker = self.maker
        prefix = camel(ruleset.id)
        state_type = state_scalar(ruleset.id, self.settings.public_url)
        outcome = maker.object(Outcome, input=False, name=f"{prefix}Outcome",
                               overrides={"state": state_type | None})
        action_input = maker.action_input(ruleset.id, ruleset.action_model)
        mode = maker.of(Literal["strict", "advisory"], input=True)
        batch_mode = maker.of(Literal["each", "sequence"], input=True)
        limits = self.limits
        compute = self.compute

        def action_of(value: Any, *pointer_root: str | int) -> Any:
            action = _parse(ruleset.action_model, plain(value, maker), *pointer_root)
            limits.check_steps(action, *pointer_root)
            return action

        async def validate(root: Asked, action: Any, mode: Any = None) -> Outcome:
            def work() -> Outcome:
                act = action_of(action, "action")
                return root.ruleset.validate(root.state, act, mode.value if mode else "strict")

            return await _judged(compute, work)

        async def validate_many(root: Asked, actions: list[Any], mode: Any = None,
                                strictness: Any = None) -> list[Outcome]:
            def work() -> list[Outcome]:
                limits.check_batch(len(actions))
                parsed = [action_of(a, "actions", i) for i, a in enumerate(actions)]
                return validate_batch(root.ruleset, root.state, parsed,
                                      sequence=bool(mode and mode.value == "sequence"),
                                      mode=strictness.value if strictness else "strict")

            return await _judged(compute, work)

        fields: dict[str, Any] = {
            "validate": strawberry.field(
                resolver=_resolver(validate, [_kw("action", action_input),
                                              _kw("mode", mode | None, None)], outcome),
                description="Judge one action against the state."),
            "validate_batch": strawberry.field(
                resolver=_resolver(validate_many, [
                    _kw("actions", list[action_input]),  # type: ignore[valid-type]
                    _kw("mode", batch_mode | None, None),
                    _kw("strictness", mode | None, None)], list[outcome]),
                description="Judge several actions, each alone or in sequence."),
        }
        for query in ruleset.queries.values():
            fields[query.name.replace("-", "_")] = self._query_field(ruleset, query)
        cls = type(f"{prefix}Questions", (), fields)
        return strawberry.type(cls, name=f"{prefix}Questions",
                               description=f"Questions about one {ruleset.id} state."), \
            state_type

    def _query_field(self, ruleset: Ruleset, query: Query) -> Any:
        maker = self.maker
        answerer = self.answerer
        limits = self.limits
        params = []
        for name, info in query.request.model_fields.items():
            if name == "state":
                continue
            tp = maker.of(info.annotation, input=True)
            if info.is_required():
                params.append(_kw(name, tp))
            else:
                params.append(_kw(name, tp | None, None))
        response = maker.object(query.response, input=False)

        async def run(root: Asked, **kwargs: Any) -> Any:
            body = {k: plain(v, maker) for k, v in kwargs.items() if v is not None}

            def request() -> BaseModel:
                req = query.request.model_validate({"state": root.state, **body})
                limits.check_steps(req, skip=("state",))
                return req

            state_digest, size = root.state_digest()
            try:
                answer = await answerer.answer_parsed(ruleset, query, state_digest, size, body,
                                                      request)
            except ValidationError as exc:
                raise _problem_error("invalid arguments: see extensions.problems",
                                     validation_problems(exc, body)) from None
            except InvalidInput as exc:
                raise _invalid(exc) from None
            except (LimitExceeded, BudgetExceeded, Busy) as exc:
                raise _over_limit(exc) from None
            # The same JSON REST would send, read back into the response model.
            return query.response.model_validate_json(answer)

        return strawberry.field(resolver=_resolver(run, params, response),
                                description=query.summary)

    def schema(self) -> strawberry.Schema:
        root_fields: dict[str, Any] = {}
        limits = self.limits
        for ruleset in self.registry:
            questions, state_type = self.questions(ruleset)

            def ask(root: Any, state: Any, _ruleset: Ruleset = ruleset) -> Asked:
                parsed = _parse(_ruleset.state_model, state, "state", json=True)
                try:
                    limits.check_state(parsed)
                except LimitExceeded as exc:
                    raise _over_limit(exc) from None
                return Asked(_ruleset, parsed, state)

            root_fields[ruleset.id] = strawberry.field(
                resolver=_resolver(ask, [_kw("state", state_type)], questions),
                description=f"{ruleset.title} (v{ruleset.version}): ask questions of one state.")

        @strawberry.type
        class RulesetSummary:
            id: str
            version: str
            title: str
            action_types: list[str]
            queries: list[str]
            rules: JSON  # type: ignore[valid-type]

        registry = self.registry

        def rulesets(root: Any) -> list[RulesetSummary]:
            return [RulesetSummary(id=r.id, version=r.version, title=r.title,  # type: ignore[call-arg]
                                   action_types=list(r.action_types), queries=sorted(r.queries),
                                   rules=[{"id": x.id, "paraphrase": x.paraphrase}
                                          for x in r.rules])
                    for r in registry]

        root_fields["rulesets"] = strawberry.field(
            resolver=_resolver(rulesets, [], list[RulesetSummary]),
            description="The rulesets this service judges.")
        query_type = strawberry.type(type("Query", (), root_fields), name="Query")
        s = self.settings
        return ArbiterSchema(
            query=query_type,
            config=StrawberryConfig(auto_camel_case=True),
            extensions=[
                ParserCache(maxsize=256),
                ValidationCache(maxsize=256),
                QueryDepthLimiter(max_depth=s.graphql_max_depth),
                MaxAliasesLimiter(max_alias_count=s.graphql_max_aliases),
                MaxTokensLimiter(max_token_count=s.graphql_max_tokens),
                AddValidationRules([max_fields_rule(s.graphql_max_fields)]),
                MaskErrors(should_mask_error=_unexpected),
            ],
        )


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


def build_schema(registry: Registry, settings: Settings, answerer: Answerer | None = None,
                 compute: Compute | None = None) -> strawberry.Schema:
    return SchemaBuilder(registry, settings, answerer or Answerer(None), compute).schema()

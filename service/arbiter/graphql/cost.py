"""What a GraphQL document costs, checked before anything else looks at it, and the
compute budget applied to GraphQL's own work.

``document_cost`` walks a document once, each fragment once (memoised), so its time is
linear in the document's size: ``...F1 ...F1`` in a chain of 40 fragments is 2^40 fields,
counted by adding, never by expanding. ``CostedValidation`` refuses an operation over the
depth, alias, field or fragment-spread limits with a GraphQL error naming the limit,
before graphql-core's own rules run (strawberry's ``QueryDepthLimiter`` and
``MaxAliasesLimiter``, which it replaces, expanded every spread: 20 fragments took 6.5 s).

``budgeted_execution`` makes graphql-core's field resolution count against the request's
compute budget (``service.compute``): the resolvers' judging runs under the budget and is
counted there, and the event loop's part, turning answers into GraphQL results, is counted
field by field here, so aliases of one large answer cannot convert for free. It extends
graphql-core's ``execute_field`` and ``complete_object_value``, which are not a public
API: pyproject.toml pins the graphql-core and strawberry they were written for, and
tests/test_pinned.py fails on any other.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLObjectType,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)
from pydantic import BaseModel
from strawberry.extensions import MaxTokensLimiter, ValidationCache
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from arbiter.graphql.plain import PlainPlans, never_awaited
from arbiter.service.account import spent_now
from arbiter.service.problems import BudgetExceeded
from arbiter.settings import Settings


@dataclass(frozen=True, slots=True)
class Cost:
    """A selection set's cost, fragments expanded where they are spread: ``depth`` as
    strawberry counts it (a field with a selection set is one level deeper than its
    deepest child; leaves and introspection fields count 0)."""

    fields: int = 0
    aliases: int = 0
    depth: int = 0
    spreads: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.fields + other.fields, self.aliases + other.aliases,
                    max(self.depth, other.depth), self.spreads + other.spreads)


class _Costs:
    """Each fragment's cost, computed once. A fragment spread inside its own expansion
    (a cycle) costs nothing here: graphql-core's ``NoFragmentCycles`` reports it."""

    def __init__(self, document: DocumentNode) -> None:
        self.fragments = {d.name.value: d for d in document.definitions
                          if isinstance(d, FragmentDefinitionNode)}
        self.memo: dict[str, Cost] = {}
        self.open: set[str] = set()

    def fragment(self, name: str) -> Cost:
        known = self.memo.get(name)
        if known is not None:
            return known
        definition = self.fragments.get(name)
        if definition is None or name in self.open:
            return Cost()  # unknown fragment or a cycle: other rules say so
        self.open.add(name)
        cost = self.memo[name] = self.selections(definition.selection_set)
        self.open.discard(name)
        return cost

    def selections(self, selection_set: SelectionSetNode | None) -> Cost:
        total = Cost()
        for selection in selection_set.selections if selection_set else ():
            if isinstance(selection, FieldNode):
                inner = self.selections(selection.selection_set)
                deep = selection.selection_set is not None and \
                    not selection.name.value.startswith("__")
                total += Cost(1 + inner.fields, inner.aliases + (selection.alias is not None),
                              1 + inner.depth if deep else 0, inner.spreads)
            elif isinstance(selection, InlineFragmentNode):
                total += self.selections(selection.selection_set)
            elif isinstance(selection, FragmentSpreadNode):
                total += Cost(spreads=1) + self.fragment(selection.name.value)
        return total


def document_cost(document: DocumentNode) -> list[tuple[OperationDefinitionNode, Cost]]:
    """Every operation of ``document`` with its cost, in time linear in its size."""
    costs = _Costs(document)
    return [(d, costs.selections(d.selection_set)) for d in document.definitions
            if isinstance(d, OperationDefinitionNode)]


@dataclass(frozen=True, slots=True)
class CostLimits:
    max_depth: int
    max_aliases: int
    max_fields: int
    max_spreads: int

    @classmethod
    def from_settings(cls, settings: Settings) -> CostLimits:
        return cls(settings.graphql_max_depth, settings.graphql_max_aliases,
                   settings.graphql_max_fields, settings.graphql_max_spreads)

    def errors(self, document: DocumentNode) -> list[GraphQLError]:
        """One error per operation over a limit, naming the first limit it is over."""
        errors = []
        for operation, cost in document_cost(document):
            name = operation.name.value if operation.name else "anonymous"
            over = [(cost.depth, self.max_depth, "ARBITER_GRAPHQL_MAX_DEPTH",
                     f"'{name}' exceeds maximum operation depth of {self.max_depth}"),
                    (cost.aliases, self.max_aliases, "ARBITER_GRAPHQL_MAX_ALIASES",
                     f"{cost.aliases} aliases found; at most {self.max_aliases}"),
                    (cost.spreads, self.max_spreads, "ARBITER_GRAPHQL_MAX_SPREADS",
                     f"the operation spreads fragments {cost.spreads} times, fragments "
                     f"expanded; at most {self.max_spreads}"),
                    (cost.fields, self.max_fields, "ARBITER_GRAPHQL_MAX_FIELDS",
                     f"the operation selects more than {self.max_fields} fields")]
            for value, maximum, limit, message in over:
                if value > maximum:
                    errors.append(GraphQLError(f"{message} ({limit})", operation, extensions={
                        "code": "LIMIT_EXCEEDED", "limit": limit, "maximum": maximum}))
                    break
        return errors


class CostedValidation(ValidationCache):
    """strawberry's cached validation, preceded by the cost limits (``limits_of`` the
    operation's context): a document over them gets their errors as the validation's
    result, and no other rule walks it."""

    def __init__(self, limits_of: Callable[[Any], CostLimits],
                 maxsize: int | None = None) -> None:
        super().__init__(maxsize=maxsize)
        self.limits_of = limits_of

    def on_validate(self) -> Iterator[None]:
        document = self.execution_context.graphql_document
        limits = self.limits_of(self.execution_context.context)
        errors = limits.errors(document) if document is not None else []
        if errors:
            self.execution_context.pre_execution_errors = errors
            yield
            return
        yield from super().on_validate()


class TokenLimit(MaxTokensLimiter):
    """strawberry's token limit, at the count ``count_of`` the operation's context (the
    parser's cache is keyed by it too, so apps with different limits share it safely)."""

    def __init__(self, count_of: Callable[[Any], int]) -> None:
        super().__init__(max_token_count=0)
        self.count_of = count_of

    def on_operation(self) -> Iterator[None]:
        self.max_token_count = self.count_of(self.execution_context.context)
        yield from super().on_operation()


# How many field resolutions pass between two looks at the clock.
CHECK_EVERY = 64


def _over_budget(budget_ms: int) -> GraphQLError:
    return GraphQLError(str(BudgetExceeded(budget_ms)), extensions={
        "code": "LIMIT_EXCEEDED", "limit": BudgetExceeded.limit, "maximum": budget_ms})


class BudgetedExecution(StrawberryGraphQLCoreExecutionContext):
    """graphql-core's execution context with every field resolution counted against the
    request's budget (``budget_ms``, found in the operation's context as
    ``budgeted_execution`` says, so one schema serves apps with different budgets): the
    time spent in field resolution (outermost synchronous stretches only, so nested fields
    are not counted twice) is added to what the request's judging used; over the budget,
    the field gets the budget's error and every field after it is left null without
    another error. Answers are completed quickly where they can be (``plain``)."""

    @staticmethod
    def budget_of(context: Any) -> int:
        """The operation's budget in milliseconds (0: none): none, unless
        ``budgeted_execution`` says where its context holds one."""
        return 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budget_ms = self.budget_of(self.context_value)
        self.is_awaitable = never_awaited(self.is_awaitable)
        self.plains = PlainPlans(self.collect_subfields, self.middleware_manager)
        self.nesting = 0
        self.calls = 0
        self.started = 0.0
        self.over = False

    def execute_field(self, *args: Any, **kwargs: Any) -> Any:
        if self.over:
            return None
        if self.budget_ms <= 0:
            return super().execute_field(*args, **kwargs)
        if self.nesting:
            self.calls += 1
            if self.calls % CHECK_EVERY == 0 and self._over():
                raise _over_budget(self.budget_ms)
            return super().execute_field(*args, **kwargs)
        self.nesting += 1
        self.started = time.perf_counter()
        try:
            return super().execute_field(*args, **kwargs)
        finally:
            self.nesting -= 1
            spent_now().seconds += time.perf_counter() - self.started

    def complete_object_value(self, return_type: GraphQLObjectType, details: Any, info: Any,
                              path: Any, result: Any, position: Any) -> Any:
        """A plain answer object (``plain``) completed by its plan, as one field
        resolution (a stretch of its own when outermost), the budget looked at first;
        anything else, or an object its plan gives up on, as graphql-core does."""
        plan = self.plains.plan(return_type, details) \
            if isinstance(result, BaseModel) and not self.over \
            and self.abort_signal is None else None
        if plan is not None:
            if self.budget_ms > 0 and self._over():
                raise _over_budget(self.budget_ms)
            # Timed as execute_field times: an outermost stretch, and only under a budget.
            outermost = self.budget_ms > 0 and not self.nesting
            if outermost:
                self.nesting += 1
                self.started = time.perf_counter()
            try:
                return plan(result)
            except Exception:  # graphql-core completes it again, and says what is wrong
                pass
            finally:
                if outermost:
                    self.nesting -= 1
                    spent_now().seconds += time.perf_counter() - self.started
        return super().complete_object_value(return_type, details, info, path, result,
                                             position)

    def _over(self) -> bool:
        """Whether the request's judging and its resolution so far (the stretch under way
        included) exceed the budget; once over, it stays over."""
        now = spent_now().seconds
        if self.nesting:
            now += time.perf_counter() - self.started
        self.over = self.over or now > self.budget_ms / 1000
        return self.over


def budgeted_execution(budget_of: Callable[[Any], int]) -> type[BudgetedExecution]:
    """``BudgetedExecution`` held to the budget ``budget_of`` an operation's context
    (graphql-core's ``context_value``, strawberry's ``info.context``; 0: none)."""
    return type("BudgetedExecution", (BudgetedExecution,),
                {"budget_of": staticmethod(budget_of)})

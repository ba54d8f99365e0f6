"""The service-wide input limits and the per-request compute budget, shared by REST and
GraphQL.

Sizes are checked on the parsed models, before any rule runs: a state's top-level lists
and maps (``ARBITER_MAX_CELLS``, 413), an action's or a query's lists
(``ARBITER_MAX_ACTION_STEPS``, 422) and a batch (``ARBITER_MAX_BATCH``, 422); the
rulesets' own ``max_length`` bounds apply first.

The budget (``ARBITER_COMPUTE_BUDGET_MS``) caps the wall-clock time a request spends
judging; a request over it gets a 422 naming the limit instead of an answer. In a server
the event loop runs in the main thread, and the judging runs there too, under a
``SIGALRM`` interval timer whose handler raises ``_OverBudget`` (a BaseException, so no
``except Exception`` in a ruleset can swallow it) into the computation: the work is
really stopped, at no cost per request beyond two ``setitimer`` calls (a worker thread
per request measured about 40% fewer requests per second on small boards, from the thread
hop and the GIL handover). Where the loop is not in the main thread (the in-process test
client) the work runs in a worker thread under a deadline instead; a Python thread cannot
be killed, so work over budget there is abandoned and finishes in the background, and
while as many abandoned jobs run as there are compute threads new work is refused with 503.
"""

from __future__ import annotations

import asyncio
import signal
import threading
import time
import weakref
from collections.abc import Callable
from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationRule,
)
from pydantic import BaseModel, RootModel

from arbiter.engine.errors import Problem, pointer
from arbiter.settings import Settings

T = TypeVar("T")
# Worker threads judging at once where the event loop is not in the main thread.
COMPUTE_THREADS = 2


class LimitExceeded(Exception):
    """A request over one of the configured limits: ``status`` 413 or 422, ``limit`` the
    variable that sets it, ``problems`` the JSON pointers of what is too large."""

    def __init__(self, status: int, limit: str, maximum: int, problems: list[Problem]) -> None:
        self.status = status
        self.limit = limit
        self.maximum = maximum
        self.problems = problems
        super().__init__("; ".join(f"{p.pointer}: {p.detail}" for p in problems))


class BudgetExceeded(Exception):
    limit = "ARBITER_COMPUTE_BUDGET_MS"

    def __init__(self, budget_ms: int) -> None:
        self.budget_ms = budget_ms
        super().__init__(f"judging this request takes longer than its compute budget of "
                         f"{budget_ms} ms ({self.limit})")


class Busy(Exception):
    """Too many abandoned computations still run: try again later."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__("the service is busy finishing computations that went over their "
                         "budget; try again shortly")


def _collections(model: BaseModel) -> list[tuple[str, int]]:
    """(field name, length) of each list, tuple or map held directly by ``model``."""
    out = []
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, list | tuple | dict | set | frozenset):
            out.append((name, len(value)))
    return out


def _root(model: Any) -> Any:
    return model.root if isinstance(model, RootModel) else model


@dataclass(frozen=True)
class Limits:
    max_cells: int = 10_000
    max_action_steps: int = 1000
    max_batch: int = 200

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(settings.max_cells, settings.max_action_steps, settings.max_batch)

    def check_state(self, state: Any, root: str = "state") -> None:
        problems = [Problem(pointer(root, name), f"{length} entries; at most "
                            f"{self.max_cells} (ARBITER_MAX_CELLS)")
                    for name, length in _collections(_root(state)) if length > self.max_cells]
        if problems:
            raise LimitExceeded(413, "ARBITER_MAX_CELLS", self.max_cells, problems)

    def check_steps(self, model: Any, *root: str | int, skip: tuple[str, ...] = ()) -> None:
        problems = [Problem(pointer(*root, name), f"{length} entries; at most "
                            f"{self.max_action_steps} (ARBITER_MAX_ACTION_STEPS)")
                    for name, length in _collections(_root(model))
                    if length > self.max_action_steps and name not in skip]
        if problems:
            raise LimitExceeded(422, "ARBITER_MAX_ACTION_STEPS", self.max_action_steps,
                                problems)

    def check_batch(self, count: int, where: str = "/actions") -> None:
        if count > self.max_batch:
            raise LimitExceeded(422, "ARBITER_MAX_BATCH", self.max_batch, [Problem(
                where, f"{count} actions; at most {self.max_batch} actions per batch "
                "(ARBITER_MAX_BATCH)")])

    def check_request(self, request: BaseModel) -> None:
        """Every limit that applies to a parsed REST body (validate, validate-batch or a
        query): the state's size, the action's or each batched action's lists, the batch's
        length, and the query's own lists."""
        fields = type(request).model_fields
        if "state" in fields:
            self.check_state(getattr(request, "state"))  # noqa: B009 - a field, not an attr
        if "actions" in fields:
            actions = getattr(request, "actions")  # noqa: B009
            self.check_batch(len(actions))
            for i, action in enumerate(actions):
                self.check_steps(action, "actions", i)
        if "action" in fields:
            self.check_steps(getattr(request, "action"), "action")  # noqa: B009
        self.check_steps(request, skip=("state", "actions", "action"))


# -- the compute budget ---------------------------------------------------------------------

@dataclass
class Spent:
    """Seconds of judging one request has used so far (GraphQL asks several questions)."""

    seconds: float = 0.0


_spent: ContextVar[Spent | None] = ContextVar("arbiter_compute_spent", default=None)


def start_request() -> Token[Spent | None]:
    return _spent.set(Spent())


def end_request(token: Token[Spent | None]) -> None:
    _spent.reset(token)


class _OverBudget(BaseException):
    """Raised by the SIGALRM handler into a computation that ran out of budget."""


_alarm_armed = False
_alarm_installed = False


def _on_alarm(signum: int, frame: Any) -> None:
    if _alarm_armed:
        raise _OverBudget


def _can_alarm() -> bool:
    """True in the main thread of a platform with interval timers, with the handler set."""
    global _alarm_installed
    if not hasattr(signal, "setitimer") or \
            threading.current_thread() is not threading.main_thread():
        return False
    if not _alarm_installed:
        signal.signal(signal.SIGALRM, _on_alarm)
        _alarm_installed = True
    return True


def _run_with_alarm(fn: Callable[[], T], seconds: float) -> T:
    """``fn()``, stopped by SIGALRM after ``seconds``; raises ``_OverBudget`` then."""
    global _alarm_armed
    try:
        _alarm_armed = True
        signal.setitimer(signal.ITIMER_REAL, seconds)
        return fn()
    finally:
        # From here on the handler never raises; a signal already pending is ignored.
        _alarm_armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)


class _Job:
    def __init__(self, fn: Callable[[], Any], compute: Compute) -> None:
        self.fn = fn
        self.compute = compute
        self.done = False
        self.abandoned = False

    def __call__(self) -> Any:
        try:
            return self.fn()
        finally:
            with self.compute.lock:
                self.done = True
                if self.abandoned:
                    self.compute.abandoned -= 1

    def abandon(self) -> None:
        with self.compute.lock:
            if not self.done:
                self.abandoned = True
                self.compute.abandoned += 1


class Compute:
    """Runs synchronous judging work under the request's budget: inline under SIGALRM in
    the main thread, else in a worker thread under a deadline."""

    def __init__(self, budget_ms: int, threads: int) -> None:
        self.budget_ms = budget_ms
        self.threads = max(1, threads)
        self.lock = threading.Lock()
        self.abandoned = 0
        # One limiter per event loop: the TestClient runs a loop per client.
        self._limiters: weakref.WeakKeyDictionary[Any, anyio.CapacityLimiter] = \
            weakref.WeakKeyDictionary()

    @classmethod
    def from_settings(cls, settings: Settings) -> Compute:
        return cls(settings.compute_budget_ms, COMPUTE_THREADS)

    def _limiter(self) -> anyio.CapacityLimiter:
        loop = asyncio.get_running_loop()
        limiter = self._limiters.get(loop)
        if limiter is None:
            limiter = self._limiters[loop] = anyio.CapacityLimiter(self.threads)
        return limiter

    async def run(self, fn: Callable[[], T]) -> T:
        if self.budget_ms <= 0:
            return fn()
        spent = _spent.get() or Spent()
        remaining = self.budget_ms / 1000 - spent.seconds
        if remaining <= 0:
            raise BudgetExceeded(self.budget_ms)
        if _can_alarm():
            started = time.perf_counter()
            try:
                return _run_with_alarm(fn, remaining)
            except _OverBudget:
                raise BudgetExceeded(self.budget_ms) from None
            finally:
                spent.seconds += time.perf_counter() - started
        return await self._in_thread(fn, spent, remaining)

    async def _in_thread(self, fn: Callable[[], T], spent: Spent, remaining: float) -> T:
        if self.abandoned >= self.threads:
            raise Busy(max(1, round(self.budget_ms / 1000)))
        job = _Job(fn, self)
        async with self._limiter():
            started = time.perf_counter()
            try:
                with anyio.fail_after(remaining):
                    result: T = await anyio.to_thread.run_sync(job, abandon_on_cancel=True)
                    return result
            except TimeoutError:
                job.abandon()
                raise BudgetExceeded(self.budget_ms) from None
            finally:
                spent.seconds += time.perf_counter() - started


# -- GraphQL: fields per operation ----------------------------------------------------------

def max_fields_rule(limit: int) -> type[ValidationRule]:
    """A validation rule refusing operations that select more than ``limit`` fields, each
    fragment counted as often as it is spread (depth and aliases have their own rules)."""

    class MaxFields(ValidationRule):
        def enter_document(self, node: DocumentNode, *_: Any) -> None:
            fragments = {d.name.value: d for d in node.definitions
                         if isinstance(d, FragmentDefinitionNode)}
            memo: dict[str, int] = {}

            def count(selection_set: SelectionSetNode | None, seen: frozenset[str]) -> int:
                total = 0
                for sel in selection_set.selections if selection_set else ():
                    if isinstance(sel, FieldNode):
                        total += 1 + count(sel.selection_set, seen)
                    elif isinstance(sel, InlineFragmentNode):
                        total += count(sel.selection_set, seen)
                    elif isinstance(sel, FragmentSpreadNode):
                        name = sel.name.value
                        if name in seen or name not in fragments:
                            continue  # cycles and unknown fragments: other rules say so
                        if name not in memo:
                            memo[name] = count(fragments[name].selection_set, seen | {name})
                        total += memo[name]
                    if total > limit:
                        break
                return total

            for definition in node.definitions:
                if isinstance(definition, OperationDefinitionNode) and \
                        count(definition.selection_set, frozenset()) > limit:
                    self.report_error(GraphQLError(
                        f"the operation selects more than {limit} fields "
                        "(ARBITER_GRAPHQL_MAX_FIELDS)", definition,
                        extensions={"code": "LIMIT_EXCEEDED",
                                    "limit": "ARBITER_GRAPHQL_MAX_FIELDS"}))

    return MaxFields

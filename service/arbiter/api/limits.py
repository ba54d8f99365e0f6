"""The service-wide input limits and the per-request compute budget, shared by REST and
GraphQL.

Sizes are checked on the parsed models, before any rule runs: a state's top-level lists
and maps (``ARBITER_MAX_CELLS``, 413), an action's or a query's lists
(``ARBITER_MAX_ACTION_STEPS``, 422) and a batch (``ARBITER_MAX_BATCH``, 422); the
rulesets' own ``max_length`` bounds apply first.

The budget (``ARBITER_COMPUTE_BUDGET_MS``) caps the wall-clock time a request spends
judging; a request over it gets a 422 naming the limit instead of an answer. The judging
runs in worker threads, off the event loop, so /healthz and /readyz answer while every
thread is busy (``ARBITER_COMPUTE_THREADS`` per worker process); at its deadline the loop
raises ``_OverBudget`` (a BaseException, so no ``except Exception`` in a ruleset can
swallow it) into the thread, which stops at its next bytecode. Measured (issue 20), a
2 s budget ends within 10% of it: the single calls into pydantic-core that cannot be
interrupted are kept short by the body, cell and answer limits. SIGALRM, used before,
could only stop work in the main thread, so judging ran on the event loop and starved the
probes; a killable process per computation was not built (the state would be copied each
way, and each process would keep its own boards).

Answers (``ARBITER_MAX_ANSWER_BYTES``, 413): predicted before they are built where they
can be (a batch's outcomes, a query's ``engine.sizes.check_answer``), else measured, and
added up over a GraphQL request's questions.
"""

from __future__ import annotations

import asyncio
import ctypes
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar, Token, copy_context
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
from pydantic import BaseModel, RootModel

from arbiter.engine.errors import Problem, pointer
from arbiter.engine.sizes import ANSWER_LIMIT, AnswerTooLarge
from arbiter.settings import Settings

T = TypeVar("T")
# An outcome without its state: verdict, violations, events (a generous estimate).
OUTCOME_BYTES = 512
# The GIL switch interval a serving process sets (app.py): how long a judging thread may
# keep the event loop waiting for each read or write it has to make.
SWITCH_INTERVAL = 0.0005
# A single action on a state no larger than this (body and kept board together) is judged
# on the event loop itself (``Compute.run(inline=True)``): it takes a millisecond or two,
# and the hop to a worker thread cost 40% of a small validate's throughput (bisected,
# README Performance). Bounded by this size and one action, it holds the probes no longer.
INLINE_BYTES = 32 << 10
# 4 MiB: see README "Hardening" for how it and the pod's memory limit are derived.
DEFAULT_MAX_ANSWER_BYTES = 4 << 20


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


_COLLECTIONS = (list, tuple, dict, set, frozenset)


def _collections(model: BaseModel) -> list[tuple[str, int]]:
    """(field name, length) of each list, tuple or map held directly by ``model`` (its
    fields are its ``__dict__``, in their order: read on every request, so read fast)."""
    return [(name, len(value)) for name, value in model.__dict__.items()
            if isinstance(value, _COLLECTIONS)]


def _root(model: Any) -> Any:
    return model.root if isinstance(model, RootModel) else model


@dataclass(frozen=True)
class Limits:
    max_cells: int = 10_000
    max_action_steps: int = 1000
    max_batch: int = 200
    max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(settings.max_cells, settings.max_action_steps, settings.max_batch,
                   settings.max_answer_bytes)

    def check_size(self, size: int, what: str = "the answer") -> None:
        """413 for one answer of ``size`` bytes over ``ARBITER_MAX_ANSWER_BYTES``."""
        if size > self.max_answer_bytes:
            raise answer_too_large(size, self.max_answer_bytes, what)

    def check_answer(self, size: int, what: str = "the answer") -> None:
        """``check_size`` for every answer the request has made so far added up (a
        GraphQL request's questions and their aliases each add theirs)."""
        spent = spent_now()
        spent.answer_bytes += size
        self.check_size(spent.answer_bytes, what)

    def check_outcomes(self, actions: int, state_bytes: int, whole_states: bool,
                       add_up: bool = False) -> None:
        """Before judging: one outcome per action, each with its resulting state when the
        request asks for whole states, predicted against the answer limit (a 285 KB
        validate-batch once answered 72 MB). ``add_up``: counted with the request's other
        answers (GraphQL)."""
        per_outcome = OUTCOME_BYTES + (state_bytes if whole_states else 0)
        what = f"{actions} outcome{'s' if actions != 1 else ''} of about {per_outcome} bytes"
        (self.check_answer if add_up else self.check_size)(actions * per_outcome, what)

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
    """Seconds of judging one request has used so far, and bytes of answers it has made
    (GraphQL asks several questions, and converts each answer it gets)."""

    seconds: float = 0.0
    answer_bytes: int = 0


_spent: ContextVar[Spent | None] = ContextVar("arbiter_compute_spent", default=None)


def start_request() -> Token[Spent | None]:
    return _spent.set(Spent())


def end_request(token: Token[Spent | None]) -> None:
    _spent.reset(token)


def spent_now() -> Spent:
    """The current request's account (a fresh one outside a request)."""
    return _spent.get() or Spent()


def answer_too_large(predicted: int, maximum: int, what: str = "the answer") -> LimitExceeded:
    return LimitExceeded(413, "ARBITER_MAX_ANSWER_BYTES", maximum, [Problem(
        "", f"{what} would take about {predicted} bytes of JSON; at most {maximum} "
        "(ARBITER_MAX_ANSWER_BYTES)")])


class _OverBudget(BaseException):
    """Raised into a worker thread whose computation ran out of budget (a BaseException,
    so no ``except Exception`` in a ruleset can swallow it)."""


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    """Have ``thread_id`` raise ``exc`` at its next bytecode (None: forget one pending).
    CPython's ``PyThreadState_SetAsyncExc``: what a signal does for the main thread, for
    any thread, so the judging can leave the event loop and still be stopped."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc is not None else None)


class _Job:
    """One computation in a worker thread, which the event loop may stop: ``stop`` raises
    ``_OverBudget`` in the thread while, and only while, ``fn`` runs there (never into the
    thread pool's own code once it has returned), once ``seconds`` have passed since it
    started there (a job still queued for its thread has not spent any); a job that ends
    past them before the loop could stop it raises ``_OverBudget`` all the same. ``seconds``
    0: no budget."""

    def __init__(self, fn: Callable[[], Any], answer_bytes: int, seconds: float) -> None:
        self.fn = fn
        self.answer_bytes = answer_bytes
        self.seconds = seconds
        self.lock = threading.Lock()
        self.thread: int | None = None
        self.started = 0.0
        self.stopped = False

    def __call__(self) -> Any:
        try:
            with self.lock:
                self.thread = threading.get_ident()
                self.started = time.perf_counter()
            token = ANSWER_LIMIT.set(self.answer_bytes)
            try:
                result = self.fn()
                if 0 < self.seconds < time.perf_counter() - self.started:
                    # Over budget, though the loop (waiting for the GIL) had no chance to
                    # stop it: the same 422 as if it had.
                    raise _OverBudget
                return result
            finally:
                ANSWER_LIMIT.reset(token)
                self._leave()
        except _OverBudget:
            self._leave()
            raise

    def _leave(self) -> None:
        with self.lock:
            if self.thread is not None and self.stopped:
                _raise_in(self.thread, None)  # a stop that came too late to be raised
            self.thread = None

    def stop(self, loop: asyncio.AbstractEventLoop) -> None:
        """At the deadline (called by the loop's timer): stop the job, or, if it started
        late, look again when its own deadline comes."""
        with self.lock:
            if self.stopped:
                return
            left = self.seconds - (time.perf_counter() - self.started) if self.started \
                else self.seconds
            if left > 0:
                loop.call_later(left, self.stop, loop)
            elif self.thread is not None:
                self.stopped = True
                _raise_in(self.thread, _OverBudget)


# How often the service loop looks at the jobs run on GraphQL's thread (``run_here``): a
# job is stopped on time all the same (the look sets its timer when its end is near).
WATCH_SECONDS = 0.05


class LoopShare:
    """How much of the event loop's time inline work may take: at most ``share`` of each
    ``window`` seconds. Past it, work the caller offered inline goes to a thread until the
    window ends, so however many small validates arrive at once, a probe waits behind at
    most ``share × window`` of them (80 ms) plus the one running; a larger share of a
    saturated loop sent to threads cost more throughput (0.6 of 50 ms: about a quarter)."""

    def __init__(self, window: float = 0.100, share: float = 0.8) -> None:
        self.window = window
        self.allowed = window * share
        self.started = 0.0
        self.used = 0.0

    def take(self) -> bool:
        now = time.perf_counter()
        if now - self.started > self.window:
            self.started, self.used = now, 0.0
        return self.used < self.allowed

    def spend(self, seconds: float) -> None:
        self.used += seconds


class Compute:
    """Runs synchronous judging work under the request's budget in a worker thread, off
    the event loop (so /healthz and /readyz answer while every thread judges): at most
    ``threads`` at once per worker process (``ARBITER_COMPUTE_THREADS``), each stopped at
    its deadline by an exception raised into its thread. The exception lands at the next
    Python bytecode: a single call into pydantic-core or orjson runs to its end first,
    which the input limits (body, cells), the answer limit (``ARBITER_MAX_ANSWER_BYTES``,
    checked before an answer is built) and answers written in pieces (``engine.pieces``)
    keep short.

    The hop is one semaphore and ``run_in_executor`` on the process's own pool of
    ``threads`` threads: measured no slower than anyio's ``to_thread`` with a
    ``CapacityLimiter``, used before, with fewer layers (README, Hardening)."""

    def __init__(self, budget_ms: int, threads: int,
                 max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES) -> None:
        self.budget_ms = budget_ms
        self.threads = max(1, threads)
        self.max_answer_bytes = max_answer_bytes
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="arbiter-judge")
        self._loop_time = LoopShare()
        # The jobs ``run_here`` runs (on GraphQL's thread), which ``_watch`` stops.
        self._watched: set[_Job] = set()
        self._watching = False
        self._watch_lock = threading.Lock()
        # One semaphore per event loop: the TestClient runs a loop per client.
        self._slots: weakref.WeakKeyDictionary[Any, asyncio.Semaphore] = \
            weakref.WeakKeyDictionary()

    @classmethod
    def from_settings(cls, settings: Settings) -> Compute:
        return cls(settings.compute_budget_ms, settings.compute_threads,
                   settings.max_answer_bytes)

    def _slot(self, loop: asyncio.AbstractEventLoop) -> asyncio.Semaphore:
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(self.threads)
        return slots

    async def run(self, fn: Callable[[], T], inline: bool = False) -> T:
        """``fn()`` under the request's budget: in a worker thread, or, ``inline`` (work
        the caller knows to be small: ``INLINE_BYTES``), on the event loop itself."""
        spent = spent_now()
        remaining = self.budget_ms / 1000 - spent.seconds
        if self.budget_ms > 0 and remaining <= 0:
            raise BudgetExceeded(self.budget_ms)
        if inline and self._loop_time.take():
            return self._inline(fn, remaining, spent)
        loop = asyncio.get_running_loop()
        job = _Job(fn, self.max_answer_bytes, remaining if self.budget_ms > 0 else 0.0)
        slot = self._slot(loop)
        await slot.acquire()
        started = time.perf_counter()
        timer = loop.call_later(remaining, job.stop, loop) if self.budget_ms > 0 else None
        try:
            # The request's context goes with the work (its account, the answer limit).
            future = loop.run_in_executor(self._pool, copy_context().run, job)
            # Never abandoned: a stopped job ends at its next bytecode, and its slot is
            # free only then (a cancelled request waits for it too).
            with anyio.CancelScope(shield=True), self._refusals():
                result: T = await future
            return result
        finally:
            if timer is not None:
                timer.cancel()
            slot.release()
            spent.seconds += time.perf_counter() - started

    @contextmanager
    def _refusals(self) -> Iterator[None]:
        """A job stopped over the budget, or an answer over its limit, as the problems
        the request gets (a 422 naming the budget, a 413)."""
        try:
            yield
        except _OverBudget:
            raise BudgetExceeded(self.budget_ms) from None
        except AnswerTooLarge as exc:
            raise answer_too_large(exc.predicted, exc.maximum, exc.what) from None

    def run_here(self, fn: Callable[[], T], service: asyncio.AbstractEventLoop) -> T:
        """``fn()`` on the calling thread, which is not the service loop's (GraphQL's own:
        ``graphql_loop``), under the request's budget: stopped at its deadline as a worker
        thread's job is (``_Job``), by the service loop's watch (``_watch``). Work a
        GraphQL operation asks for is done where the operation runs, not sent to the
        service loop, on to a worker thread and back: those four thread hops a question
        were most of a small operation's time."""
        spent = spent_now()
        remaining = self.budget_ms / 1000 - spent.seconds
        if self.budget_ms > 0 and remaining <= 0:
            raise BudgetExceeded(self.budget_ms)
        job = _Job(fn, self.max_answer_bytes, remaining if self.budget_ms > 0 else 0.0)
        if self.budget_ms > 0:
            with self._watch_lock:
                self._watched.add(job)
                start = not self._watching
                self._watching = True
            if start:
                service.call_soon_threadsafe(service.call_later, WATCH_SECONDS, self._watch,
                                             service)
        started = time.perf_counter()
        try:
            with self._refusals():
                result: T = job()
            return result
        finally:
            with self._watch_lock:
                self._watched.discard(job)
            spent.seconds += time.perf_counter() - started

    def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the service loop, every ``WATCH_SECONDS`` while ``run_here`` jobs run: a job
        within that of its deadline gets its own timer (``_Job.stop``), which stops it on
        time. One look a tick, not a timer set and cancelled across threads per job (each
        a wake-up of the service loop); idle, it stops until the next job."""
        with self._watch_lock:
            jobs = list(self._watched)
            if not jobs:
                self._watching = False
                return
            now = time.perf_counter()
            due = [j for j in jobs if j.started and now - j.started + WATCH_SECONDS >= j.seconds]
            self._watched.difference_update(due)
        for job in due:
            job.stop(loop)
        loop.call_later(WATCH_SECONDS, self._watch, loop)

    def _inline(self, fn: Callable[[], T], remaining: float, spent: Spent) -> T:
        """``fn()`` on the event loop, not stopped (small by the caller's word) but held to
        the budget all the same: past it, the same 422 as from a thread."""
        token = ANSWER_LIMIT.set(self.max_answer_bytes)
        started = time.perf_counter()
        try:
            with self._refusals():
                result = fn()
        finally:
            ANSWER_LIMIT.reset(token)
            took = time.perf_counter() - started
            spent.seconds += took
            self._loop_time.spend(took)
        if self.budget_ms > 0 and remaining < time.perf_counter() - started:
            raise BudgetExceeded(self.budget_ms)
        return result

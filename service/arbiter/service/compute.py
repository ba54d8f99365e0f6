"""Where the service's synchronous work runs (parsing, judging, writing answers), and for
how long: the request's compute budget (``ARBITER_COMPUTE_BUDGET_MS``).

The work runs in worker threads, off the event loop, so /healthz and /readyz answer while
every thread is busy (``ARBITER_COMPUTE_THREADS`` per worker process); work the caller
knows to be small runs on the event loop itself, within its ``LoopShare``; and work for a
request that runs on another loop (GraphQL's: ``service.loops``) runs on that loop's own
thread, already off the service's loop.

The budget is cooperative: each computation runs within a ``Deadline`` (the engine's
``Bounds``), whose ``checkpoint`` the engine's long loops call between two steps (the
legal-actions listing, path searches, a turn's resolution, a picture's layout, each
action of a batch, each destination of a large answer): past the deadline it raises
``BudgetExceeded``, which unwinds the work like any exception, and the request gets a 422
naming the limit. Nothing is raised into a thread from outside, so the code the budget
stops stays ordinary Python. A single call into pydantic-core or orjson runs to its end
between two checkpoints, kept short by the body, cell and answer limits; work that ends
past its deadline without meeting a checkpoint is refused all the same.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from typing import Any, TypeVar

import anyio

from arbiter.engine.bounds import within
from arbiter.service.account import Spent, spent_now
from arbiter.service.limits import DEFAULT_MAX_ANSWER_BYTES
from arbiter.service.loop_share import LoopShare
from arbiter.service.loops import away
from arbiter.service.problems import BudgetExceeded, answer_too_large
from arbiter.settings import Settings

T = TypeVar("T")
# The GIL switch interval a serving process sets (http.app): how long a judging thread
# may keep the event loop waiting for each read or write it has to make.
SWITCH_INTERVAL = 0.0005


class Deadline:
    """The bounds of one computation: ``until`` (a ``perf_counter`` time; None, no
    budget) and the answer limit (``ARBITER_MAX_ANSWER_BYTES``)."""

    __slots__ = ("answer_bytes", "budget_ms", "until")

    def __init__(self, until: float | None, budget_ms: int, answer_bytes: int) -> None:
        self.until = until
        self.budget_ms = budget_ms
        self.answer_bytes = answer_bytes

    def checkpoint(self) -> None:
        if self.until is not None and time.perf_counter() > self.until:
            raise BudgetExceeded(self.budget_ms)

    def check_answer(self, predicted: int, what: str) -> None:
        if 0 < self.answer_bytes < predicted:
            raise answer_too_large(predicted, self.answer_bytes, what)


class Compute:
    """Runs synchronous work under the request's budget: in a worker thread (at most
    ``threads`` at once per worker process), on the event loop when the caller says it is
    small and the loop has time for it, or where it is called from another loop.

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
        # One semaphore per event loop: the TestClient runs a loop per client.
        self._slots: weakref.WeakKeyDictionary[Any, asyncio.Semaphore] = \
            weakref.WeakKeyDictionary()

    @classmethod
    def from_settings(cls, settings: Settings) -> Compute:
        return cls(settings.compute_budget_ms, settings.compute_threads,
                   settings.max_answer_bytes)

    async def run(self, fn: Callable[[], T], inline: bool = False) -> T:
        """``fn()`` under the request's budget: in a worker thread; on the event loop
        itself when ``inline`` (work the caller knows to be small) and the loop has time
        for it; on the calling thread when the request runs on another loop."""
        spent = spent_now()
        remaining = self._remaining(spent)
        if away() is not None:
            return self.here(fn, remaining, spent)
        if inline and self._loop_time.take():
            started = time.perf_counter()
            try:
                return self.here(fn, remaining, spent)
            finally:
                self._loop_time.spend(time.perf_counter() - started)
        loop = asyncio.get_running_loop()
        slot = self._slot(loop)
        await slot.acquire()
        try:
            # The request's context goes with the work (its account, its request id).
            future = loop.run_in_executor(self._pool, copy_context().run, self.here, fn,
                                          remaining, spent)
            # Never abandoned: stopped work ends at its next checkpoint, and its slot is
            # free only then (a cancelled request waits for it too).
            with anyio.CancelScope(shield=True):
                result: T = await future
            return result
        finally:
            slot.release()

    def here(self, fn: Callable[[], T], remaining: float, spent: Spent) -> T:
        """``fn()`` on this thread within its deadline (``remaining`` seconds from now,
        when there is a budget), its time added to the request's account."""
        started = time.perf_counter()
        until = started + remaining if self.budget_ms > 0 else None
        try:
            with within(Deadline(until, self.budget_ms, self.max_answer_bytes)):
                result = fn()
        finally:
            spent.seconds += time.perf_counter() - started
        if until is not None and time.perf_counter() > until:
            # Over the budget without meeting a checkpoint on the way: the same refusal.
            raise BudgetExceeded(self.budget_ms)
        return result

    def _remaining(self, spent: Spent) -> float:
        """Seconds of budget the request has left; none left is a refusal now."""
        remaining = self.budget_ms / 1000 - spent.seconds
        if self.budget_ms > 0 and remaining <= 0:
            raise BudgetExceeded(self.budget_ms)
        return remaining

    def _slot(self, loop: asyncio.AbstractEventLoop) -> asyncio.Semaphore:
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(self.threads)
        return slots

"""Where the service's synchronous work runs (parsing, judging, writing answers), and for
how long: the request's compute budget (``ARBITER_COMPUTE_BUDGET_MS``).

The work runs in worker threads, off the event loop, so /healthz and /readyz answer while
every thread is busy (``ARBITER_COMPUTE_THREADS`` per worker process); a request judges
only while it holds one of as many slots (``service.slots``), whichever loop it runs on:
REST's on the service's loop, GraphQL's on its own (``graphql.loop``), which used to
judge on that loop's one thread beside the others (a third judging at once, and every
GraphQL operation queued behind the longest). Work the caller knows to be small runs on
the event loop itself, within its ``LoopShare``, for at most ``INLINE_SECONDS``: at the
first checkpoint past them it stops and is judged again in a thread, so a small body
with a long plan (480 steps of area_movement: 85 ms) cannot hold the loop.

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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from typing import TypeVar

import anyio

from arbiter.engine.bounds import within
from arbiter.service.account import Spent, spent_now
from arbiter.service.limits import DEFAULT_MAX_ANSWER_BYTES
from arbiter.service.loop_share import LoopShare
from arbiter.service.loops import away
from arbiter.service.problems import BudgetExceeded, answer_too_large
from arbiter.service.slots import HELD, Slots
from arbiter.settings import Settings

T = TypeVar("T")
# The GIL switch interval a serving process sets (http.app): how long a judging thread
# may keep the event loop waiting for each read or write it has to make.
SWITCH_INTERVAL = 0.0005
# How long work offered inline may hold the event loop before it is moved to a thread: a
# small validate takes a millisecond or two; one that takes longer is not small.
INLINE_SECONDS = 0.005


class _NotSmall(Exception):
    """Work offered inline reached a checkpoint past ``INLINE_SECONDS``."""


class Deadline:
    """The bounds of one computation: ``until`` (a ``perf_counter`` time; None, no
    budget) and the answer limit (``ARBITER_MAX_ANSWER_BYTES``)."""

    __slots__ = ("answer_bytes", "budget_ms", "inline_until", "until")

    def __init__(self, until: float | None, budget_ms: int, answer_bytes: int,
                 inline_until: float | None = None) -> None:
        self.until = until
        self.budget_ms = budget_ms
        self.answer_bytes = answer_bytes
        self.inline_until = inline_until  # work on the event loop: move it past this

    def checkpoint(self) -> None:
        if self.until is None and self.inline_until is None:
            return
        now = time.perf_counter()
        if self.inline_until is not None and now > self.inline_until:
            raise _NotSmall
        if self.until is not None and now > self.until:
            raise BudgetExceeded(self.budget_ms)

    def check_answer(self, predicted: int, what: str) -> None:
        if 0 < self.answer_bytes < predicted:
            raise answer_too_large(predicted, self.answer_bytes, what)


class Compute:
    """Runs synchronous work under the request's budget: in a worker thread (at most
    ``threads`` at once per worker process, REST and GraphQL together), or on the event
    loop when the caller says it is small and the loop has time for it.

    The hop is a slot (``service.slots``) and ``run_in_executor`` on the process's own
    pool of ``threads`` threads: measured no slower than anyio's ``to_thread`` with a
    ``CapacityLimiter``, used before, with fewer layers (docs/hardening.md)."""

    def __init__(self, budget_ms: int, threads: int,
                 max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES) -> None:
        self.budget_ms = budget_ms
        self.threads = max(1, threads)
        self.max_answer_bytes = max_answer_bytes
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="arbiter-judge")
        self._loop_time = LoopShare()
        self.slots = Slots(self.threads)

    @classmethod
    def from_settings(cls, settings: Settings) -> Compute:
        return cls(settings.compute_budget_ms, settings.compute_threads,
                   settings.max_answer_bytes)

    async def run(self, fn: Callable[[], T], inline: bool = False) -> T:
        """``fn()`` under the request's budget: in a worker thread once the request holds
        a slot (a GraphQL operation's own, ``slots.HELD``, taken at its first judging);
        on the event loop itself when ``inline`` (work the caller knows to be small), the
        loop has time for it and it is done within ``INLINE_SECONDS``."""
        spent = spent_now()
        self._remaining(spent)  # none left: refused before waiting for anything
        if inline and away() is None and self._loop_time.take():
            started = time.perf_counter()
            try:
                return self.here(fn, self._remaining(spent), spent,
                                 started + INLINE_SECONDS)
            except _NotSmall:
                pass  # judged again from the start in a thread (its time still counts)
            finally:
                self._loop_time.spend(time.perf_counter() - started)
        held = HELD.get()
        if held is None:
            await self.slots.acquire()
            try:
                return await self._in_thread(fn, spent)
            finally:
                self.slots.release()
        async with held.turn:
            await held.take()
            return await self._in_thread(fn, spent)

    async def _in_thread(self, fn: Callable[[], T], spent: Spent) -> T:
        loop = asyncio.get_running_loop()
        # The request's context goes with the work (its account, its request id).
        future = loop.run_in_executor(self._pool, copy_context().run, self.here, fn,
                                      self._remaining(spent), spent)
        # Never abandoned: stopped work ends at its next checkpoint, and its slot is free
        # only then (a cancelled request waits for it too).
        with anyio.CancelScope(shield=True):
            result: T = await future
        return result

    def here(self, fn: Callable[[], T], remaining: float, spent: Spent,
             inline_until: float | None = None) -> T:
        """``fn()`` on this thread within its deadline (``remaining`` seconds from now,
        when there is a budget), its time added to the request's account; on the event
        loop, stopped at a checkpoint past ``inline_until`` (``_NotSmall``)."""
        started = time.perf_counter()
        until = started + remaining if self.budget_ms > 0 else None
        try:
            with within(Deadline(until, self.budget_ms, self.max_answer_bytes,
                                 inline_until)):
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

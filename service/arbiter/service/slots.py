"""The worker's compute threads as slots that any event loop may wait for.

A request judges only while it holds one of ``ARBITER_COMPUTE_THREADS`` slots: the
memory arithmetic of docs/hardening.md counts that many judgings at once per worker. REST
requests wait for one on the service's loop, GraphQL operations on GraphQL's own
(``graphql.loop``), so the slots cannot be an ``asyncio.Semaphore``, which belongs to one
loop: a lock guards the count, and a slot given up is handed to the first waiter on that
waiter's loop. Waiters are served in the order they came, whatever their loop.

A GraphQL operation holds its slot from its first judging until its answer is written
(``Held``): the answer it completes is memory of the judging's, and its fields may ask
several questions of one state one after another.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from contextvars import ContextVar


class Slots:
    def __init__(self, count: int) -> None:
        self.count = max(1, count)
        self.free = self.count
        self._lock = threading.Lock()
        self._waiting: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()

    async def acquire(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self.free > 0 and not self._waiting:
                self.free -= 1
                return
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiting.append((loop, waiter))
        try:
            await waiter
        except asyncio.CancelledError:
            with self._lock:
                chosen = (loop, waiter) not in self._waiting
                if not chosen:
                    self._waiting.remove((loop, waiter))
            if chosen and not waiter.cancelled():
                self.release()  # handed over before it was cancelled: pass it on
            # (chosen and then cancelled: ``_hand`` finds it so and passes it on)
            raise

    def release(self) -> None:
        """Give a slot up: to the first waiter (on its loop), else back to the count."""
        with self._lock:
            if not self._waiting:
                self.free += 1
                return
            loop, waiter = self._waiting.popleft()
        loop.call_soon_threadsafe(self._hand, waiter)

    def _hand(self, waiter: asyncio.Future[None]) -> None:
        if waiter.done():  # cancelled after it was chosen: the next one gets it
            self.release()
        else:
            waiter.set_result(None)


class Held:
    """The slot of one GraphQL operation: taken at its first judging, given up when its
    answer is written (``give_up``); its judgings run one at a time."""

    def __init__(self, slots: Slots) -> None:
        self.slots = slots
        self.taken = False
        self.turn = asyncio.Lock()  # (bound to the loop the operation runs on, at first use)

    async def take(self) -> None:
        if not self.taken:
            await self.slots.acquire()
            self.taken = True

    def give_up(self) -> None:
        if self.taken:
            self.taken = False
            self.slots.release()


# The slot of the GraphQL operation under way, when there is one.
HELD: ContextVar[Held | None] = ContextVar("arbiter_held_slot", default=None)

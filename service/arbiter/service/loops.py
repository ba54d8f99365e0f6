"""The service's event loop, and work that runs on another one.

The service's I/O belongs to the loop that made it (its "home": the Redis clients of the
answer cache and the board store), while a transport may run a request on a loop of its
own in another thread (GraphQL completes large answers on its own loop, so the probes
keep answering: ``graphql.loop``). ``run_on`` hands a coroutine to such a loop and
remembers the home loop in the request's context; from there, ``away`` says the work is
not at home (compute then never runs on the loop itself), ``at_home`` awaits the home
loop's I/O, and ``call_at_home`` schedules it.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

# The service's loop, for a request being run on another loop.
_home: contextvars.ContextVar[asyncio.AbstractEventLoop | None] = \
    contextvars.ContextVar("arbiter_home_loop", default=None)


async def run_on(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` as a task of ``loop`` (running in another thread), in a copy of the
    caller's context that knows the caller's loop as home; the caller's loop stays free
    meanwhile."""
    here = asyncio.get_running_loop()
    if loop is here:
        return await coro
    done: Future[T] = Future()
    context = contextvars.copy_context()
    context.run(_home.set, _home.get() or here)
    task: list[asyncio.Task[T]] = []

    def start() -> None:
        task.append(loop.create_task(coro, context=context))
        task[0].add_done_callback(lambda t: _settle(t, done))

    loop.call_soon_threadsafe(start)
    try:
        return await asyncio.wrap_future(done)
    except asyncio.CancelledError:
        loop.call_soon_threadsafe(lambda: task and task[0].cancel())
        raise


def _settle(task: asyncio.Task[T], done: Future[T]) -> None:
    if task.cancelled():
        done.cancel()
    elif (exc := task.exception()) is not None:
        done.set_exception(exc)
    else:
        done.set_result(task.result())


def away() -> asyncio.AbstractEventLoop | None:
    """The home loop when called on another loop (``run_on``), else None."""
    home = _home.get()
    try:
        here = asyncio.get_running_loop()
    except RuntimeError:
        here = None
    return home if home is not None and home is not here else None


async def at_home(make: Callable[[], Awaitable[T]]) -> T:
    """``await make()`` on the home loop (here when at home)."""
    home = away()
    if home is None:
        return await make()

    async def made() -> T:
        return await make()

    return await run_on(home, made())


def call_at_home(fn: Callable[..., Any], *args: Any) -> None:
    """``fn(*args)`` on the home loop, soon (here, now, when at home)."""
    home = away()
    if home is None:
        fn(*args)
    else:
        home.call_soon_threadsafe(fn, *args)

"""GraphQL's own event loop, in a thread of its own.

strawberry runs each operation on an event loop: graphql-core validates the document,
orchestrates the resolvers, then completes every field of the answer and the answer is
encoded, all in Python on that loop. Completing a large answer takes about 0.7 µs a byte
(a 2.7 MB ``reachable`` 1.9 s), and on the service's loop that held /healthz and
/readyz for as long. So the endpoint hands each operation to this loop
(``run_on(graphql_loop(), ...)``): its thread gives the GIL up every switch interval
(``limits.SWITCH_INTERVAL``) and the service's loop answers the probes meanwhile.

The judging a resolver asks for is done on this thread, under the request's compute
budget (``Compute.run_here``: the service's loop keeps the timer that stops it). What
else it awaits runs on the service's loop, which owns it: the answer cache and the boards
(their Redis clients belong to the loop that made them). ``on_service_loop`` sends it
there. Both hops carry the request's context (its id, its compute budget already spent).
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

# The service's loop, for the operation being executed on GraphQL's.
_service_loop: contextvars.ContextVar[asyncio.AbstractEventLoop | None] = \
    contextvars.ContextVar("arbiter_service_loop", default=None)
_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def graphql_loop() -> asyncio.AbstractEventLoop:
    """The process's GraphQL loop, started on first use (one per worker process)."""
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="arbiter-graphql",
                             daemon=True).start()
            _loop = loop
        return _loop


async def run_on(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` as a task of ``loop`` (running in another thread), in a copy of the
    caller's context; the caller's loop stays free meanwhile."""
    here = asyncio.get_running_loop()
    if loop is here:
        return await coro
    done: Future[T] = Future()
    context = contextvars.copy_context()
    context.run(_service_loop.set, _service_loop.get() or here)
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


def service_loop() -> asyncio.AbstractEventLoop | None:
    """The service's loop when called on GraphQL's (in an operation), else None."""
    service = _service_loop.get()
    try:
        here = asyncio.get_running_loop()
    except RuntimeError:
        here = None
    return service if service is not None and service is not here else None


async def on_service_loop(make: Callable[[], Awaitable[T]]) -> T:
    """``await make()`` on the service's loop when called from GraphQL's, else here."""
    service = _service_loop.get()
    if service is None or service is asyncio.get_running_loop():
        return await make()

    async def made() -> T:
        return await make()

    return await run_on(service, made())

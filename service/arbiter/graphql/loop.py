"""GraphQL's own event loop, in a thread of its own.

strawberry runs each operation on an event loop: graphql-core validates the document,
orchestrates the resolvers, then completes every field of the answer and the answer is
encoded, all in Python on that loop. Completing a large answer takes about 0.7 µs a byte
(a 2.7 MB ``reachable`` 1.9 s), and on the service's loop that held /healthz and
/readyz for as long. So the endpoint hands each operation to this loop
(``service.loops.run_on(graphql_loop(), ...)``): its thread gives the GIL up every switch
interval (``service.compute.SWITCH_INTERVAL``) and the service's loop answers the probes
meanwhile.

The judging a resolver asks for is not done here: it goes to the worker's compute threads
like REST's, under a slot the operation holds until its answer is written
(``service.compute``, ``service.slots``). Judged here, it made this one thread a third
judging beside the compute threads, and every operation waited behind the one judging
(two clients looping a 5 s operation held a third's ``{ __typename }`` for 9.6 s). What
else it awaits runs on the service's loop, which owns it: the answer cache's and the
boards' Redis clients (``service.loops.at_home``).
"""

from __future__ import annotations

import asyncio
import threading

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

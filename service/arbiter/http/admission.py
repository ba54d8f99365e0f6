"""Which requests a worker takes on, and how long a body may take to arrive.

A worker answers at most ``ARBITER_MAX_IN_FLIGHT`` requests at once (reading their bodies
included) on at most ``ARBITER_MAX_CONNECTIONS`` open connections (``connections``
counts them); one more gets 503 with ``Retry-After`` before its body is read, and on a
connection beyond the cap ``Connection: close`` too. The probes and the scrape
(``/healthz``, ``/readyz``, ``/metrics``) are always answered and never counted, so a
full worker is not mistaken for a dead one. A body has ``ARBITER_BODY_TIMEOUT_MS`` from
the request's head to its last byte; a slower one gets 408 and its connection is closed.

Bodies are the memory a client can make a worker hold: at most ``max_in_flight ×
ARBITER_MAX_BODY_BYTES``, for at most the body timeout (64 × 1 MiB by default; before,
200 idle connections each holding most of 1 MiB kept 184 MB for ever).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from starlette.types import Receive, Scope

from arbiter.http.connections import open_connections
from arbiter.settings import Settings

PROBES = frozenset({"/healthz", "/readyz", "/metrics"})
RETRY_AFTER = "1"
# How long admission may stay full before /readyz says the worker takes no requests: a
# burst that fills every slot for a moment is no reason to be taken out of rotation.
FULL_FOR = 3.0


@dataclass(frozen=True)
class Refusal:
    detail: str
    limit: str
    maximum: int
    close: bool


class Admission:
    def __init__(self, max_in_flight: int, max_connections: int, body_timeout_ms: int) -> None:
        self.max_in_flight = max_in_flight
        self.max_connections = max_connections
        self.body_timeout_ms = body_timeout_ms
        self.in_flight = 0
        self.full_since: float | None = None  # (``time.monotonic``)

    @classmethod
    def from_settings(cls, settings: Settings) -> Admission:
        return cls(settings.max_in_flight, settings.max_connections, settings.body_timeout_ms)

    def refusal(self, scope: Scope) -> Refusal | None:
        """Why this request is not taken on now, or None: then it is counted in flight
        until ``leave``."""
        if scope.get("path") in PROBES:
            return None
        self._full()  # (noted for /readyz)
        if open_connections() > self.max_connections:
            return Refusal(f"this worker has more than {self.max_connections} connections "
                           "open (ARBITER_MAX_CONNECTIONS); try again shortly",
                           "ARBITER_MAX_CONNECTIONS", self.max_connections, True)
        if self.in_flight >= self.max_in_flight:
            return Refusal(f"this worker is answering {self.max_in_flight} requests "
                           "(ARBITER_MAX_IN_FLIGHT); try again shortly",
                           "ARBITER_MAX_IN_FLIGHT", self.max_in_flight, False)
        self.in_flight += 1
        self._full()
        return None

    def leave(self, scope: Scope) -> None:
        if scope.get("path") not in PROBES:
            self.in_flight -= 1
            self._full()

    def unready(self) -> str | None:
        """The limit that has kept this worker from taking any request for longer than
        ``FULL_FOR`` seconds, or None: it takes requests."""
        limit = self._full()
        if limit is None or self.full_since is None:
            return None
        return limit if time.monotonic() - self.full_since > FULL_FOR else None

    def _full(self) -> str | None:
        """The limit a request arriving now would be refused by, or None; when admission
        became full is noted."""
        if self.in_flight >= self.max_in_flight:
            limit: str | None = "ARBITER_MAX_IN_FLIGHT"
        elif open_connections() > self.max_connections:
            limit = "ARBITER_MAX_CONNECTIONS"
        else:
            limit = None
        if limit is None:
            self.full_since = None
        elif self.full_since is None:
            self.full_since = time.monotonic()
        return limit

    def late_detail(self) -> str:
        return (f"the body did not arrive within {self.body_timeout_ms} ms of the request's "
                "head (ARBITER_BODY_TIMEOUT_MS)")


async def read_body(receive: Receive, body: bytearray, max_body: int,
                    timeout_ms: int | None) -> str:
    """Read the request's body into ``body``: "whole", "disconnected", "too-large" (over
    ``max_body``) or "late" (not all in within ``timeout_ms``)."""
    try:
        async with asyncio.timeout(timeout_ms / 1000 if timeout_ms else None):
            more = True
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return "disconnected"
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > max_body:
                    return "too-large"
    except TimeoutError:
        return "late"
    return "whole"

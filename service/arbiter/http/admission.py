"""Which requests a worker takes on, and how long a body may take to arrive: ``Admit``,
the ASGI middleware behind the API keys (``security.Gate``), so a request without a
valid key is refused from its headers alone and never holds a slot or a body buffer.

A worker answers at most ``ARBITER_MAX_IN_FLIGHT`` requests at once (reading their bodies
included) on at most ``ARBITER_MAX_CONNECTIONS`` open connections (``connections``
counts them); one more gets 503 with ``Retry-After`` before its body is read, and on a
connection beyond the cap ``Connection: close`` too. The probes and the scrape
(``/healthz``, ``/readyz``, ``/metrics``) are always answered and never counted, so a
full worker is not mistaken for a dead one. A body has ``ARBITER_BODY_TIMEOUT_MS`` from
the request's head to its last byte; a slower one gets 408 and its connection is closed.

Bodies are the memory a client can make a worker hold: at most ``max_in_flight ×
ARBITER_MAX_BODY_BYTES``, for at most the body timeout (64 × 1 MiB by default; before,
200 idle connections each holding most of 1 MiB kept 184 MB for ever). A gzipped body
holds twice that for as long as it is decoded (its bytes as sent, then dropped, and at
most the limit decoded).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbiter.http.compression import BadCoding, BodyTooLarge, UnknownCoding, decoded
from arbiter.http.connections import open_connections
from arbiter.http.guard import send_problem
from arbiter.http.problems import LIMIT_TITLE, LIMIT_TYPE
from arbiter.http.scope import BODY, BODY_READ, BODY_SENT
from arbiter.service.account import opened
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


class Admit:
    """Admission, then the body read whole within its size limit (413, by Content-Length
    or by counting a streamed body) and deadline (408), decoded when it is sent gzipped
(the size limit holds for it decoded: ``compression.decoded``), then the request's account (its
    compute budget and answer bytes) opened for the application."""

    def __init__(self, app: ASGIApp, max_body: int, admission: Admission | None = None
                 ) -> None:
        self.app = app
        self.max_body = max_body
        self.admission = admission

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        admission = self.admission
        refused = admission.refusal(scope) if admission is not None else None
        if refused is not None:
            await refuse(send, refused)
            return
        try:
            await self._admitted(scope, receive, send)
        finally:
            if admission is not None:
                admission.leave(scope)

    async def _admitted(self, scope: Scope, receive: Receive, send: Send) -> None:
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            if length.isdigit():
                await self._too_large(send)
            else:
                await send_problem(send, 400, "invalid Content-Length")
            return
        body = scope.get(BODY_READ)
        if body is None:  # outside the guard (a test's app): read into a buffer of its own
            body = bytearray()
        timeout = self.admission.body_timeout_ms if self.admission is not None else None
        read = await read_body(receive, body, self.max_body, timeout)
        if read == "too-large":
            await self._too_large(send)
        elif read == "late":
            assert self.admission is not None
            await send_problem(send, 408, self.admission.late_detail(), {"connection": "close"},
                               type=LIMIT_TYPE, title=LIMIT_TITLE,
                               limit="ARBITER_BODY_TIMEOUT_MS", maximum=timeout)
        if read != "whole":
            return
        whole = await self._decoded(scope, body, send)
        if whole is None:
            return
        replayed = False
        scope[BODY] = whole

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        with opened():  # the request's account: its budget and answer bytes spent
            await self.app(scope, replay, send)

    async def _decoded(self, scope: Scope, body: bytearray, send: Send) -> bytes | None:
        """The body as it says once decoded from its Content-Encoding, or None: refused
        (413 over the size limit decoded, 415 in a coding not read, 400 not gzip)."""
        coding = dict(scope["headers"]).get(b"content-encoding")
        if coding is None:
            return bytes(body)
        try:
            whole = decoded(body, coding.decode("latin-1"), self.max_body)
        except BodyTooLarge:
            await self._too_large(send, " once decoded")
            return None
        except UnknownCoding:
            await send_problem(send, 415, "a body may be sent as it is or with "
                               "Content-Encoding: gzip, not "
                               f"{coding.decode('latin-1')[:100]!r}",
                               {"accept-encoding": "gzip"})
            return None
        except BadCoding as exc:
            await send_problem(send, 400, f"the body is not the gzip it says: {exc}")
            return None
        # What follows reads the body decoded, under a head that says so.
        scope["headers"] = [(k, v) for k, v in scope["headers"]
                            if k not in (b"content-encoding", b"content-length")]
        scope[BODY_SENT] = len(body)
        body.clear()  # (the bytes as sent are no longer needed)
        return whole

    async def _too_large(self, send: Send, decoded: str = "") -> None:
        await send_problem(send, 413, f"the body exceeds {self.max_body} bytes{decoded} "
                           "(ARBITER_MAX_BODY_BYTES)", type=LIMIT_TYPE, title=LIMIT_TITLE,
                           limit="ARBITER_MAX_BODY_BYTES", maximum=self.max_body)


async def refuse(send: Send, refused: Refusal) -> None:
    """503 with Retry-After for a request the worker does not take on now."""
    headers = {"retry-after": RETRY_AFTER}
    if refused.close:
        headers["connection"] = "close"
    await send_problem(send, 503, refused.detail, headers, type=LIMIT_TYPE, title=LIMIT_TITLE,
                       limit=refused.limit, maximum=refused.maximum)

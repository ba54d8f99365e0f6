"""``Guard``, the pure ASGI middleware in front of everything: it refuses bodies over the
limit with 413 (by Content-Length, or by counting a streamed body), opens the request's
compute budget, adds the security headers to every response, writes the one JSON log line
per request, and turns any exception that escapes into a 500 problem without internals
(the traceback goes to the log only)."""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbiter.api.limits import end_request, start_request
from arbiter.api.logs import log_request
from arbiter.api.problems import LIMIT_TITLE, LIMIT_TYPE, problem_body

log = logging.getLogger("arbiter")

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
INTERNAL_ERROR = "the service failed to answer; this is a bug, and it has been logged"


class Guard:
    def __init__(self, app: ASGIApp, max_body: int, log_bodies: bool = False) -> None:
        self.app = app
        self.max_body = max_body
        self.log_bodies = log_bodies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started_at = time.perf_counter()
        status = 0
        sent = 0
        body = bytearray()

        async def send_with_headers(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", []),
                                                  *SECURITY_HEADERS]}
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self._guarded(scope, receive, send_with_headers, body)
        finally:
            log_request(scope, status, time.perf_counter() - started_at, len(body), sent,
                        bytes(body) if self.log_bodies else None)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send,
                       body: bytearray) -> None:
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            if length.isdigit():
                await self._too_large(send)
            else:
                await send_problem(send, 400, "invalid Content-Length")
            return
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                await self._too_large(send)
                return
        replayed = False
        whole = bytes(body)

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        token = start_request()
        try:
            await self.app(scope, replay, watch)
        except Exception:
            log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await send_problem(send, 500, INTERNAL_ERROR)
        finally:
            end_request(token)

    async def _too_large(self, send: Send) -> None:
        await send_problem(send, 413, f"the body exceeds {self.max_body} bytes "
                           "(ARBITER_MAX_BODY_BYTES)", type=LIMIT_TYPE, title=LIMIT_TITLE,
                           limit="ARBITER_MAX_BODY_BYTES", maximum=self.max_body)


async def send_problem(send: Send, status: int, detail: str,
                       headers: dict[str, str] | None = None, **extra: Any) -> None:
    body = orjson.dumps(problem_body(status, detail, **extra))
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(body)).encode()),
        *((k.encode(), v.encode()) for k, v in (headers or {}).items())]})
    await send({"type": "http.response.body", "body": body})

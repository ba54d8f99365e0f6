"""``Guard``, the pure ASGI middleware in front of everything: it gives every request its id
(the client's ``X-Request-ID`` when it is a sane one, else a new one; returned on the
response and on every log line of the request), refuses bodies over the limit with 413 (by
Content-Length, or by counting a streamed body), opens the request's compute budget, adds
the security headers to every response, writes the one JSON log line per request, counts
the request, its status, its latency and any limit it hit in the metrics, and turns any
exception that escapes into a 500 problem without internals (the traceback goes to the
log only)."""

from __future__ import annotations

import logging
import os
import re
import time
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbiter.http.admission import RETRY_AFTER, Admission, Refusal, read_body
from arbiter.http.problems import LIMIT_TITLE, LIMIT_TYPE, problem_body
from arbiter.http.scope import BODY
from arbiter.service.account import opened
from arbiter.telemetry.logs import REQUEST_ID, log_request
from arbiter.telemetry.metrics import Metrics

log = logging.getLogger("arbiter")

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
INTERNAL_ERROR = "the service failed to answer; this is a bug, and it has been logged"
# A client's request id is kept when it is 1 to 128 of these characters (UUIDs, trace ids,
# base64): anything else could forge log lines or bloat them, and is replaced.
REQUEST_ID_FORM = re.compile(rb"[A-Za-z0-9._:/+=@-]{1,128}")
# Problem documents over a limit name it in "limit"; their bodies are small.
LIMIT_STATUSES = frozenset({408, 413, 422, 429, 503})
PROBLEM_SNIFF_BYTES = 65536


def request_id(scope: Scope) -> str:
    """The client's X-Request-ID when it is well formed, else a fresh random one."""
    value: bytes
    for name, value in scope["headers"]:
        if name == b"x-request-id":
            if REQUEST_ID_FORM.fullmatch(value):
                return value.decode("ascii")
            break
    return os.urandom(16).hex()


def limit_named(body: bytes) -> str | None:
    """The ``limit`` a problem document names, if it is one that does."""
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    limit = document.get("limit") if isinstance(document, dict) else None
    return str(limit) if isinstance(limit, str) and limit.startswith("ARBITER_") else None


class Guard:
    def __init__(self, app: ASGIApp, max_body: int, log_bodies: bool = False,
                 metrics: Metrics | None = None, admission: Admission | None = None) -> None:
        self.app = app
        self.max_body = max_body
        self.log_bodies = log_bodies
        self.metrics = metrics
        self.admission = admission

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started_at = time.perf_counter()
        rid = request_id(scope)
        token = REQUEST_ID.set(rid)
        scope.setdefault("state", {})["request_id"] = rid
        status = 0
        sent = 0
        body = bytearray()
        problem = bytearray()  # the body of a problem document that may name a limit
        metrics = self.metrics
        if metrics is not None:
            metrics.request_started()

        async def send_with_headers(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", []),
                                                  *SECURITY_HEADERS,
                                                  (b"x-request-id", rid.encode())]}
            elif message["type"] == "http.response.body":
                chunk = message.get("body", b"")
                sent += len(chunk)
                if status in LIMIT_STATUSES and len(problem) < PROBLEM_SNIFF_BYTES:
                    problem.extend(chunk)
            await send(message)

        try:
            await self._guarded(scope, receive, send_with_headers, body)
        finally:
            seconds = time.perf_counter() - started_at
            log_request(scope, status, seconds, len(body), sent,
                        bytes(body) if self.log_bodies else None)
            if metrics is not None:
                metrics.request_finished(scope.get("path", ""), status, seconds)
                limit = limit_named(bytes(problem)) if problem else None
                if limit is not None:
                    metrics.limit_hit(limit)
            REQUEST_ID.reset(token)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send,
                       body: bytearray) -> None:
        admission = self.admission
        refused = admission.refusal(scope) if admission is not None else None
        if refused is not None:
            await refuse(send, refused)
            return
        try:
            await self._admitted(scope, receive, send, body)
        finally:
            if admission is not None:
                admission.leave(scope)

    async def _admitted(self, scope: Scope, receive: Receive, send: Send,
                        body: bytearray) -> None:
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            if length.isdigit():
                await self._too_large(send)
            else:
                await send_problem(send, 400, "invalid Content-Length")
            return
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
        replayed = False
        whole = scope[BODY] = bytes(body)

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

        with opened():  # the request's account: its budget and answer bytes spent
            try:
                await self.app(scope, replay, watch)
            except Exception:
                log.exception("unhandled error on %s %s", scope.get("method"),
                              scope.get("path"))
                if not started:
                    await send_problem(send, 500, INTERNAL_ERROR)

    async def _too_large(self, send: Send) -> None:
        await send_problem(send, 413, f"the body exceeds {self.max_body} bytes "
                           "(ARBITER_MAX_BODY_BYTES)", type=LIMIT_TYPE, title=LIMIT_TITLE,
                           limit="ARBITER_MAX_BODY_BYTES", maximum=self.max_body)


async def refuse(send: Send, refused: Refusal) -> None:
    """503 with Retry-After for a request the worker does not take on now."""
    headers = {"retry-after": RETRY_AFTER}
    if refused.close:
        headers["connection"] = "close"
    await send_problem(send, 503, refused.detail, headers, type=LIMIT_TYPE, title=LIMIT_TITLE,
                       limit=refused.limit, maximum=refused.maximum)


async def send_problem(send: Send, status: int, detail: str,
                       headers: dict[str, str] | None = None, **extra: Any) -> None:
    body = orjson.dumps(problem_body(status, detail, **extra))
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(body)).encode()),
        *((k.encode(), v.encode()) for k, v in (headers or {}).items())]})
    await send({"type": "http.response.body", "body": body})

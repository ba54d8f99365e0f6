"""``Guard``, the pure ASGI middleware in front of everything: it gives every request its id
(the client's ``X-Request-ID`` when it is a sane one, else a new one; returned on the
response and on every log line of the request), adds the security headers to every
response, writes the one JSON log line per request, counts the request, its status, its
latency and any limit it hit in the metrics, and turns any exception that escapes into a
500 problem without internals (the traceback goes to the log only).

What costs the worker something (a slot in flight, the body's bytes: ``admission.Admit``)
comes after the API key is checked (``security.Gate``), which reads the headers only: a
request without a valid key never holds what a client with one needs."""

from __future__ import annotations

import logging
import os
import re
import time
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbiter.http.problems import problem_body
from arbiter.http.scope import BODY, BODY_READ, BODY_SENT
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
    def __init__(self, app: ASGIApp, log_bodies: bool = False,
                 metrics: Metrics | None = None) -> None:
        self.app = app
        self.log_bodies = log_bodies
        self.metrics = metrics

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
        # The body as far as it was read (admission.Admit reads it, once the key holds).
        body = scope[BODY_READ] = bytearray()
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
            await self.app(scope, receive, send_with_headers)
        except Exception:
            log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if not status:
                await send_problem(send_with_headers, 500, INTERNAL_ERROR)
        finally:
            seconds = time.perf_counter() - started_at
            log_request(scope, status, seconds, scope.get(BODY_SENT, len(body)), sent,
                        bytes(scope.get(BODY, body)) if self.log_bodies else None)
            if metrics is not None:
                metrics.request_finished(scope.get("path", ""), status, seconds)
                limit = limit_named(bytes(problem)) if problem else None
                if limit is not None:
                    metrics.limit_hit(limit)
            REQUEST_ID.reset(token)


async def send_problem(send: Send, status: int, detail: str,
                       headers: dict[str, str] | None = None, **extra: Any) -> None:
    body = orjson.dumps(problem_body(status, detail, **extra))
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(body)).encode()),
        *((k.encode(), v.encode()) for k, v in (headers or {}).items())]})
    await send({"type": "http.response.body", "body": body})

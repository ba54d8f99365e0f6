"""``create_app(settings)``: the ASGI application — REST routes, GraphQL, health, metrics
and the OpenAPI document — with the body limit and the last-resort error handler."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.asgi import GraphQL

from arbiter import __version__
from arbiter.api.answers import Answerer
from arbiter.api.graphql import build_schema
from arbiter.api.metrics import Metrics
from arbiter.api.openapi import build_openapi
from arbiter.api.problems import problem, problem_body
from arbiter.api.rest import RestApi, json_response
from arbiter.cache import AnswerCache
from arbiter.cache.breaker import CircuitBreaker
from arbiter.cache.memory import LruCache
from arbiter.cache.redis_tier import RedisTier, connect
from arbiter.engine.registry import Registry
from arbiter.rulesets import builtin_registry
from arbiter.settings import Settings

log = logging.getLogger("arbiter")

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class Guard:
    """Pure ASGI middleware in front of everything: refuses bodies over the limit with 413
    (by Content-Length, or by counting a streamed body), adds security headers, and turns
    any exception that escapes into a 500 problem without internals."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._send_problem(send, 413 if length.isdigit() else 400,
                                     f"the body exceeds {self.max_body} bytes "
                                     "(ARBITER_MAX_BODY_BYTES)" if length.isdigit()
                                     else "invalid Content-Length")
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                await self._send_problem(send, 413, f"the body exceeds {self.max_body} bytes "
                                         "(ARBITER_MAX_BODY_BYTES)")
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []),
                                                  *SECURITY_HEADERS]}
            await send(message)

        try:
            await self.app(scope, replay, send_with_headers)
        except Exception:
            log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await self._send_problem(send, 500, "the service failed to answer; this is a "
                                         "bug, and it has been logged")

    async def _send_problem(self, send: Send, status: int, detail: str) -> None:
        body = orjson.dumps(problem_body(status, detail))
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})


def build_cache(settings: Settings, metrics: Metrics) -> AnswerCache:
    """The in-process tier always; Redis in front of computation when a URL is set."""
    redis = None
    if settings.redis_url:
        timeout = settings.redis_timeout_ms / 1000
        redis = RedisTier(connect(settings.redis_url, timeout), timeout=timeout,
                          ttl_seconds=settings.cache_ttl_seconds,
                          breaker=CircuitBreaker(cooldown_seconds=settings.redis_cooldown_seconds),
                          prefix=settings.redis_key_prefix)
    return AnswerCache(LruCache(settings.cache_size, settings.cache_max_bytes), redis,
                       redis_min_size=settings.redis_min_cells, count=metrics.cache_event)


def create_app(settings: Settings | None = None, registry: Registry | None = None) -> ASGIApp:
    settings = settings or Settings.from_env()
    registry = registry or builtin_registry(settings.rulesets)
    metrics = Metrics()
    cache = build_cache(settings, metrics)
    answerer = Answerer(cache)
    rest = RestApi(registry, settings, metrics, answerer)
    openapi = orjson.dumps(build_openapi(registry, __version__))
    graphql = GraphQL(build_schema(registry, settings, answerer), graphql_ide="graphiql",
                      allow_queries_via_get=False)

    async def healthz(request: Request) -> Response:
        return json_response({"status": "ok"})

    async def readyz(request: Request) -> Response:
        # A degraded Redis is reported, never a reason to stop serving: answers are computed.
        status = await cache.status()
        return json_response({"status": "ready", "rulesets": registry.ids(),
                              "cache": status.as_dict()})

    async def metrics_route(request: Request) -> Response:
        return Response(metrics.render(), media_type=metrics.content_type)

    async def openapi_route(request: Request) -> Response:
        return Response(openapi, media_type="application/json")

    async def not_found(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return problem(exc.status_code, str(exc.detail))

    routes: list[Any] = [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics_route, methods=["GET"]),
        Route("/openapi.json", openapi_route, methods=["GET"]),
        *rest.routes(),
        Route("/graphql", graphql, methods=["GET", "POST"]),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await cache.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found},
                    lifespan=lifespan)
    app.state.settings = settings
    app.state.registry = registry
    app.state.metrics = metrics
    app.state.cache = cache
    return Guard(app, settings.max_body_bytes)

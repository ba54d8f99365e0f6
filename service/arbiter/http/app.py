"""``create_app(settings)``: the ASGI application over the service's lifecycle (REST
routes, GraphQL, health, metrics and the OpenAPI document) behind, from the outside in,
``Compress`` (answers in the coding the client asks for), ``Guard`` (request id,
security headers, request log, request metrics, last-resort 500 problem), optional CORS,
``Gate`` (optional API and issuer keys with their failure throttle, and rate limits: from
the headers alone), ``Admit`` (in-flight and connection
caps, body limit and deadline: what a request costs, for authenticated ones only) and
``JsonBodies`` (415 for a body that is not JSON, 422 for one that is not strict JSON)."""

from __future__ import annotations

import contextlib
import gc
import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp

from arbiter import __version__
from arbiter.cache import AnswerCache
from arbiter.engine.registry import Registry
from arbiter.graphql.schema import build_schema
from arbiter.graphql.served import Served
from arbiter.http.admission import FULL_FOR, Admission, Admit
from arbiter.http.compression import Compress, Precoded
from arbiter.http.graphql_endpoint import GraphQLEndpoint
from arbiter.http.guard import INTERNAL_ERROR, Guard
from arbiter.http.openapi import build_openapi
from arbiter.http.pages import page_routes
from arbiter.http.problems import problem
from arbiter.http.ratelimit import RateLimiter, RedisBuckets
from arbiter.http.rest import RestApi, json_response
from arbiter.http.security import ApiKeys, FailureThrottle, Gate
from arbiter.http.strict_json import JsonBodies
from arbiter.rulesets import builtin_registry
from arbiter.service.compute import SWITCH_INTERVAL
from arbiter.service.configured import build_cache, configured, start_warnings
from arbiter.service.json_bounds import JsonBounds
from arbiter.settings import Settings
from arbiter.telemetry.metrics import Metrics

log = logging.getLogger("arbiter")


def build_rate_limiter(settings: Settings, cache: AnswerCache,
                       metrics: Metrics) -> RateLimiter | None:
    """Per-key token buckets when ARBITER_RATE_LIMIT is set: in the cache's Redis when
    there is one (shared by every replica), in process otherwise."""
    if settings.rate_limit <= 0:
        return None
    buckets = None
    if cache.redis is not None:
        with contextlib.suppress(Exception):  # a client without scripting: in process only
            buckets = RedisBuckets(
                cache.redis.client, settings.rate_limit, settings.rate_burst,
                timeout=settings.redis_timeout_ms / 1000, prefix=settings.redis_key_prefix,
                breaker=metrics.breaker("ratelimit", settings.redis_cooldown_seconds))
    return RateLimiter(settings.rate_limit, settings.rate_burst, buckets)


def service_routes(registry: Registry, cache: AnswerCache, metrics: Metrics,
                   openapi: bytes, admission: Admission) -> list[Route]:
    """Health, readiness, metrics and the OpenAPI document."""
    async def healthz(request: Request) -> Response:
        # Liveness: the process and its event loop answer, however busy the worker is.
        return json_response({"status": "ok"})

    async def readyz(request: Request) -> Response:
        # Readiness: whether this worker takes requests. A degraded Redis is reported,
        # never a reason to stop serving (answers are computed); admission full for
        # longer than a moment is (every request would get 503 here).
        status = await cache.status()
        unready = admission.unready()
        if unready is not None:
            return json_response({"status": "full", "limit": unready,
                                  "detail": f"every request has been refused ({unready}) for "
                                  f"more than {FULL_FOR:g} s",
                                  "rulesets": registry.ids(), "cache": status.as_dict()}, 503)
        return json_response({"status": "ready", "rulesets": registry.ids(),
                              "cache": status.as_dict()})

    async def metrics_route(request: Request) -> Response:
        return Response(metrics.render(), media_type=metrics.content_type)

    document = Precoded(openapi, "application/json")

    async def openapi_route(request: Request) -> Response:
        # 783 KB as it is, 72 KB in Brotli: encoded once per coding, revalidated by ETag.
        return await document.response(request)

    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics_route, methods=["GET"]),
        Route("/openapi.json", openapi_route, methods=["GET"]),
    ]


async def not_found(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return problem(exc.status_code, str(exc.detail),
                   headers=dict(exc.headers) if exc.headers else None)


async def internal_error(request: Request, exc: Exception) -> Response:
    # Starlette re-raises after sending this; Guard logs the traceback.
    return problem(500, INTERNAL_ERROR)


def lifespan(cache: AnswerCache,
             metrics: Metrics) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def run(app: Starlette) -> AsyncIterator[None]:
        # Everything built at start-up (the rulesets' schemas, strawberry's, the routes)
        # lives as long as the process: moved out of the collector's reach, it is no longer
        # walked by every full collection, which put 5-15 ms stalls on about one request
        # in fifty (p99 of an in-process validate on the 331-hex board: 6.5 ms -> 2.4 ms).
        gc.collect()
        gc.freeze()
        # Judging runs in worker threads; each time the event loop waits for I/O it gives
        # up the GIL, and a thread judging a long request keeps it for up to the switch
        # interval (5 ms by default) before the loop may answer the next read or write.
        # 0.5 ms: beside one client sending the most expensive requests, the other
        # clients' p99 went from 5.7-7.5 times a quiet run's to 2.65 (1 ms: 2.5-3.0), their
        # throughput from 59-74 to 180 requests/s (make load; docs/hardening.md).
        sys.setswitchinterval(SWITCH_INTERVAL)
        yield
        await cache.close()
        metrics.close()

    return run



def create_app(settings: Settings | None = None, registry: Registry | None = None) -> ASGIApp:
    settings = settings or Settings.from_env()
    for warning in start_warnings(settings):
        log.warning(warning)
    registry = registry or builtin_registry(settings.rulesets)
    metrics = Metrics()
    cache = build_cache(settings, metrics)
    service = configured(settings, metrics, cache)
    bounds = JsonBounds(settings.max_json_depth, settings.max_json_values,
                        settings.max_json_string_bytes)
    rest = RestApi(registry, service, metrics, bounds)
    keys = ApiKeys.from_hex(settings.api_key_sha256)
    limiter = build_rate_limiter(settings, cache, metrics)
    openapi = orjson.dumps(build_openapi(registry, __version__, api_keys=bool(keys),
                                         rate_limited=limiter is not None,
                                         max_batch=settings.max_batch))
    graphql = GraphQLEndpoint(build_schema(registry, settings),
                              Served.from_settings(settings, service),
                              graphql_ide="graphiql", allow_queries_via_get=False)

    admission = Admission.from_settings(settings)
    routes: list[Any] = [
        # The routes most requests take first: Starlette tries them in order.
        *rest.routes(),
        *service_routes(registry, cache, metrics, openapi, admission),
        Route("/graphql", graphql, methods=["GET", "POST"]),
        *page_routes(registry),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found,
                                                       Exception: internal_error},
                    lifespan=lifespan(cache, metrics))
    app.state.settings = settings
    app.state.registry = registry
    app.state.metrics = metrics
    app.state.cache = cache
    outer: ASGIApp = Admit(JsonBodies(app, bounds), settings.max_body_bytes, admission)
    issuers = ApiKeys.from_hex(settings.issuer_key_sha256)
    if keys or issuers or limiter is not None:
        failures = FailureThrottle(settings.auth_failure_limit) \
            if (keys or issuers) and settings.auth_failure_limit else None
        outer = Gate(outer, keys, limiter, failures, metrics, issuers)
    origins = [o.strip() for o in settings.cors_origins.split(",") if o.strip()]
    if origins:
        outer = CORSMiddleware(outer, allow_origins=origins, allow_methods=["GET", "POST"],
                               # (content-encoding: the clients gzip large bodies)
                               allow_headers=["authorization", "content-type",
                                              "content-encoding", "x-api-key"],
                               expose_headers=["retry-after"], max_age=600)
    return Compress(Guard(outer, settings.log_bodies, metrics))

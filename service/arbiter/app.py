"""``create_app(settings)``: the ASGI application — REST routes, GraphQL, health, metrics
and the OpenAPI document — behind ``Guard`` (request id, admission: in-flight and
connection caps, body limit and deadline, security headers, request log, request metrics,
last-resort 500 problem), optional CORS, ``Gate`` (optional API keys with their failure
throttle, and rate limits) and ``JsonBodies`` (415 for a body that is not JSON, 422 for
one that is not strict JSON)."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import hmac
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
from arbiter.api.admission import Admission
from arbiter.api.answers import Answerer
from arbiter.api.boards import BoardStore
from arbiter.api.graphql import build_schema
from arbiter.api.graphql_http import GraphQLEndpoint
from arbiter.api.guard import INTERNAL_ERROR, Guard
from arbiter.api.limits import SWITCH_INTERVAL, Compute, Limits
from arbiter.api.metrics import Metrics
from arbiter.api.openapi import build_openapi
from arbiter.api.pages import page_routes
from arbiter.api.problems import problem
from arbiter.api.ratelimit import RateLimiter, RedisBuckets
from arbiter.api.rest import RestApi, json_response
from arbiter.api.security import ApiKeys, FailureThrottle, Gate
from arbiter.api.signing import Signer
from arbiter.api.strict_json import JsonBodies
from arbiter.cache import AnswerCache
from arbiter.cache.memory import LruCache
from arbiter.cache.redis_tier import RedisTier, connect
from arbiter.engine.registry import Registry
from arbiter.rulesets import builtin_registry
from arbiter.settings import Settings, state_key_pairs


def cache_secret(settings: Settings) -> bytes:
    """The key of every Redis value's MAC: ARBITER_CACHE_KEY, else one derived from the
    newest state key (so a deployment that signs states has it without a new secret),
    else none (a checksum only)."""
    own = settings.cache_key.get_secret_value()
    if own:
        return own.encode()
    pairs = state_key_pairs(settings.state_keys.get_secret_value())
    if pairs:
        return hmac.new(pairs[0][1].encode(), b"arbiter/cache", hashlib.sha256).digest()
    return b""


def limits_salt(settings: Settings) -> bytes:
    """The limits an answer was judged under, in every cache key: a replica with lower
    limits never serves an answer computed for a request it would refuse (a digest made
    once; checking the limits before a hit would mean parsing every cached request)."""
    limits = {name: getattr(settings, name) for name in sorted(Settings.model_fields)
              if name.startswith("max_") or name == "compute_budget_ms"}
    return hashlib.blake2b(orjson.dumps(limits), digest_size=16).digest()


def build_cache(settings: Settings, metrics: Metrics) -> AnswerCache:
    """The in-process tier always; Redis in front of computation when a URL is set."""
    redis = None
    if settings.redis_url:
        timeout = settings.redis_timeout_ms / 1000
        redis = RedisTier(connect(settings.redis_url, timeout), timeout=timeout,
                          ttl_seconds=settings.cache_ttl_seconds,
                          breaker=metrics.breaker("cache", settings.redis_cooldown_seconds),
                          prefix=settings.redis_key_prefix, secret=cache_secret(settings),
                          max_value_bytes=settings.cache_max_value_bytes)
    return AnswerCache(LruCache(settings.cache_size, settings.cache_max_bytes), redis,
                       redis_min_size=settings.redis_min_bytes, count=metrics.cache_event)


def build_boards(settings: Settings, cache: AnswerCache, metrics: Metrics) -> BoardStore:
    """Boards sent by reference: kept parsed in each worker, and in the cache's Redis (with
    their own lifetime) for every replica."""
    redis = None
    if cache.redis is not None:
        redis = RedisTier(cache.redis.client, timeout=settings.redis_timeout_ms / 1000,
                          ttl_seconds=settings.board_ttl_seconds,
                          breaker=metrics.breaker("boards", settings.redis_cooldown_seconds),
                          prefix=settings.redis_key_prefix, secret=cache.redis.secret,
                          max_value_bytes=settings.cache_max_value_bytes)
    return BoardStore(settings.board_cache_bytes, redis)


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
                   openapi: bytes) -> list[Route]:
    """Health, readiness, metrics and the OpenAPI document."""
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
        # throughput from 59-74 to 180 requests/s (make load; README, Hardening).
        sys.setswitchinterval(SWITCH_INTERVAL)
        yield
        await cache.close()
        metrics.close()

    return run



def create_app(settings: Settings | None = None, registry: Registry | None = None) -> ASGIApp:
    settings = settings or Settings.from_env()
    registry = registry or builtin_registry(settings.rulesets)
    metrics = Metrics()
    cache = build_cache(settings, metrics)
    compute = Compute.from_settings(settings)
    signer = Signer.from_settings(settings)
    answerer = Answerer(cache, compute, Limits.from_settings(settings),
                        signer.salt() + limits_salt(settings))
    boards = build_boards(settings, cache, metrics)
    rest = RestApi(registry, settings, metrics, answerer, compute, boards, signer)
    keys = ApiKeys.from_hex(settings.api_key_sha256)
    limiter = build_rate_limiter(settings, cache, metrics)
    openapi = orjson.dumps(build_openapi(registry, __version__, api_keys=bool(keys),
                                         rate_limited=limiter is not None,
                                         max_batch=settings.max_batch))
    graphql = GraphQLEndpoint(build_schema(registry, settings, answerer, compute, boards,
                                           metrics, signer),
                              graphql_ide="graphiql", allow_queries_via_get=False)

    routes: list[Any] = [
        # The routes most requests take first: Starlette tries them in order.
        *rest.routes(),
        *service_routes(registry, cache, metrics, openapi),
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
    outer: ASGIApp = JsonBodies(app)
    if keys or limiter is not None:
        failures = FailureThrottle(settings.auth_failure_limit) \
            if keys and settings.auth_failure_limit else None
        outer = Gate(outer, keys, limiter, failures, metrics)
    origins = [o.strip() for o in settings.cors_origins.split(",") if o.strip()]
    if origins:
        outer = CORSMiddleware(outer, allow_origins=origins, allow_methods=["GET", "POST"],
                               allow_headers=["authorization", "content-type", "x-api-key"],
                               expose_headers=["retry-after"], max_age=600)
    return Guard(outer, settings.max_body_bytes, settings.log_bodies, metrics,
                 Admission.from_settings(settings))

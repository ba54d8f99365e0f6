"""The service as the settings configure it: its limits, compute budget, board store,
answer cache (memory, and Redis when ``ARBITER_REDIS_URL`` is set), state keys, and the
metrics they report to (none for the table's commands, which answer one request and
exit). ``arbiter serve`` and the table's commands build it alike."""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING

import orjson

from arbiter.cache import AnswerCache
from arbiter.cache.breaker import CircuitBreaker
from arbiter.cache.memory import LruCache
from arbiter.cache.redis_tier import RedisTier, connect
from arbiter.service.answer_cache import Answers
from arbiter.service.boards import BoardStore
from arbiter.service.compute import Compute
from arbiter.service.hidden import Hiding
from arbiter.service.issuing import Issuing
from arbiter.service.lifecycle import Service
from arbiter.service.limits import Limits
from arbiter.service.sealing import Sealer
from arbiter.service.signing import Signer
from arbiter.settings import Settings, state_key_pairs

if TYPE_CHECKING:  # (the table's commands run without metrics, and never import them)
    from arbiter.telemetry.metrics import Metrics


def configured(settings: Settings, metrics: Metrics | None = None,
               cache: AnswerCache | None = None) -> Service:
    """The service for ``settings``; ``cache``: the answer cache when the caller built it
    already (its readiness reports it)."""
    cache = cache if cache is not None else build_cache(settings, metrics)
    compute = Compute.from_settings(settings)
    limits = Limits.from_settings(settings)
    signer = Signer.from_settings(settings)
    answers = Answers(cache, compute, limits, signer.salt() + limits_salt(settings))
    return Service(limits, compute, build_boards(settings, cache, metrics), signer, answers,
                   metrics.violations_found if metrics is not None else None,
                   Issuing.from_settings(settings), Hiding(Sealer.from_settings(settings)))


def start_warnings(settings: Settings) -> list[str]:
    """What an operator should hear when the service starts with these settings: the
    choices that leave it open to someone it does not trust."""
    warnings = []
    if settings.redis_url and not cache_secret(settings):
        warnings.append(
            "ARBITER_REDIS_URL is set without ARBITER_CACHE_KEY (or ARBITER_STATE_KEYS): the "
            "values this service keeps in Redis are only checksummed, so anyone who can "
            "write to that Redis can plant answers it serves; set ARBITER_CACHE_KEY to a "
            "secret shared by the replicas (openssl rand -hex 32)")
    if Issuing.from_settings(settings).closed:
        warnings.append(
            "ARBITER_STATE_KEYS is set without ARBITER_ISSUER_KEYS: new-game signs first "
            "states, so it is refused (403) to every caller over HTTP until the game "
            "server's key is set in ARBITER_ISSUER_KEYS")
    return warnings


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


def build_cache(settings: Settings, metrics: Metrics | None = None) -> AnswerCache:
    """The in-process tier always; Redis in front of computation when a URL is set."""
    redis = None
    if settings.redis_url:
        timeout = settings.redis_timeout_ms / 1000
        redis = RedisTier(connect(settings.redis_url, timeout), timeout=timeout,
                          ttl_seconds=settings.cache_ttl_seconds,
                          breaker=_breaker(metrics, "cache", settings),
                          prefix=settings.redis_key_prefix, secret=cache_secret(settings),
                          max_value_bytes=settings.cache_max_value_bytes)
    return AnswerCache(LruCache(settings.cache_size, settings.cache_max_bytes), redis,
                       redis_min_size=settings.redis_min_bytes,
                       count=metrics.cache_event if metrics is not None else None)


def build_boards(settings: Settings, cache: AnswerCache, metrics: Metrics | None = None
                 ) -> BoardStore:
    """Boards sent by reference: kept parsed in each worker, and in the cache's Redis (with
    their own lifetime) for every replica."""
    redis = None
    if cache.redis is not None:
        redis = RedisTier(cache.redis.client, timeout=settings.redis_timeout_ms / 1000,
                          ttl_seconds=settings.board_ttl_seconds,
                          breaker=_breaker(metrics, "boards", settings),
                          prefix=settings.redis_key_prefix, secret=cache.redis.secret,
                          max_value_bytes=settings.cache_max_value_bytes)
    return BoardStore(settings.board_cache_bytes, redis)


def _breaker(metrics: Metrics | None, name: str, settings: Settings) -> CircuitBreaker:
    """A Redis circuit breaker, reported in the metrics as ``name`` when there are any."""
    cooldown = settings.redis_cooldown_seconds
    if metrics is None:
        return CircuitBreaker(cooldown_seconds=cooldown)
    return metrics.breaker(name, cooldown)

"""The shared tier: Redis through redis-py's asyncio client (hiredis parser when
installed), with short timeouts, a circuit breaker and self-checking values.

A stored value is ``MAGIC + key digest + checksum + payload``: a value written by another
version, for another key, or damaged in transit fails the check and is recomputed, never
served. URL forms: ``redis://``, ``rediss://``, ``unix://`` (one server),
``redis+cluster://host:port`` (Redis Cluster) and
``redis+sentinel://host:port[,host:port...]/service[/db]`` (Sentinel).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from typing import Any
from urllib.parse import urlsplit

from arbiter.cache.breaker import CircuitBreaker

MAGIC = b"ARB1"
_DIGEST = 8


def frame(key: str, payload: bytes) -> bytes:
    return (MAGIC + hashlib.blake2b(key.encode(), digest_size=_DIGEST).digest()
            + hashlib.blake2b(payload, digest_size=_DIGEST).digest() + payload)


def unframe(key: str, value: bytes) -> bytes | None:
    """The payload, or None when the value is not one this key may hold."""
    head = len(MAGIC) + 2 * _DIGEST
    if len(value) < head or not value.startswith(MAGIC):
        return None
    if value[4:4 + _DIGEST] != hashlib.blake2b(key.encode(), digest_size=_DIGEST).digest():
        return None
    payload = value[head:]
    if value[4 + _DIGEST:head] != hashlib.blake2b(payload, digest_size=_DIGEST).digest():
        return None
    return payload


def connect(url: str, timeout: float) -> Any:
    """A redis-py asyncio client for any of the documented URL forms."""
    opts: dict[str, Any] = {"socket_connect_timeout": timeout, "socket_timeout": timeout}
    parts = urlsplit(url)
    if parts.scheme == "redis+cluster":
        from redis.asyncio.cluster import RedisCluster

        return RedisCluster.from_url(url.replace("redis+cluster://", "redis://", 1), **opts)
    if parts.scheme == "redis+sentinel":
        from redis.asyncio.sentinel import Sentinel

        hosts = [(h.rsplit(":", 1)[0], int(h.rsplit(":", 1)[1]) if ":" in h else 26379)
                 for h in parts.netloc.rsplit("@", 1)[-1].split(",")]
        path = [p for p in parts.path.split("/") if p]
        service = path[0] if path else "mymaster"
        db = int(path[1]) if len(path) > 1 else 0
        # The password in the URL is the master's; the sentinels are asked without one.
        password = parts.netloc.rsplit("@", 1)[0].split(":", 1)[-1] if "@" in parts.netloc \
            else None
        sentinel = Sentinel(  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
            hosts, sentinel_kwargs=dict(opts), **opts)
        return sentinel.master_for(service, db=db, password=password or None, **opts)
    from redis.asyncio import Redis

    return Redis.from_url(url, **opts)


class RedisTier:
    def __init__(self, client: Any, *, timeout: float, ttl_seconds: int,
                 breaker: CircuitBreaker | None = None, prefix: str = "") -> None:
        self.client = client
        self.prefix = prefix
        self.timeout = timeout
        self.ttl_seconds = ttl_seconds
        self.breaker = breaker or CircuitBreaker()
        self.last_error: str | None = None

    async def get(self, key: str) -> tuple[str, bytes | None]:
        """("hit", payload) | ("miss", None) | ("error", None) | ("corrupt", None) |
        ("skipped", None) when the breaker is open."""
        if not self.breaker.allow():
            return "skipped", None
        try:
            value = await asyncio.wait_for(self.client.get(self.prefix + key), self.timeout)
        except Exception as exc:  # any failure of the shared tier means: compute instead
            self._failed(exc)
            return "error", None
        self.breaker.success()
        if value is None:
            return "miss", None
        payload = unframe(key, bytes(value))
        if payload is None:
            return "corrupt", None
        return "hit", payload

    async def set(self, key: str, payload: bytes) -> bool:
        if not self.breaker.allow():
            return False
        try:
            await asyncio.wait_for(
                self.client.set(self.prefix + key, frame(key, payload), ex=self.ttl_seconds),
                self.timeout)
        except Exception as exc:
            self._failed(exc)
            return False
        self.breaker.success()
        return True

    async def ping(self) -> bool:
        try:
            return bool(await asyncio.wait_for(self.client.ping(), self.timeout))
        except Exception as exc:
            self.last_error = type(exc).__name__
            return False

    def _failed(self, exc: Exception) -> None:
        self.last_error = f"{type(exc).__name__}: {exc}"[:200]
        self.breaker.failure()

    async def close(self) -> None:
        # Closing a broken connection must not fail shutdown.
        with contextlib.suppress(Exception):
            await self.client.aclose()

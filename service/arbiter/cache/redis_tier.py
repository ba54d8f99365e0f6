"""The shared tier: Redis through redis-py's asyncio client (hiredis parser when
installed), with short timeouts, a circuit breaker and self-checking values.

A stored value is ``MAGIC + MAC + payload``, the MAC an HMAC-SHA-256 (first 16 bytes) of
the key and the payload under the deployment's cache secret (``ARBITER_CACHE_KEY``, or
one derived from ``ARBITER_STATE_KEYS``): a value written by another version, for another
key, damaged in transit or planted by anyone without the secret fails the check, is
counted (``corrupt``) and recomputed, never served. Without a secret the MAC is a checksum
only. Values are bounded (``ARBITER_CACHE_MAX_VALUE_BYTES``): a larger one is not written,
and a read asks Redis for at most that many bytes (GETRANGE), so a planted giant costs a
bounded read and is counted (``oversize``). URL forms: ``redis://``, ``rediss://``,
``unix://`` (one server), ``redis+cluster://host:port`` (Redis Cluster) and
``redis+sentinel://host:port[,host:port...]/service[/db]`` (Sentinel).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
from typing import Any
from urllib.parse import urlsplit

from arbiter.cache.breaker import CircuitBreaker

MAGIC = b"ARB2"
_MAC = 16
HEAD = len(MAGIC) + _MAC
# The MAC's key when the deployment has no secret: a checksum against damage only.
UNKEYED = b"arbiter-cache-unkeyed"
DEFAULT_MAX_VALUE = 8 << 20


def _mac(secret: bytes, key: str, payload: bytes) -> bytes:
    mac = hmac.new(secret or UNKEYED, key.encode() + b"\0", hashlib.sha256)
    mac.update(payload)
    return mac.digest()[:_MAC]


def frame(key: str, payload: bytes, secret: bytes = b"") -> bytes:
    return MAGIC + _mac(secret, key, payload) + payload


def unframe(key: str, value: bytes, secret: bytes = b"") -> bytes | None:
    """The payload, or None when the value is not one this key may hold."""
    if len(value) < HEAD or not value.startswith(MAGIC):
        return None
    payload = value[HEAD:]
    if not hmac.compare_digest(value[len(MAGIC):HEAD], _mac(secret, key, payload)):
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
                 breaker: CircuitBreaker | None = None, prefix: str = "", secret: bytes = b"",
                 max_value_bytes: int = DEFAULT_MAX_VALUE) -> None:
        self.client = client
        self.prefix = prefix
        self.secret = secret
        self.max_value_bytes = max_value_bytes
        self.timeout = timeout
        self.ttl_seconds = ttl_seconds
        self.breaker = breaker or CircuitBreaker()
        self.last_error: str | None = None

    async def get(self, key: str) -> tuple[str, bytes | None]:
        """("hit", payload) | ("miss", None) | ("error", None) | ("corrupt", None) |
        ("oversize", None) | ("skipped", None) when the breaker is open."""
        if not self.breaker.allow():
            return "skipped", None
        most = HEAD + self.max_value_bytes
        try:
            # At most one byte more than a frame may hold: a larger value is refused unread.
            value = await asyncio.wait_for(self.client.getrange(self.prefix + key, 0, most),
                                           self.timeout)
        except Exception as exc:  # any failure of the shared tier means: compute instead
            self._failed(exc)
            return "error", None
        self.breaker.success()
        if not value:  # GETRANGE of a missing key is empty; a frame never is
            return "miss", None
        if len(value) > most:
            return "oversize", None
        payload = unframe(key, bytes(value), self.secret)
        if payload is None:
            return "corrupt", None
        return "hit", payload

    async def set(self, key: str, payload: bytes) -> bool:
        if len(payload) > self.max_value_bytes or not self.breaker.allow():
            return False
        try:
            await asyncio.wait_for(
                self.client.set(self.prefix + key, frame(key, payload, self.secret),
                                ex=self.ttl_seconds),
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

"""``AnswerCache``: memory first, then Redis, then compute; every answer computed is kept
in memory and, when its board is large enough for Redis to pay, stored in Redis in the
background. Metrics count hits, misses and errors per tier."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from arbiter.cache.memory import LruCache
from arbiter.cache.redis_tier import RedisTier

Counter = Callable[[str, str], None]


@dataclass(frozen=True)
class CacheStatus:
    memory_entries: int
    memory_bytes: int
    redis: str          # "not configured" | "ok" | "degraded"
    breaker: str | None
    last_error: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"memory": {"entries": self.memory_entries, "bytes": self.memory_bytes},
                "redis": self.redis, "breaker": self.breaker, "last_error": self.last_error}


class AnswerCache:
    def __init__(self, memory: LruCache, redis: RedisTier | None = None, *,
                 redis_min_size: int = 0, count: Counter | None = None) -> None:
        self.memory = memory
        self.redis = redis
        self.redis_min_size = redis_min_size
        self._count = count or (lambda tier, result: None)
        self._pending: set[asyncio.Task[bool]] = set()

    async def get_or_compute(self, key: str, size: int,
                             compute: Callable[[], bytes | Awaitable[bytes]]) -> bytes:
        """The answer for ``key``; ``size`` (bytes of the request) decides whether Redis is
        worth a round trip; ``compute`` makes the answer when no tier has it (and may raise:
        nothing is stored then); it may return an awaitable (the transport runs the work
        in a thread under the request's compute budget)."""
        found = self.remembered(key)
        if found is None and self.uses_redis(size):
            found = await self.fetched(key)
        if found is not None:
            return found
        made = compute()
        answer = await made if inspect.isawaitable(made) else made
        self.memory.put(key, answer)
        if self.uses_redis(size):
            self.store(key, answer)
        return answer

    def remembered(self, key: str) -> bytes | None:
        """The answer for ``key`` from memory (from any thread)."""
        found = self.memory.get(key)
        self._count("memory", "hit" if found is not None else "miss")
        return found

    async def fetched(self, key: str) -> bytes | None:
        """The answer for ``key`` from Redis, kept in memory (on the loop that owns the
        Redis client)."""
        assert self.redis is not None
        result, payload = await self.redis.get(key)
        # A value refused (a bad MAC, too large) is a miss, counted as what it was.
        self._count("redis", result if result in ("hit", "miss", "corrupt", "oversize")
                    else "error")
        if payload is not None:
            self.memory.put(key, payload)
        return payload

    def store(self, key: str, answer: bytes) -> None:
        """Write an answer to Redis in the background (on the loop that owns the client)."""
        assert self.redis is not None
        task = asyncio.get_running_loop().create_task(self.redis.set(key, answer))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def uses_redis(self, size: int) -> bool:
        """Whether an answer to a request of ``size`` bytes is worth a Redis round trip."""
        return self.redis is not None and size >= self.redis_min_size

    async def flush(self) -> None:
        """Wait for background writes (tests and shutdown)."""
        if self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def status(self) -> CacheStatus:
        if self.redis is None:
            return CacheStatus(len(self.memory), self.memory.bytes, "not configured", None,
                               None)
        breaker = self.redis.breaker.state
        healthy = breaker == "closed" and await self.redis.ping()
        return CacheStatus(len(self.memory), self.memory.bytes,
                           "ok" if healthy else "degraded", breaker, self.redis.last_error)

    async def close(self) -> None:
        await self.flush()
        if self.redis is not None:
            await self.redis.close()

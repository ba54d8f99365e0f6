"""Token buckets per identity (an API key's digest prefix, or a client address): in Redis
through one Lua script, so every replica draws from the same bucket, and in process when
no Redis is configured or while it fails (behind a circuit breaker, like the cache).

A bucket holds at most ``burst`` tokens and refills at ``rate`` tokens per second; a
request takes one, or is refused with the seconds until one is back.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from arbiter.cache.breaker import CircuitBreaker

# KEYS[1]: the bucket. ARGV: rate (tokens/s), burst. Redis' own clock, so replicas agree.
# Returns {allowed (0/1), milliseconds until a token is back}.
TOKEN_BUCKET_LUA = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(bucket[1])
local ts = tonumber(bucket[2])
if tokens == nil or ts == nil then
  tokens = burst
  ts = now
end
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate / 1000)
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return {allowed, wait}
"""


class MemoryBuckets:
    """The in-process buckets, bounded in number (least recently used dropped first)."""

    def __init__(self, rate: float, burst: int, max_buckets: int = 100_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.max_buckets = max_buckets
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, identity: str) -> tuple[bool, float]:
        """(allowed, seconds until a token is back)."""
        now = self._clock()
        tokens, ts = self._buckets.pop(identity, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + max(0.0, now - ts) * self.rate)
        allowed = tokens >= 1
        if allowed:
            tokens -= 1
        self._buckets[identity] = (tokens, now)
        while len(self._buckets) > self.max_buckets:
            self._buckets.popitem(last=False)
        return allowed, 0.0 if allowed else (1 - tokens) / self.rate

    def wait(self, identity: str) -> float:
        """Seconds until ``identity`` has a token (0: it has one now); takes nothing."""
        found = self._buckets.get(identity)
        if found is None:
            return 0.0
        tokens, ts = found
        tokens = min(float(self.burst), tokens + max(0.0, self._clock() - ts) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate


class RedisBuckets:
    def __init__(self, client: Any, rate: float, burst: int, *, timeout: float,
                 prefix: str = "", breaker: CircuitBreaker | None = None) -> None:
        self.client = client
        self.rate = rate
        self.burst = burst
        self.timeout = timeout
        self.prefix = prefix
        self.breaker = breaker or CircuitBreaker()
        self._script = client.register_script(TOKEN_BUCKET_LUA)

    async def take(self, identity: str) -> tuple[bool, float] | None:
        """(allowed, seconds until a token is back), or None when Redis cannot say."""
        if not self.breaker.allow():
            return None
        try:
            allowed, wait_ms = await asyncio.wait_for(
                self._script(keys=[f"{self.prefix}arbiter:rate:{identity}"],
                             args=[repr(self.rate), self.burst]), self.timeout)
        except Exception:  # any failure of Redis means: count in process instead
            self.breaker.failure()
            return None
        self.breaker.success()
        return bool(int(allowed)), int(wait_ms) / 1000


class RateLimiter:
    def __init__(self, rate: float, burst: int, redis: RedisBuckets | None = None) -> None:
        if rate <= 0:
            raise ValueError("the rate must be positive")
        self.rate = rate
        self.burst = max(1, burst)
        self.memory = MemoryBuckets(rate, self.burst)
        self.redis = redis

    async def take(self, identity: str) -> tuple[bool, int]:
        """(allowed, whole seconds for Retry-After)."""
        answer = await self.redis.take(identity) if self.redis is not None else None
        if answer is None:
            answer = self.memory.take(identity)
        allowed, wait = answer
        return allowed, max(1, math.ceil(wait))

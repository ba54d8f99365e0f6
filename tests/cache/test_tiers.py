"""The cache's parts without Redis: LRU bounds, the circuit breaker, value framing, and the
tiered lookup's order (memory, Redis, compute)."""

from __future__ import annotations

import asyncio

from arbiter.cache.breaker import CircuitBreaker
from arbiter.cache.memory import LruCache
from arbiter.cache.redis_tier import RedisTier, frame, unframe
from arbiter.cache.tiered import AnswerCache


def test_lru_is_bounded_in_entries_and_bytes() -> None:
    lru = LruCache(max_entries=3, max_bytes=100)
    for i in range(5):
        lru.put(f"k{i}", b"x" * 10)
    assert len(lru) == 3 and lru.get("k0") is None and lru.get("k4") == b"x" * 10
    lru.get("k2")
    lru.put("k5", b"y" * 10)
    assert lru.get("k3") is None and lru.get("k2") is not None  # least recently used goes
    lru.put("big", b"z" * 60)  # over a quarter of the bytes: not kept
    assert lru.get("big") is None
    for i in range(10):
        lru.put(f"m{i}", b"w" * 24)
    assert lru.bytes <= 100


def test_breaker_opens_after_failures_and_retries_after_cooldown() -> None:
    now = [0.0]
    breaker = CircuitBreaker(failures_to_open=2, cooldown_seconds=5, clock=lambda: now[0])
    assert breaker.allow()
    breaker.failure()
    assert breaker.state == "closed"
    breaker.failure()
    assert breaker.state == "open" and not breaker.allow()
    now[0] = 5.0
    assert breaker.state == "half-open"
    assert breaker.allow()       # one trial
    assert not breaker.allow()   # the others wait
    breaker.success()
    assert breaker.state == "closed"


def test_frames_bind_value_to_key_and_detect_damage() -> None:
    framed = frame("k", b'{"a":1}')
    assert unframe("k", framed) == b'{"a":1}'
    assert unframe("other", framed) is None                    # a value for another key
    assert unframe("k", framed[:-1] + b"2") is None            # damaged payload
    assert unframe("k", b'{"a":1}') is None                    # foreign, unframed value
    assert unframe("k", b"") is None


class FakeRedis:
    def __init__(self, fail: bool = False) -> None:
        self.store: dict[str, bytes] = {}
        self.fail = fail
        self.calls = 0

    async def get(self, key: str) -> bytes | None:
        self.calls += 1
        if self.fail:
            raise ConnectionError("down")
        return self.store.get(key)

    async def getrange(self, key: str, start: int, end: int) -> bytes:
        """Redis' GETRANGE: bytes start..end inclusive; empty for a missing key."""
        return (await self.get(key) or b"")[start:end + 1]

    async def set(self, key: str, value: bytes, ex: int) -> None:
        self.calls += 1
        if self.fail:
            raise ConnectionError("down")
        self.store[key] = value

    async def ping(self) -> bool:
        if self.fail:
            raise ConnectionError("down")
        return True

    async def aclose(self) -> None:
        pass


def test_lookup_order_and_background_store() -> None:
    async def scenario() -> None:
        fake = FakeRedis()
        counts: list[tuple[str, str]] = []
        cache = AnswerCache(LruCache(10, 10_000), RedisTier(fake, timeout=0.05, ttl_seconds=60),
                            count=lambda tier, result: counts.append((tier, result)))
        computed = []
        answer = await cache.get_or_compute("k", 1000, lambda: computed.append(1) or b"A")
        await cache.flush()
        assert answer == b"A" and computed == [1] and unframe("k", fake.store["k"]) == b"A"
        assert await cache.get_or_compute("k", 1000, lambda: b"B") == b"A"
        cache.memory.clear()
        assert await cache.get_or_compute("k", 1000, lambda: b"B") == b"A"  # from Redis
        assert counts == [("memory", "miss"), ("redis", "miss"), ("memory", "hit"),
                          ("memory", "miss"), ("redis", "hit")]
    asyncio.run(scenario())


def test_small_boards_skip_redis() -> None:
    async def scenario() -> None:
        fake = FakeRedis()
        cache = AnswerCache(LruCache(10, 10_000), RedisTier(fake, timeout=0.05, ttl_seconds=60),
                            redis_min_size=300)
        assert await cache.get_or_compute("k", 19, lambda: b"A") == b"A"
        await cache.flush()
        assert fake.calls == 0
    asyncio.run(scenario())


def test_a_dead_redis_costs_a_computation_then_nothing() -> None:
    async def scenario() -> None:
        fake = FakeRedis(fail=True)
        tier = RedisTier(fake, timeout=0.05, ttl_seconds=60,
                         breaker=CircuitBreaker(failures_to_open=2, cooldown_seconds=60))
        cache = AnswerCache(LruCache(0, 0), tier)
        for i in range(5):
            assert await cache.get_or_compute(f"k{i}", 1000, lambda: b"A") == b"A"
        await cache.flush()
        assert fake.calls <= 3  # the failures that open the breaker (a read and a write)
        opened = fake.calls
        for i in range(5):
            assert await cache.get_or_compute(f"j{i}", 1000, lambda: b"A") == b"A"
        await cache.flush()
        assert fake.calls == opened  # then the breaker is open: no more calls
        status = await cache.status()
        assert status.redis == "degraded" and status.breaker == "open"
        assert "ConnectionError" in (status.last_error or "")
    asyncio.run(scenario())


def test_a_slow_redis_times_out() -> None:
    class Slow(FakeRedis):
        async def get(self, key: str) -> bytes | None:
            await asyncio.sleep(1)
            return None

    async def scenario() -> None:
        cache = AnswerCache(LruCache(10, 1000), RedisTier(Slow(), timeout=0.02, ttl_seconds=60))
        loop = asyncio.get_running_loop()
        started = loop.time()
        assert await cache.get_or_compute("k", 1000, lambda: b"A") == b"A"
        assert loop.time() - started < 0.5
    asyncio.run(scenario())


def test_url_forms_make_the_right_clients() -> None:
    from redis.asyncio import Redis
    from redis.asyncio.cluster import RedisCluster

    from arbiter.cache.redis_tier import connect

    assert isinstance(connect("redis://127.0.0.1:6379/0", 0.05), Redis)
    assert isinstance(connect("unix:///tmp/redis.sock", 0.05), Redis)
    master = connect("redis+sentinel://:secret@s1:26379,s2:26380/cache/2", 0.05)
    pool = master.connection_pool
    assert pool.service_name == "cache"
    assert [s.connection_pool.connection_kwargs["port"] for s in pool.sentinel_manager.sentinels] \
        == [26379, 26380]
    assert pool.connection_kwargs["db"] == 2 and pool.connection_kwargs["password"] == "secret"
    cluster = connect("redis+cluster://127.0.0.1:7000", 0.05)
    assert isinstance(cluster, RedisCluster)

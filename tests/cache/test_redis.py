"""The shared tier against a real Redis: answers round-trip exactly, a corrupted or
foreign value is detected and recomputed, and a private Redis killed in the middle of a
run of requests costs nothing but recomputation."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from typing import Any

import httpx
import orjson
import pytest
import redis
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.bench.boards_hex_maneuver import reachable_body
from tests.cache.conftest import REDIS_URL, require_redis
from tests.cache.test_keys import REACHABLE, RULESET, fresh
from tests.rulesets.test_hex_maneuver import boards

from arbiter.cache.keys import cache_key
from arbiter.cache.memory import LruCache
from arbiter.cache.redis_tier import RedisTier, connect, unframe
from arbiter.cache.tiered import AnswerCache
from arbiter.service.answer_cache import digest
from arbiter.service.configured import configured, limits_salt
from arbiter.settings import Settings
from support import free_port, wait_healthy

pytestmark = pytest.mark.redis


def redis_cache(prefix: str, counts: list[tuple[str, str]] | None = None) -> AnswerCache:
    tier = RedisTier(connect(REDIS_URL, 0.5), timeout=0.5, ttl_seconds=60, prefix=prefix)
    return AnswerCache(LruCache(0, 0), tier,
                       count=(lambda t, r: counts.append((t, r))) if counts is not None else None)


@settings(max_examples=15, deadline=None)
@given(boards(), st.uuids())
def test_redis_tier_answers_equal_fresh_computation(state: dict[str, Any], run: Any) -> None:
    require_redis()
    prefix = f"arbiter-test-{run.hex[:12]}:"
    body = {"state": state, "army": "a"}
    raw = orjson.dumps(body)

    async def scenario() -> tuple[bytes, bytes]:
        writer = redis_cache(prefix)
        first = await configured(Settings(), cache=writer).query(RULESET, REACHABLE, raw)
        await writer.close()
        reader_counts: list[tuple[str, str]] = []
        reader = redis_cache(prefix, reader_counts)  # a second replica: empty memory
        second = await configured(Settings(), cache=reader).query(RULESET, REACHABLE, raw)
        await reader.close()
        assert ("redis", "hit") in reader_counts
        return first, second

    try:
        first, second = asyncio.run(scenario())
        assert first == second == fresh(body)
    finally:
        client = redis.Redis.from_url(REDIS_URL)
        for key in client.scan_iter(match=prefix + "*"):
            client.delete(key)


def test_corrupted_and_foreign_values_are_recomputed(redis_prefix: str) -> None:
    body = reachable_body(10)
    raw = orjson.dumps(body)
    # The key the service makes: the limits it answers under, then the body's digest.
    key = cache_key(RULESET.id, RULESET.version, "reachable",
                    limits_salt(Settings()) + b"rest\0" + digest(raw))
    client = redis.Redis.from_url(REDIS_URL)
    async def scenario(counts: list[tuple[str, str]]) -> bytes:
        cache = redis_cache(redis_prefix, counts)
        answer = await configured(Settings(), cache=cache).query(RULESET, REACHABLE, raw)
        await cache.close()
        return answer

    for garbage in (b'{"destinations": []}', b"ARB1" + b"\0" * 40, b"\xff" * 3):
        client.set(redis_prefix + key, garbage)
        counts: list[tuple[str, str]] = []
        assert asyncio.run(scenario(counts)) == fresh(body)
        assert ("redis", "corrupt") in counts  # a refused value: a miss, counted
        stored = client.get(redis_prefix + key)
        assert stored is not None and unframe(key, stored) == fresh(body)  # overwritten


@pytest.mark.server
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server binary")
def test_killing_redis_mid_run_every_request_still_answers_correctly() -> None:
    redis_port, http_port = free_port(), free_port()
    store = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {**os.environ, "ARBITER_REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
           "ARBITER_REDIS_MIN_BYTES": "0", "ARBITER_CACHE_SIZE": "0",
           "ARBITER_LOG_LEVEL": "warning", "ARBITER_REDIS_COOLDOWN_SECONDS": "1"}
    server = subprocess.Popen([sys.executable, "-m", "arbiter", "serve", "--port",
                               str(http_port)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{http_port}"
    try:
        wait_healthy(base, server)
        bodies = []
        for army in ("a0", "a1", "a2", "a3"):
            body = reachable_body(6)
            body["army"] = army
            bodies.append((body, fresh(body)))
        with httpx.Client(base_url=base, timeout=10) as http:
            for i in range(60):
                if i == 30:
                    store.kill()
                    store.wait()
                body, expected = bodies[i % len(bodies)]
                r = http.post("/v1/rulesets/hex_maneuver/reachable", json=body)
                assert r.status_code == 200, (i, r.text)
                assert r.content == expected, i
            ready = http.get("/readyz").json()
            assert ready["status"] == "ready" and ready["cache"]["redis"] == "degraded"
            metrics = http.get("/metrics").text
            assert 'arbiter_cache_total{result="hit",tier="redis"}' in metrics
            assert 'arbiter_cache_total{result="error",tier="redis"}' in metrics
    finally:
        server.terminate()
        server.wait(timeout=10)
        if store.poll() is None:
            store.kill()

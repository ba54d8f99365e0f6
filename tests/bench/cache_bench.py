"""The cache: ``reachable`` computed, from the in-process tier and from Redis, on boards of
growing size, side by side; and the board size from which a Redis hit beats computing."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import orjson
from tests.bench import boards_hex_maneuver as hexes

from arbiter.cache.memory import LruCache
from arbiter.cache.redis_tier import RedisTier, connect
from arbiter.cache.tiered import AnswerCache
from arbiter.rulesets import load
from arbiter.service.configured import configured
from arbiter.settings import Settings

REDIS_URL = "redis://127.0.0.1:6379/0"
# The largest board here (30,301 hexes) is past the service's default ARBITER_MAX_CELLS:
# the bench measures the cache, not the limit, so its services take the board whole and
# give the search all the time it needs.
UNBOUNDED: dict[str, Any] = {"max_cells": 100_000, "compute_budget_ms": 0}


def _median(samples: list[float]) -> float:
    samples.sort()
    return samples[len(samples) // 2]


def run(quick: bool) -> dict[str, Any]:
    ruleset = load("hex_maneuver")
    query = ruleset.queries["reachable"]
    # Small boards first: where a Redis round trip stops paying is the threshold
    # (ARBITER_REDIS_MIN_BYTES).
    radii = (2, 10) if quick else (1, 2, 3, 5, 7, 10, 20, 50, 100)
    rows = []

    async def measure() -> None:
        redis_tier = RedisTier(connect(REDIS_URL, 0.2), timeout=0.2, ttl_seconds=120,
                               prefix="arbiter-bench:")
        redis_ok = await redis_tier.ping()
        for radius in radii:
            body = orjson.dumps(hexes.reachable_body(radius))
            runs = 5 if radius >= 50 else (30 if quick else 200)
            computed = []
            # Parse, answer, serialise: what a miss costs.
            uncached = configured(Settings(cache_size=0, **UNBOUNDED))
            for _ in range(runs):
                t = time.perf_counter()
                await uncached.query(ruleset, query, body)
                computed.append(time.perf_counter() - t)
            memory_cache = configured(Settings(**UNBOUNDED),
                                      cache=AnswerCache(LruCache(100, 1 << 28)))
            await memory_cache.query(ruleset, query, body)
            hits = []
            for _ in range(runs):
                t = time.perf_counter()
                await memory_cache.query(ruleset, query, body)
                hits.append(time.perf_counter() - t)
            row: dict[str, Any] = {"hexes": len(hexes.board(radius)["hexes"]),
                                   "request_bytes": len(body),
                                   "computed_us": round(_median(computed) * 1e6, 1),
                                   "memory_hit_us": round(_median(hits) * 1e6, 1)}
            if redis_ok:
                shared = AnswerCache(LruCache(0, 0), redis_tier)
                answerer = configured(Settings(**UNBOUNDED), cache=shared)
                await answerer.query(ruleset, query, body)
                await shared.flush()
                redis_hits = []
                for _ in range(runs):
                    t = time.perf_counter()
                    await answerer.query(ruleset, query, body)
                    redis_hits.append(time.perf_counter() - t)
                row["redis_hit_us"] = round(_median(redis_hits) * 1e6, 1)
                row["redis_vs_computed"] = round(row["redis_hit_us"] / row["computed_us"], 2)
            rows.append(row)
        if redis_ok:
            async for key in redis_tier.client.scan_iter(match="arbiter-bench:*"):
                await redis_tier.client.delete(key)
        await redis_tier.close()

    asyncio.run(measure())
    faster = [r["request_bytes"] for r in rows
              if r.get("redis_hit_us", 1e18) < r["computed_us"]]
    slower = [r["request_bytes"] for r in rows
              if r.get("redis_hit_us", -1) >= r["computed_us"]]
    return {"rows": rows, "redis_pays_from_bytes": min(faster) if faster else None,
            "redis_slower_up_to_bytes": max(slower) if slower else None,
            "configured_redis_min_bytes": Settings.from_env({}).redis_min_bytes}

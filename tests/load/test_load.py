"""Load test on loopback, bounded in time and requests: N concurrent keep-alive clients send
a mix of hex_maneuver validate and reachable, region_conquest conquest-cost and GraphQL
(validate and reachable in one query) to a real server for ARBITER_LOAD_SECONDS (30 s),
with API keys on and the pathfinding cache and the rate limiter in Redis. A sample of the
answers is compared with the engine's own single-threaded results.

Twice: with the shared Redis up the whole time, and with a private redis-server (started
here on a free port) killed halfway. Both must end with zero failed requests and zero
wrong answers. Then once more without Redis (issue 20): the same ordinary mix from all
clients but one, first quietly, then while that one client sends the most expensive
requests the defaults allow, one after the other (``hostile_mix``); the ordinary requests
must keep their p99 within 3 times the quiet run's, with no failure. Skipped unless
ARBITER_LOAD=1 (``make load``); prints throughput, p50, p99 and errors per run, and per
half for the kill.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
import redis

from arbiter.rulesets import builtin_registry
from support import free_port, serve

pytestmark = pytest.mark.skipif(os.environ.get("ARBITER_LOAD") != "1",
                                reason="the load test runs with `make load` (ARBITER_LOAD=1)")

SECONDS = float(os.environ.get("ARBITER_LOAD_SECONDS", "30"))
# Each of the two runs of the hostile test (quiet, then with the hostile client).
HOSTILE_SECONDS = float(os.environ.get("ARBITER_LOAD_HOSTILE_SECONDS", "15"))
CLIENTS = int(os.environ.get("ARBITER_LOAD_CLIENTS", "8"))
MAX_REQUESTS = int(os.environ.get("ARBITER_LOAD_MAX_REQUESTS", "200000"))
SAMPLE_EVERY = 10
TIMEOUT = 10.0
KEY = "load-test-key"
REGISTRY = builtin_registry()
HEX = REGISTRY.get("hex_maneuver")
REGION = REGISTRY.get("region_conquest")


# -- the request mix and the engine's answers ------------------------------------------------

def hexagon(radius: int, army_at: tuple[int, int]) -> dict[str, Any]:
    hexes = [{"q": q, "r": r, "terrain": ("hills" if (q * 7 + r * 3) % 5 == 0 else "plains"),
              "province": f"p{(q + r) % 3}"}
             for q in range(-radius, radius + 1)
             for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)]
    return {"hexes": hexes, "players": [{"id": "red"}, {"id": "blue"}],
            "armies": [{"id": "a1", "owner": "red", "hex": {"q": army_at[0], "r": army_at[1]},
                        "units": {"cavalrymen": 2, "archers": 1}},
                       {"id": "b1", "owner": "blue", "hex": {"q": -1, "r": 0},
                        "units": {"swordsmen": 2}}]}


@dataclass
class Kind:
    name: str
    path: str
    bodies: list[bytes]
    expected: list[Any]          # per body: what a correct answer parses to (projected)
    project: Any                 # answer JSON -> comparable value


def _expected_validate(body: dict[str, Any]) -> Any:
    assert HEX is not None
    state = HEX.state_model.model_validate(body["state"])
    action = HEX.action_model.model_validate(body["action"])
    return json.loads(HEX.validate(state, action, "strict").model_dump_json())


def _expected_query(ruleset: Any, name: str, body: dict[str, Any]) -> Any:
    query = ruleset.queries[name]
    return json.loads(query.run(query.request.model_validate(body)).model_dump_json())


GRAPHQL = """query($state: HexManeuverState!, $move: HexManeuverActionInput!) {
  hexManeuver(state: $state) {
    validate(action: $move) { legal stateHash }
    reachable(army: "a1") { destinations { hex { q r } cost } }
  }
}"""


def _graphql_projection(answer: dict[str, Any]) -> Any:
    data = answer["data"]["hexManeuver"]
    return {"legal": data["validate"]["legal"], "hash": data["validate"]["stateHash"],
            "destinations": data["reachable"]["destinations"]}


def request_mix() -> list[Kind]:
    assert HEX is not None and REGION is not None
    boards = [hexagon(radius, at) for radius in (3, 4, 5, 6, 7)
              for at in ((0, 0), (1, 0), (0, 1), (1, -1))]
    moves = [{"type": "maneuver", "player": "red", "army": "a1",
              "path": [{"q": b["armies"][0]["hex"]["q"] + 1,
                        "r": b["armies"][0]["hex"]["r"] - 1}]} for b in boards]
    validate = [{"state": b, "action": m} for b, m in zip(boards, moves, strict=True)]
    reachable = [{"state": b, "army": "a1"} for b in boards]
    region_state = REGION.examples.state
    conquest = [{"state": {**region_state, "players": [
        {**region_state["players"][0], "hand": hand}, *region_state["players"][1:]]},
        "player": "orcs"} for hand in range(2, 14)]
    graphql = [{"query": GRAPHQL, "variables": {"state": b, "move": {"maneuver": {
        "player": "red", "army": "a1", "path": m["path"]}}}}
        for b, m in zip(boards, moves, strict=True)]
    gql_expected = []
    for b, m in zip(boards, moves, strict=True):
        outcome = _expected_validate({"state": b, "action": m})
        reach = _expected_query(HEX, "reachable", {"state": b, "army": "a1"})
        gql_expected.append({"legal": outcome["legal"], "hash": outcome["state_hash"],
                             "destinations": [{"hex": d["hex"], "cost": d["cost"]}
                                              for d in reach["destinations"]]})
    return [
        Kind("validate", "/v1/rulesets/hex_maneuver/validate", [orjson.dumps(b) for b in validate],
             [_expected_validate(b) for b in validate], lambda a: a),
        Kind("reachable", "/v1/rulesets/hex_maneuver/reachable",
             [orjson.dumps(b) for b in reachable],
             [_expected_query(HEX, "reachable", b) for b in reachable], lambda a: a),
        Kind("conquest-cost", "/v1/rulesets/region_conquest/conquest-cost",
             [orjson.dumps(b) for b in conquest],
             [_expected_query(REGION, "conquest-cost", b) for b in conquest], lambda a: a),
        Kind("graphql", "/graphql", [orjson.dumps(b) for b in graphql], gql_expected,
             _graphql_projection),
    ]


def ferry_board(radius: int, structures: int) -> dict[str, Any]:
    """A sea with red galleys on every third hex (every hex in ferry reach), red's army on
    the one land hex beside ``structures`` blue structures (tests/hardening)."""
    land = ((0, 0), (1, 0))
    cells = [(q, r) for q in range(-radius, radius + 1)
             for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)]
    armies = [{"id": "a0", "owner": "red", "hex": {"q": 0, "r": 0},
               "units": {"cavalrymen": 3, "archers": 2}}]
    armies += [{"id": f"g{i}", "owner": "red", "hex": {"q": q, "r": r}, "units": {"galley": 1}}
               for i, (q, r) in enumerate(cells) if (q, r) not in land and i % 3 == 0]
    return {"hexes": [{"q": q, "r": r, "terrain": "plains" if (q, r) in land else "sea",
                       "province": "p"} for q, r in cells],
            "players": [{"id": "red"}, {"id": "blue"}], "armies": armies[:2000],
            "structures": [{"id": f"s{i}", "kind": "other", "owner": "blue",
                            "hex": {"q": 1, "r": 0}} for i in range(structures)]}


def hostile_mix() -> list[Kind]:
    """The most expensive requests the default limits allow: a 2.7 MB reachable answer,
    legal-actions at its largest limit (stopped by the budget), a 3.5 MB validate-batch of
    whole states, a body of most of 1 MiB judged and returned."""
    move = {"type": "maneuver", "player": "red", "army": "a0", "path": [{"q": 1, "r": 0}]}
    bodies = {
        "reachable": ("/v1/rulesets/hex_maneuver/reachable",
                      {"state": ferry_board(40, 50), "army": "a0"}),
        "legal-actions": ("/v1/rulesets/hex_maneuver/legal-actions",
                          {"state": ferry_board(20, 0), "player": "red", "limit": 10_000}),
        "validate-batch": ("/v1/rulesets/hex_maneuver/validate-batch",
                           {"state": ferry_board(14, 0), "actions": [move] * 60,
                            "return": "state"}),
        "big-body": ("/v1/rulesets/hex_maneuver/validate",
                     {"state": ferry_board(57, 0), "action": move}),
    }
    return [Kind(f"hostile {name}", path, [orjson.dumps(body)], [None], lambda a: a)
            for name, (path, body) in bodies.items()]


# -- a small closed-loop HTTP/1.1 client ----------------------------------------------------

@dataclass
class Tally:
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    statuses: dict[int, int] = field(default_factory=dict)
    failures: list[tuple[float, str]] = field(default_factory=list)
    samples: list[tuple[Kind, int, bytes]] = field(default_factory=list)
    by_kind: dict[str, int] = field(default_factory=dict)


async def client(port: int, kinds: list[Kind], deadline: float, budget: list[int],
                 tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    sent = 0
    try:
        while budget[0] > 0 and time.perf_counter() < deadline:
            budget[0] -= 1
            kind = kinds[sent % len(kinds)]
            index = rng.randrange(len(kind.bodies))
            body = kind.bodies[index]
            head = (f"POST {kind.path} HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                    f"content-type: application/json\r\nx-api-key: {KEY}\r\n"
                    f"content-length: {len(body)}\r\n\r\n").encode()
            started = time.perf_counter()
            try:
                writer.write(head + body)
                raw_head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
                status = int(raw_head.split(b" ", 2)[1])
                length = next(int(line.split(b":", 1)[1]) for line in raw_head.split(b"\r\n")
                              if line.lower().startswith(b"content-length:"))
                answer = await asyncio.wait_for(reader.readexactly(length), TIMEOUT)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, StopIteration) as exc:
                tally.failures.append((started, f"{kind.name}: {type(exc).__name__}"))
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                continue
            tally.latencies.append((started, time.perf_counter() - started))
            tally.statuses[status] = tally.statuses.get(status, 0) + 1
            tally.by_kind[kind.name] = tally.by_kind.get(kind.name, 0) + 1
            if status != 200:
                tally.failures.append((started, f"{kind.name}: {status} {answer[:200]!r}"))
            elif sent % SAMPLE_EVERY == 0:
                tally.samples.append((kind, index, answer))
            sent += 1
    finally:
        writer.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else 0.0


def figures(tally: Tally, start: float, end: float) -> dict[str, Any]:
    window = [s for t, s in tally.latencies if start <= t < end]
    failed = [f for t, f in tally.failures if start <= t < end]
    return {"requests": len(window), "seconds": round(end - start, 2),
            "throughput_rps": round(len(window) / max(end - start, 1e-9), 1),
            "p50_ms": round(percentile(window, 0.50) * 1000, 2),
            "p99_ms": round(percentile(window, 0.99) * 1000, 2),
            "errors": len(failed)}


def wrong_answers(tally: Tally) -> list[str]:
    wrong = []
    for kind, index, answer in tally.samples:
        if kind.project(orjson.loads(answer)) != kind.expected[index]:
            wrong.append(f"{kind.name}[{index}]: {answer[:200]!r}")
    return wrong


async def run_load(port: int, kinds: list[Kind], seconds: float,
                   halfway: Any = None) -> tuple[Tally, float, float]:
    tally = Tally()
    budget = [MAX_REQUESTS]
    start = time.perf_counter()
    deadline = start + seconds
    killer = None
    if halfway is not None:
        async def at_half() -> float:
            await asyncio.sleep(seconds / 2)
            halfway()
            return time.perf_counter()
        killer = asyncio.create_task(at_half())
    await asyncio.gather(*(client(port, kinds, deadline, budget, tally, seed)
                           for seed in range(CLIENTS)))
    killed_at = await killer if killer is not None else start + seconds / 2
    return tally, start, killed_at


# -- the two runs ---------------------------------------------------------------------------

@contextlib.contextmanager
def private_redis() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("no redis-server binary to start a private Redis")
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
    try:
        for _ in range(100):
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    break
            time.sleep(0.05)
        yield url, proc
    finally:
        client.close()
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def server_env(redis_url: str, prefix: str) -> dict[str, str]:
    return {"ARBITER_REDIS_URL": redis_url, "ARBITER_REDIS_KEY_PREFIX": prefix,
            # Every answer goes through Redis: no in-process tier, no size threshold.
            "ARBITER_CACHE_SIZE": "0", "ARBITER_REDIS_MIN_BYTES": "0",
            "ARBITER_API_KEYS": KEY, "ARBITER_RATE_LIMIT": "1000000",
            "ARBITER_RATE_BURST": "1000000"}


def report(title: str, parts: dict[str, dict[str, Any]], tally: Tally, wrong: list[str],
           extra: dict[str, Any]) -> None:
    print(f"\n== load: {title} ({CLIENTS} clients, {SECONDS:g} s) ==")
    for name, part in parts.items():
        print(f"  {name:<22} " + "  ".join(f"{k}={v}" for k, v in part.items()))
    print(f"  by kind: {tally.by_kind}; statuses: {tally.statuses}")
    print(f"  sampled answers compared with the engine: {len(tally.samples)}, "
          f"wrong: {len(wrong)}")
    for key, value in extra.items():
        print(f"  {key}: {value}")


def test_load_with_redis_up() -> None:
    kinds = request_mix()
    prefix = f"arbiter-load-{uuid.uuid4().hex[:8]}:"
    url = os.environ.get("ARBITER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    shared = redis.Redis.from_url(url, socket_connect_timeout=0.5)
    try:
        shared.ping()
    except redis.RedisError as exc:
        pytest.fail(f"the load test needs Redis at {url}: {exc}")
    try:
        with serve(server_env(url, prefix)) as base:
            port = int(base.rsplit(":", 1)[1])
            tally, start, _ = asyncio.run(run_load(port, kinds, SECONDS))
            metrics = _cache_metrics(port)
    finally:
        for key in shared.scan_iter(match=prefix + "*", count=500):
            shared.delete(key)
        shared.close()
    wrong = wrong_answers(tally)
    whole = figures(tally, start, start + SECONDS)
    report("Redis up", {"whole run": whole}, tally, wrong, {"cache": metrics})
    assert whole["errors"] == 0, tally.failures[:5]
    assert not wrong, wrong[:5]
    assert all(tally.by_kind.get(k.name) for k in kinds)


def test_load_with_redis_killed_halfway() -> None:
    kinds = request_mix()
    with private_redis() as (url, redis_proc), serve(server_env(url, "load:")) as base:
        port = int(base.rsplit(":", 1)[1])

        def kill() -> None:
            redis_proc.send_signal(signal.SIGKILL)

        tally, start, killed_at = asyncio.run(run_load(port, kinds, SECONDS, halfway=kill))
        metrics = _cache_metrics(port)
        ready = _get(port, "/readyz")
    wrong = wrong_answers(tally)
    parts = {"whole run": figures(tally, start, start + SECONDS),
             "before the kill": figures(tally, start, killed_at),
             "after the kill": figures(tally, killed_at, start + SECONDS)}
    report("Redis killed halfway", parts, tally, wrong,
           {"cache": metrics, "readyz after": ready})
    assert parts["whole run"]["errors"] == 0, tally.failures[:5]
    assert not wrong, wrong[:5]
    assert parts["after the kill"]["requests"] > 0
    assert json.loads(ready)["cache"]["redis"] == "degraded"


async def run_beside(port: int, kinds: list[Kind], hostile: list[Kind] | None,
                      seconds: float) -> tuple[Tally, Tally, float]:
    """CLIENTS - 1 ordinary clients for ``seconds``, and one more sending ``hostile``."""
    ordinary, expensive = Tally(), Tally()
    budget = [MAX_REQUESTS]
    start = time.perf_counter()
    deadline = start + seconds
    clients = [client(port, kinds, deadline, budget, ordinary, seed)
               for seed in range(CLIENTS - 1)]
    if hostile is not None:
        clients.append(client(port, hostile, deadline, budget, expensive, CLIENTS))
    await asyncio.gather(*clients)
    return ordinary, expensive, start


def test_load_beside_the_most_expensive_requests() -> None:
    kinds, hostile = request_mix(), hostile_mix()
    env = {"ARBITER_CACHE_SIZE": "0", "ARBITER_API_KEYS": KEY,
           "ARBITER_RATE_LIMIT": "1000000", "ARBITER_RATE_BURST": "1000000"}
    with serve(env) as base:
        port = int(base.rsplit(":", 1)[1])
        quiet, _, quiet_start = asyncio.run(run_beside(port, kinds, None, HOSTILE_SECONDS))
        busy, expensive, busy_start = asyncio.run(run_beside(port, kinds, hostile,
                                                             HOSTILE_SECONDS))
    parts = {"quiet": figures(quiet, quiet_start, quiet_start + HOSTILE_SECONDS),
             "beside the expensive": figures(busy, busy_start, busy_start + HOSTILE_SECONDS),
             "the expensive client": figures(expensive, busy_start,
                                             busy_start + HOSTILE_SECONDS)}
    wrong = wrong_answers(quiet) + wrong_answers(busy)
    ratio = parts["beside the expensive"]["p99_ms"] / max(parts["quiet"]["p99_ms"], 1e-9)
    report("one client sending the most expensive requests", parts, busy, wrong,
           {"expensive statuses": expensive.statuses, "expensive by kind": expensive.by_kind,
            "ordinary p99 ratio": round(ratio, 2)})
    assert parts["quiet"]["errors"] == 0 and parts["beside the expensive"]["errors"] == 0, \
        (quiet.failures[:3], busy.failures[:3])
    assert not wrong, wrong[:5]
    # The expensive client was answered (refusals included), never with a 5xx.
    assert expensive.statuses and all(s < 500 for s in expensive.statuses), expensive.statuses
    assert ratio <= 3, parts


def _get(port: int, path: str) -> str:
    import httpx

    return httpx.get(f"http://127.0.0.1:{port}{path}", timeout=10).text


def _cache_metrics(port: int) -> dict[str, float]:
    out = {}
    for line in _get(port, "/metrics").splitlines():
        if line.startswith("arbiter_cache_total{"):
            labels, value = line.rsplit(" ", 1)
            out[labels[len("arbiter_cache_total"):]] = float(value)
    return out

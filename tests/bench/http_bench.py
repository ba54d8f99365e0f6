"""HTTP: the bare Starlette echo of the same payload against Arbiter's REST and GraphQL on
the same server settings, 16 connections, one worker; single-request latencies on the big
boards; and the resident size of a worker after 10,000 requests over 100 boards."""

from __future__ import annotations

import json
from typing import Any

import orjson
from tests.bench import boards_hex_maneuver as hexes
from tests.bench.servers import check, load, rss_kib, serve

GRAPHQL = ("query($state: HexManeuverState!, $move: HexManeuverActionInput!) { "
           "hexManeuver(state: $state) { validate(action: $move) { legal stateHash "
           "violations { code } } reachable(army: \"a0\") { destinations { hex { q r } cost "
           "path { q r } } } } }")


def graphql_body(radius: int) -> bytes:
    from arbiter.graphql.types import to_graphql
    from arbiter.rulesets.hex_maneuver.models import HexManeuverAction

    body = hexes.validate_body(radius)
    return orjson.dumps({"query": GRAPHQL, "variables": {
        "state": body["state"], "move": to_graphql(HexManeuverAction, body["action"])}})


def throughput(quick: bool) -> list[dict[str, Any]]:
    seconds = 1.0 if quick else 6.0
    validate = orjson.dumps(hexes.validate_body(10))
    reachable = orjson.dumps(hexes.reachable_body(10))
    graphql = graphql_body(10)
    rows = []
    with serve("echo") as (port, _pid):
        echo = load(port, "/echo", [validate], seconds=seconds)
        floor = load(port, "/echo-json", [validate], seconds=seconds)
    rows.append({"what": f"starlette echo ({len(validate)} B)", **echo})
    rows.append({"what": f"starlette orjson echo ({len(validate)} B): the floor", **floor})
    env = {"ARBITER_CACHE_SIZE": "0"}  # measure computing, not the cache
    with serve("arbiter", env) as (port, _pid):
        assert check(port, "/v1/rulesets/hex_maneuver/validate", validate)["legal"] is True
        v = load(port, "/v1/rulesets/hex_maneuver/validate", [validate], seconds=seconds)
        r = load(port, "/v1/rulesets/hex_maneuver/reachable", [reachable], seconds=seconds)
        g = load(port, "/graphql", [graphql], seconds=seconds)
    rows.append({"what": "REST validate (331 hexes, 20 armies)", **v,
                 "vs_echo_rps": round(v["rps"] / echo["rps"], 3),
                 "vs_floor_rps": round(v["rps"] / floor["rps"], 3),
                 "vs_floor_p99": round(v["p99_ms"] / floor["p99_ms"], 2)})
    rows.append({"what": "REST reachable (331 hexes, 20 armies)", **r,
                 "vs_echo_rps": round(r["rps"] / echo["rps"], 3),
                 "vs_echo_p99": round(r["p99_ms"] / echo["p99_ms"], 2)})
    with serve("arbiter") as (port, _pid):  # default settings: the in-process cache on
        cached = load(port, "/v1/rulesets/hex_maneuver/reachable", [reachable],
                      seconds=seconds)
    pair = 1 / (1 / v["rps"] + 1 / r["rps"])
    rows.append({"what": "REST reachable, repeated (in-process cache hit)", **cached,
                 "vs_echo_rps": round(cached["rps"] / echo["rps"], 3),
                 "vs_echo_p99": round(cached["p99_ms"] / echo["p99_ms"], 2)})
    rows.append({"what": "GraphQL validate + reachable in one query", **g,
                 "vs_rest_pair_rps": round(g["rps"] / pair, 3),
                 "rest_pair_rps": round(pair, 1)})
    return rows


def latency_big(quick: bool) -> list[dict[str, Any]]:
    """Median single-request latency (one connection) for the bigger boards."""
    rows = []
    radii = (10,) if quick else (10, 50)
    with serve("arbiter", {"ARBITER_CACHE_SIZE": "0",
                           "ARBITER_MAX_BODY_BYTES": str(64 << 20)}) as (port, _pid):
        for radius in radii:
            for route, body in (("validate", hexes.validate_body(radius)),
                                ("reachable", hexes.reachable_body(radius))):
                raw = orjson.dumps(body)
                result = load(port, f"/v1/rulesets/hex_maneuver/{route}", [raw], connections=1,
                              seconds=0.5 if quick else 3.0, max_requests=200)
                rows.append({"what": f"REST {route}, radius {radius} "
                             f"({len(body['state']['hexes'])} hexes, {len(raw) // 1024} KiB)",
                             **result})
    return rows


def conquest_cost(quick: bool) -> list[dict[str, Any]]:
    from tests.bench.boards_region_conquest import conquest_cost_request as region_request
    from tests.bench.boards_territory_conquest import conquest_cost_request as territory_request

    cases = [("region_conquest", 40, region_request(40)),
             ("territory_conquest", "real board", territory_request())]
    if not quick:
        cases.insert(1, ("region_conquest", 2000, region_request(2000)))
    rows = []
    with serve("arbiter", {"ARBITER_CACHE_SIZE": "0"}) as (port, _pid):
        for ruleset, size, body in cases:
            raw = orjson.dumps(body)
            check(port, f"/v1/rulesets/{ruleset}/conquest-cost", raw)
            result = load(port, f"/v1/rulesets/{ruleset}/conquest-cost", [raw], connections=1,
                          seconds=0.5 if quick else 3.0, max_requests=2000)
            rows.append({"what": f"HTTP conquest-cost {ruleset} ({size})", **result})
    return rows


def memory(quick: bool) -> dict[str, Any]:
    """RSS of one worker while it answers 10,000 requests over 100 distinct boards."""
    bodies = []
    for seed in range(20 if quick else 100):
        state = hexes.board(10, seed=seed)
        bodies.append(orjson.dumps({"state": state, "army": "a0"}))
    total = 1000 if quick else 10_000
    readings = {}
    with serve("arbiter") as (port, pid):
        readings["start_kib"] = rss_kib(pid)
        for step in range(4):
            load(port, "/v1/rulesets/hex_maneuver/reachable", bodies, connections=8,
                 seconds=120, max_requests=total // 4)
            readings[f"after_{(step + 1) * total // 4}_kib"] = rss_kib(pid)
    return {"requests": total, "boards": len(bodies), **readings}


def as_text(rows: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(r) for r in rows)


def split_board(state: dict[str, Any], fields: tuple[str, ...]) -> tuple[
        str, dict[str, Any], dict[str, Any]]:
    """A state sent by reference: its board's id, the board (``fields`` of the state) and
    the state naming the board instead."""
    from arbiter.engine.boards import board_id

    board = {f: state[f] for f in fields}
    return board_id(board), board, {"board": board_id(board),
                                    **{k: v for k, v in state.items() if k not in fields}}


def boards(quick: bool) -> list[dict[str, Any]]:
    """Boards by reference against inline, every row against the orjson echo floor of its
    own body (the least any JSON service does with it): validate, reachable (computed and
    repeated), conquest-cost, and GraphQL validate + reachable, with p50 and p99."""
    import httpx
    from tests.bench.boards_region_conquest import conquest_cost_request as region_request

    seconds = 1.0 if quick else 5.0
    v_body = hexes.validate_body(10)
    r_body = hexes.reachable_body(10)
    c_body = region_request(40)
    bid, board, lean = split_board(v_body["state"], ("hexes",))
    cbid, cboard, clean = split_board(c_body["state"], ("regions",))
    graphql_inline = graphql_body(10)
    graphql_lean = orjson.dumps({**orjson.loads(graphql_inline),
                                 "variables": {**orjson.loads(graphql_inline)["variables"],
                                               "state": lean}})
    bodies = {
        "validate": (orjson.dumps(v_body), orjson.dumps({**v_body, "state": lean})),
        "reachable": (orjson.dumps(r_body), orjson.dumps({**r_body, "state": lean})),
        "conquest-cost": (orjson.dumps(c_body), orjson.dumps({**c_body, "state": clean})),
        "graphql": (graphql_inline, graphql_lean),
    }
    floors: dict[bytes, dict[str, Any]] = {}
    with serve("echo") as (port, _pid):
        for pair in bodies.values():
            for body in pair:
                floors[body] = load(port, "/echo-json", [body], seconds=seconds)
    raw = {}
    with serve("echo") as (port, _pid):
        raw = load(port, "/echo", [bodies["validate"][0]], seconds=seconds)
    paths = {"validate": "/v1/rulesets/hex_maneuver/validate",
             "reachable": "/v1/rulesets/hex_maneuver/reachable",
             "conquest-cost": "/v1/rulesets/region_conquest/conquest-cost",
             "graphql": "/graphql"}
    rows = [{"what": f"floor: raw echo ({len(bodies['validate'][0])} B)", **raw},
            {"what": f"floor: orjson echo ({len(bodies['validate'][0])} B)",
             **floors[bodies["validate"][0]]},
            {"what": f"floor: orjson echo ({len(bodies['validate'][1])} B, by reference)",
             **floors[bodies["validate"][1]]}]

    def measured(label: str, port: int, name: str, body: bytes) -> dict[str, Any]:
        got = load(port, paths[name], [body], seconds=seconds)
        floor = floors[body]
        return {"what": label, "bytes": len(body), **got,
                "vs_floor_rps": round(got["rps"] / floor["rps"], 3),
                "vs_floor_p99": round(got["p99_ms"] / floor["p99_ms"], 2)}

    for cached, env in (("computed", {"ARBITER_CACHE_SIZE": "0"}), ("repeated", {})):
        with serve("arbiter", env) as (port, _pid):
            base = f"http://127.0.0.1:{port}"
            httpx.put(f"{base}/v1/rulesets/hex_maneuver/boards/{bid}",
                      content=orjson.dumps(board)).raise_for_status()
            httpx.put(f"{base}/v1/rulesets/region_conquest/boards/{cbid}",
                      content=orjson.dumps(cboard)).raise_for_status()
            names = ("reachable",) if cached == "repeated" else tuple(bodies)
            for name in names:
                for form, body in zip(("inline", "by reference"), bodies[name], strict=True):
                    check(port, paths[name], body)
                    rows.append(measured(f"{name} {form} ({cached})", port, name, body))
    by_label = {r["what"]: r for r in rows}
    for form in ("inline", "by reference"):
        # The one GraphQL query asks what two REST calls ask: against their pair.
        v, r = (by_label[f"{n} {form} (computed)"]["rps"] for n in ("validate", "reachable"))
        pair = 1 / (1 / v + 1 / r)
        by_label[f"graphql {form} (computed)"]["vs_rest_pair_rps"] = round(
            by_label[f"graphql {form} (computed)"]["rps"] / pair, 3)
    return rows

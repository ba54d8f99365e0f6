"""Realistic, deterministic request bodies for benchmarking ``region_conquest``.

``conquest_cost_request(n)`` builds a map of ``n`` regions laid out like a Small World
board stretched to any size (a grid of regions, each bordering its right and lower
neighbours and, every other one, its lower-right diagonal; the outer ring touches the
board's edge; a sea every so often on the edge and a lake inland; mountains with their
marker, fortresses, stacked encampments, troll's lairs and Lost Tribes sprinkled by fixed
strides), five players with active and in-decline regions, and the first of them in the
middle of a turn (two conquests made, 7 tokens in hand). The body asks for the cost of
every region (no ``targets``). No randomness: the same ``n`` always gives the same body.
"""

from __future__ import annotations

import math
from typing import Any

LAND_KINDS = ("farmland", "forest", "hill", "swamp", "mountain")
PLAYERS = ("p0", "p1", "p2", "p3", "p4")


def _grid_regions(n: int) -> list[dict[str, Any]]:
    width = max(2, math.isqrt(n - 1) + 1)
    last_row = (n - 1) // width
    neighbours: list[set[int]] = [set() for _ in range(n)]

    def join(a: int, b: int) -> None:
        if b < n:
            neighbours[a].add(b)
            neighbours[b].add(a)

    for i in range(n):
        x, y = i % width, i // width
        if x + 1 < width:
            join(i, i + 1)
        join(i, i + width)
        if x + 1 < width and (x + y) % 2 == 0:
            join(i, i + width + 1)

    regions = []
    for i in range(n):
        x, y = i % width, i // width
        edge = x in (0, width - 1) or y in (0, last_row) or i + width >= n
        if edge and i % 19 == 5:
            kind = "sea"
        elif not edge and i % 53 == 26:
            kind = "lake"
        else:
            kind = LAND_KINDS[(x * 7 + y * 3) % len(LAND_KINDS)]
        markers: dict[str, int] = {}
        if kind == "mountain":
            markers["mountain"] = 1
        if kind not in ("sea", "lake"):
            if i % 11 == 3:
                markers["fortress"] = 1
            if i % 17 == 8:
                markers["encampment"] = 2
            if i % 23 == 12:
                markers["troll_lair"] = 1
        regions.append({"id": f"r{i}", "kind": kind, "edge": edge,
                        "adjacent": [f"r{j}" for j in sorted(neighbours[i])],
                        "markers": markers})
    return regions


def conquest_cost_state(n_regions: int) -> dict[str, Any]:
    if n_regions < 10:
        raise ValueError("the benchmark map needs at least 10 regions")
    regions = _grid_regions(n_regions)
    land = [r["id"] for r in regions if r["kind"] not in ("sea", "lake")]
    # Each player holds a stretch of land: active regions, then a few in-decline ones.
    stretch = max(2, len(land) // (len(PLAYERS) * 3))
    players = []
    held: set[str] = set()
    for k, pid in enumerate(PLAYERS):
        start = k * len(land) // len(PLAYERS)
        own = land[start:start + stretch]
        active = {rid: 1 + j % 4 for j, rid in enumerate(own[: max(1, stretch * 2 // 3)])}
        in_decline = {rid: 1 for rid in own[max(1, stretch * 2 // 3):]}
        held.update(own)
        players.append({"id": pid, "hand": 7 if k == 0 else 0, "active": active,
                        "in_decline": in_decline, "tray": k, "coins": 5 + k})
    for j, region in enumerate(r for r in regions if r["kind"] not in ("sea", "lake")):
        if j % 7 == 2 and region["id"] not in held:
            region["lost_tribe"] = 1
    first = players[0]
    return {"regions": regions, "players": players,
            "turn": {"player": first["id"], "conquered": list(first["active"])[:2]},
            "rng": 20240601}


def conquest_cost_request(n_regions: int) -> dict[str, Any]:
    """The body of ``POST /v1/rulesets/region_conquest/conquest-cost``: every region priced
    for the player whose turn it is."""
    return {"state": conquest_cost_state(n_regions), "player": PLAYERS[0]}

"""Engine: reachability on hex maps of 91 to 100k hexes, budget 6 and unlimited —
Arbiter's search (``engine.paths.reachable``) against a bare bucket-queue search on the
same compiled graph (the floor) and networkx's Dijkstra with a cutoff."""

from __future__ import annotations

from collections import deque
from typing import Any

from tests.bench.timing import interleaved_medians, us

from arbiter.engine.hexgrid import Hex, neighbours, spiral
from arbiter.engine.paths import reachable
from arbiter.engine.rng import SeededRng

SIZES = {91: 5, 331: 10, 1027: 18, 9919: 57, 99919: 182}


def hex_graph(radius: int) -> dict[Hex, list[tuple[Hex, int]]]:
    """A compiled board: each hex's passable neighbours with the price of entering them
    (1 or 2; a tenth of the hexes are impassable water)."""
    rng = SeededRng(radius)
    cells = spiral((0, 0), radius)
    price = {h: (None if rng.below(10) == 0 and h != (0, 0) else 1 + (rng.below(4) == 0))
             for h in cells}
    return {h: [(n, price[n]) for n in neighbours(h) if price.get(n) is not None]
            for h in cells if price[h] is not None}


def bucket_queue(graph: dict[Hex, list[tuple[Hex, int]]], start: Hex, budget: int | None
                 ) -> dict[Hex, int]:
    """The floor: the smallest bucket-queue Dijkstra over small integer costs."""
    dist = {start: 0}
    buckets: list[deque[Hex]] = [deque([start])]
    cost = 0
    limit = budget if budget is not None else 1 << 60
    while cost < len(buckets):
        bucket = buckets[cost]
        while bucket:
            h = bucket.popleft()
            if dist[h] != cost:
                continue
            for n, c in graph[h]:
                nd = cost + c
                if nd <= limit and nd < dist.get(n, 1 << 62):
                    dist[n] = nd
                    while len(buckets) <= nd:
                        buckets.append(deque())
                    buckets[nd].append(n)
        cost += 1
    return dist


def run(quick: bool) -> list[dict[str, Any]]:
    import networkx as nx

    rows = []
    sizes = {91: 5, 331: 10} if quick else SIZES
    for n, radius in sizes.items():
        graph = hex_graph(radius)
        nxg = nx.DiGraph()
        for h, edges in graph.items():
            for m, c in edges:
                nxg.add_edge(h, m, weight=c)
        for budget in (6, None):
            budget_s = 0.15 if quick else (1.2 if n < 10_000 else 4.5)
            floor, ours, theirs = interleaved_medians([
                lambda b=budget, g=graph: bucket_queue(g, (0, 0), b),
                lambda b=budget, g=graph: reachable((0, 0), b, g.__getitem__),
                lambda b=budget, g=nxg: nx.single_source_dijkstra_path_length(g, (0, 0),
                                                                              cutoff=b),
            ], budget=budget_s)
            assert reachable((0, 0), budget, graph.__getitem__).cost == \
                bucket_queue(graph, (0, 0), budget)
            rows.append({"hexes": n, "budget": budget if budget is not None else "unlimited",
                         "arbiter_us": us(ours), "bucket_queue_us": us(floor),
                         "networkx_us": us(theirs),
                         "vs_floor": round(ours / floor, 2),
                         "vs_networkx": round(ours / theirs, 2)})
    return rows

"""A deterministic layout of an area graph that carries no geometry: the same nodes and
edges, in the same order, always get the same positions.

It starts from rings by breadth-first distance (each connected component from its first
node in the state's order, components side by side), then runs a fixed number of
Fruchterman–Reingold steps with the grid variant of their paper (repulsion only between
nodes in neighbouring grid cells), so a step costs O(nodes + edges) and a few hundred
regions lay out in milliseconds. Nothing random, no dict or set order, and only IEEE
arithmetic (correctly rounded everywhere): the same answer on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from arbiter.engine.bounds import checkpoint

ITERATIONS = 60
Point = tuple[float, float]


def layout(ids: Sequence[str], edges: Sequence[tuple[str, str]]) -> list[Point]:
    """Positions of ``ids`` (in their order), in units of the ideal edge length, the
    top-left corner at (0, 0)."""
    n = len(ids)
    if n == 0:
        return []
    index = {node: i for i, node in enumerate(ids)}
    links = sorted({(min(index[a], index[b]), max(index[a], index[b]))
                    for a, b in edges if a in index and b in index and a != b})
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for a, b in links:
        neighbours[a].append(b)
        neighbours[b].append(a)
    xs, ys = _rings(neighbours)
    _relax(xs, ys, links)
    return _normalised(xs, ys)


@lru_cache(maxsize=64)
def cached(ids: tuple[str, ...], edges: tuple[tuple[str, str], ...]) -> tuple[Point, ...]:
    """``layout`` remembered for the last maps drawn: a frontend asks for one map again and
    again with other overlays (the layout is most of a graph picture's cost)."""
    return tuple(layout(ids, edges))


def _rings(neighbours: list[list[int]]) -> tuple[list[float], list[float]]:
    """Each component as rings around its first node by breadth-first distance, the
    components left to right."""
    n = len(neighbours)
    xs = [0.0] * n
    ys = [0.0] * n
    seen = [False] * n
    offset = 0.0
    for root in range(n):
        if seen[root]:
            continue
        layers = _layers(root, neighbours, seen)
        radius_step = 1.0
        width = radius_step * (len(layers) - 1)
        for depth, layer in enumerate(layers):
            for k, node in enumerate(layer):
                angle = 2 * math.pi * k / len(layer) + depth * 0.5
                xs[node] = offset + width + depth * radius_step * math.cos(angle)
                ys[node] = depth * radius_step * math.sin(angle)
        offset += 2 * width + 1.5
    return xs, ys


def _layers(root: int, neighbours: list[list[int]], seen: list[bool]) -> list[list[int]]:
    seen[root] = True
    layers = [[root]]
    while True:
        nxt = []
        for node in layers[-1]:
            for other in neighbours[node]:
                if not seen[other]:
                    seen[other] = True
                    nxt.append(other)
        if not nxt:
            return layers
        layers.append(nxt)


def _relax(xs: list[float], ys: list[float], links: list[tuple[int, int]]) -> None:
    """Fruchterman–Reingold, grid variant: ideal distance k = 1, repulsion k²/d within
    2k, attraction d²/k along edges, moves capped by a temperature cooling linearly."""
    n = len(xs)
    if n < 2:
        return
    k = 1.0
    start = max(0.5, math.sqrt(n) / 4)
    for step in range(ITERATIONS):
        checkpoint()
        temperature = start * (1 - step / ITERATIONS) + 0.01
        dx = [0.0] * n
        dy = [0.0] * n
        _repel(xs, ys, dx, dy, k)
        for a, b in links:
            ex = xs[a] - xs[b]
            ey = ys[a] - ys[b]
            d = math.sqrt(ex * ex + ey * ey) or 1e-9
            f = d / k
            dx[a] -= ex * f
            dy[a] -= ey * f
            dx[b] += ex * f
            dy[b] += ey * f
        for i in range(n):
            d = math.sqrt(dx[i] * dx[i] + dy[i] * dy[i])
            if d > 0:
                move = min(d, temperature) / d
                xs[i] += dx[i] * move
                ys[i] += dy[i] * move


# A cell's own pairs, and the pairs with four of its eight neighbours: each pair of
# neighbouring cells is then visited once, and each pair of nodes pushed apart once.
_HALF = ((1, -1), (1, 0), (1, 1), (0, 1))


def _repel(xs: list[float], ys: list[float], dx: list[float], dy: list[float],
           k: float) -> None:
    cell = 2 * k
    reach = cell * cell
    k2 = k * k
    grid: dict[tuple[int, int], list[int]] = {}
    for i in range(len(xs)):
        grid.setdefault((math.floor(xs[i] / cell), math.floor(ys[i] / cell)), []).append(i)
    for (gx, gy), members in sorted(grid.items()):
        pairs = [(i, j) for n, i in enumerate(members) for j in members[n + 1:]]
        for ox, oy in _HALF:
            pairs += [(i, j) for i in members for j in grid.get((gx + ox, gy + oy), ())]
        for i, j in pairs:
            ex = xs[i] - xs[j]
            ey = ys[i] - ys[j]
            d2 = ex * ex + ey * ey
            if d2 == 0.0:
                # Two nodes on one point: pushed apart along a fixed direction by index.
                ex, ey, d2 = 0.01, 0.0, 1e-4
            if d2 < reach:
                f = k2 / d2
                dx[i] += ex * f
                dy[i] += ey * f
                dx[j] -= ex * f
                dy[j] -= ey * f


def _normalised(xs: list[float], ys: list[float]) -> list[Point]:
    """Shifted to start at (0, 0), in units of the ideal edge length."""
    left, top = min(xs), min(ys)
    return [(x - left, y - top) for x, y in zip(xs, ys, strict=True)]

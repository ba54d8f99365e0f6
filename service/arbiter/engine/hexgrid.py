"""Axial hex coordinates on a pointy-top grid.

A hex is a plain ``(q, r)`` tuple inside hot loops (hashable, cheap) and an ``Axial``
pydantic model at the boundary. Neighbours are always listed in the order
E, NE, NW, W, SW, SE so that every search that walks them is deterministic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Mapping

from pydantic import BaseModel, ConfigDict, Field

from arbiter.engine.bounds import checkpoint

Hex = tuple[int, int]

# E, NE, NW, W, SW, SE on a pointy-top axial grid.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Axial(BaseModel):
    """A hex in axial coordinates on a pointy-top hex grid (rows of hexes run east-west): q
    grows to the east, r to the south-east. Its six neighbours, in the order every answer
    lists them, are E (q+1, r), NE (q+1, r-1), NW (q, r-1), W (q-1, r), SW (q-1, r+1) and
    SE (q, r+1). Example: {"q": 1, "r": -1} is the NE neighbour of {"q": 0, "r": 0}."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    q: int = Field(description="Axial column: +1 is one hex east.")
    r: int = Field(description="Axial row: +1 is one hex south-east.")

    @property
    def key(self) -> Hex:
        return (self.q, self.r)

    @classmethod
    def of(cls, h: Hex) -> Axial:
        return cls(q=h[0], r=h[1])


def as_dict(h: Hex) -> dict[str, int]:
    return {"q": h[0], "r": h[1]}


def neighbours(h: Hex) -> list[Hex]:
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def are_adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def distance(a: Hex, b: Hex) -> int:
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center``: start ``radius`` steps to the SW,
    then walk the six sides in the order E, NE, NW, W, SW, SE."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    result: list[Hex] = []
    # Start radius steps towards SW (index 4), then walk each of the six sides.
    q = center[0] + DIRECTIONS[4][0] * radius
    r = center[1] + DIRECTIONS[4][1] * radius
    for side in range(6):
        dq, dr = DIRECTIONS[side]
        for _ in range(radius):
            result.append((q, r))
            q += dq
            r += dr
    return result


def spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``center``: the centre, then ring 1, ring 2, ..."""
    result: list[Hex] = []
    for k in range(radius + 1):
        result.extend(ring(center, k))
    return result


def rotate(h: Hex, center: Hex, steps: int) -> Hex:
    """Rotate ``h`` about ``center`` by ``steps`` sixths of a turn counter-clockwise
    (E -> NE -> NW ...). Six steps are the identity."""
    x = h[0] - center[0]
    z = h[1] - center[1]
    y = -x - z
    for _ in range(steps % 6):
        # Cube rotation by 60 degrees counter-clockwise: (x, y, z) -> (-y, -z, -x).
        x, y, z = -y, -z, -x
    return (x + center[0], z + center[1])


def fewest_steps(start: Hex, target: Hex, on_map: Container[Hex]) -> list[Hex] | None:
    """The fewest hexes of the map from ``start`` to ``target`` (``start`` left out), nothing
    on them counted: breadth first, neighbours in their E, NE, NW, W, SW, SE order; None when
    the map does not join them. A search of the whole map at worst: within the compute
    budget (``checkpoint``)."""
    parent: dict[Hex, Hex] = {start: start}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        checkpoint()
        if h == target:
            break
        for n in neighbours(h):
            if n in on_map and n not in parent:
                parent[n] = h
                queue.append(n)
    if target not in parent:
        return None
    return path_back(parent, start, target)


def path_back(parent: Mapping[Hex, Hex], start: Hex, end: Hex) -> list[Hex]:
    """The path a breadth-first search's ``parent`` links lead along from ``start`` to
    ``end`` (``start`` left out, ``end`` last)."""
    path = []
    h = end
    while h != start:
        path.append(h)
        h = parent[h]
    return path[::-1]

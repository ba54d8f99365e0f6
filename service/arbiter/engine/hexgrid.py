"""Axial hex coordinates on a pointy-top grid.

A hex is a plain ``(q, r)`` tuple inside hot loops (hashable, cheap) and an ``Axial``
pydantic model at the boundary. Neighbours are always listed in the order
E, NE, NW, W, SW, SE so that every search that walks them is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict

Hex = tuple[int, int]

# E, NE, NW, W, SW, SE on a pointy-top axial grid.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")


class Axial(BaseModel):
    """A hex as it travels over the wire: ``{"q": 1, "r": -1}``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    q: int
    r: int

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


def _cube_round(fx: float, fz: float) -> Hex:
    fy = -fx - fz
    rx, ry, rz = round(fx), round(fy), round(fz)
    dx, dy, dz = abs(rx - fx), abs(ry - fy), abs(rz - fz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return (int(rx), int(rz))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b`` inclusive (Red Blob's lerp with a
    tiny nudge so that lines along hex edges fall on a consistent side)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    ax, az = a[0] + eps, a[1] + eps
    bx, bz = b[0] + eps, b[1] + eps
    return [_cube_round(ax + (bx - ax) * i / n, az + (bz - az) * i / n) for i in range(n + 1)]


def iter_within(center: Hex, radius: int) -> Iterator[Hex]:
    cq, cr = center
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield (cq + dq, cr + dr)

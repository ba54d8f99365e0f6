"""Pointy-top axial hex geometry in pixels (Red Blob Games' layout): a hex's centre and
corners for a given size (centre to corner)."""

from __future__ import annotations

import math

from arbiter.pictures.scene import Hex

SQRT3 = math.sqrt(3.0)


def centre(h: Hex, size: float) -> tuple[float, float]:
    q, r = h
    return size * SQRT3 * (q + r / 2), size * 1.5 * r


# The six corners' directions, the first at the top (pointy-top: corners at 30° + 60°·i
# counted from the east, screen y downwards).
_CORNERS = tuple((math.cos(math.radians(60 * i - 90)), math.sin(math.radians(60 * i - 90)))
                 for i in range(6))


def corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    """The six corners of the hex centred at (x, y), the top one first."""
    return [(x + size * cx, y + size * cy) for cx, cy in _CORNERS]

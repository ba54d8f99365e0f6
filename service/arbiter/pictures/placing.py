"""Where each label goes: the first of its spots (in the order the drawing prefers them)
where its box meets no piece and no label put before it; when every spot is taken (a
crowded place), the nearest free point on rings round its first spot.

That search always ends: the pieces and labels are finitely many, so a ring wide enough
reaches past all of them to the right, and a point is never taken left of or above the
picture (it is pushed in). A label found beyond the board's edge makes the board wider or
taller (``Placer.right`` and ``bottom``: the drawing reads them), so it is drawn inside
the picture, never under the legend.

Boxes are kept in a grid of ``CELL`` px squares, so a test looks at the few boxes near the
label, not at all of them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arbiter.engine.bounds import checkpoint
from arbiter.pictures.boxes import Box

Point = tuple[float, float]
CELL = 32.0
RING = 3.0     # px between the rings searched round a label's first spot, near it
GROWTH = 0.1   # far from it, the next ring is this much wider
POINTS = 64    # points tried on a ring, at most


@dataclass(frozen=True, slots=True)
class Label:
    """A label to place: its ``box`` when its anchor is at (0, 0), and the anchors it may
    take, the preferred first."""

    box: Box
    spots: Sequence[Point]


class Placer:
    """The boxes taken so far (the pieces, then each label as it is placed)."""

    def __init__(self, taken: Iterable[Box]) -> None:
        self._grid: dict[tuple[int, int], list[Box]] = {}
        self.right = 0.0
        self.bottom = 0.0
        for box in taken:
            self._take(box)

    def place(self, label: Label) -> Point:
        """The anchor chosen for ``label``, whose box is then taken."""
        for point in itertools.chain(label.spots, self._rings(label)):
            x, y = self._inside(label.box, point)
            box = label.box.moved(x, y)
            if self._free(box):
                self._take(box)
                return x, y
        raise AssertionError("unreachable: the rings grow without end")

    def _rings(self, label: Label) -> Iterable[Point]:
        """Points on rings round the label's first spot, RING px apart near it, farther
        apart (and at most ``POINTS`` on a ring) far from it: a label pushed far away (a
        pile of pieces) is found in a number of tests that grows with the log of the
        distance, not its square."""
        x0, y0 = label.spots[0]
        radius = RING
        while True:
            checkpoint()   # a pile of thousands of pieces on one place: the budget bounds it
            count = min(POINTS, max(8, math.ceil(2 * math.pi * radius / RING)))
            for k in range(count):
                angle = 2 * math.pi * k / count
                yield x0 + radius * math.cos(angle), y0 + radius * math.sin(angle)
            radius += max(RING, radius * GROWTH)

    @staticmethod
    def _inside(box: Box, point: Point) -> Point:
        """The point moved right or down just enough for the box to start at (0, 0) or
        after: never left of or above the picture."""
        x, y = point
        return max(x, -box.left), max(y, -box.top)

    def _cells(self, box: Box) -> Iterable[tuple[int, int]]:
        for gx in range(math.floor(box.left / CELL), math.floor(box.right / CELL) + 1):
            for gy in range(math.floor(box.top / CELL), math.floor(box.bottom / CELL) + 1):
                yield gx, gy

    def _free(self, box: Box) -> bool:
        return not any(box.meets(other) for cell in self._cells(box)
                       for other in self._grid.get(cell, ()))

    def _take(self, box: Box) -> None:
        for cell in self._cells(box):
            self._grid.setdefault(cell, []).append(box)
        self.right = max(self.right, box.right)
        self.bottom = max(self.bottom, box.bottom)


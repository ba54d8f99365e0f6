"""How a game of tic-tac-toe ends on the grid: three of one mark in a line, or a full grid.
``board.py`` uses it to refuse a state that went on after its end, ``place.py`` to
announce the end a mark brings."""

from __future__ import annotations

from collections.abc import Sequence

from .catalogue import LINES
from .models import Mark

Line = tuple[int, int, int]


def completed(cells: Sequence[Mark | None]) -> list[tuple[Mark, Line]]:
    """Every line holding three of one mark, in the catalogue's order."""
    found: list[tuple[Mark, Line]] = []
    for line in LINES:
        first, second, third = (cells[i] for i in line)
        if first is not None and first == second == third:
            found.append((first, line))
    return found


def full(cells: Sequence[Mark | None]) -> bool:
    return all(cell is not None for cell in cells)

"""Graphs of named areas (regions, territories) joined by shared borders.

Boards of area-based rulesets come as a list of areas and a list of adjacent pairs.
``AreaGraph`` checks the pairs name known areas, makes adjacency symmetric and answers
neighbour and distance questions with sorted, deterministic orders.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from arbiter.engine.errors import Problems, pointer


class AreaGraph:
    __slots__ = ("_adjacent",)

    def __init__(self, adjacent: Mapping[str, frozenset[str]]) -> None:
        self._adjacent = adjacent

    @classmethod
    def build(cls, areas: Iterable[str], pairs: Iterable[tuple[str, str]], *,
              pairs_at: tuple[object, ...]) -> AreaGraph:
        """Raises ``InvalidInput`` naming each pair that mentions an unknown area or joins
        an area to itself."""
        known = set(areas)
        adjacent: dict[str, set[str]] = {a: set() for a in known}
        problems = Problems()
        for i, (a, b) in enumerate(pairs):
            for j, end in enumerate((a, b)):
                if end not in known:
                    problems.add(pointer(*pairs_at, i, j),
                                 f"unknown area {end!r}")
            if a == b:
                problems.add(pointer(*pairs_at, i),
                             f"area {a!r} cannot border itself")
            if a in known and b in known and a != b:
                adjacent[a].add(b)
                adjacent[b].add(a)
        problems.raise_if_any()
        return cls({a: frozenset(n) for a, n in adjacent.items()})

    def __contains__(self, area: object) -> bool:
        return area in self._adjacent

    def neighbours(self, area: str) -> list[str]:
        return sorted(self._adjacent[area])

    def are_adjacent(self, a: str, b: str) -> bool:
        return b in self._adjacent.get(a, frozenset())

    def areas(self) -> list[str]:
        return sorted(self._adjacent)

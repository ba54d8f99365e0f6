"""Reachability against a brute-force search over every path on small random maps."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.engine.hexgrid import neighbours, spiral
from arbiter.engine.paths import reachable

Hex = tuple[int, int]


def brute_force(costs: dict[Hex, int | None], start: Hex, budget: int) -> dict[Hex, int]:
    """Cheapest cost to every hex by enumerating every simple path (fine on 19 hexes with
    small budgets: zero-cost steps make cycles useless, never cheaper)."""
    best = {start: 0}
    stack = [(start, 0, frozenset([start]))]
    while stack:
        h, spent, seen = stack.pop()
        for n in neighbours(h):
            c = costs.get(n)
            if c is None or n in seen or spent + c > budget:
                continue
            if spent + c < best.get(n, budget + 1) or n not in best:
                best[n] = min(best.get(n, budget + 1), spent + c)
            stack.append((n, spent + c, seen | {n}))
    return best


maps = st.lists(st.sampled_from([None, 0, 1, 1, 2, 3]), min_size=19, max_size=19)


@settings(max_examples=150, deadline=None)
@given(maps, st.integers(0, 6))
def test_reachable_equals_brute_force(cells: list[int | None], budget: int) -> None:
    board = dict(zip(spiral((0, 0), 2), cells, strict=True))
    board[(0, 0)] = 0

    def steps(h: Hex):  # type: ignore[no-untyped-def]
        for n in neighbours(h):
            c = board.get(n)
            if c is not None:
                yield n, c

    reach = reachable((0, 0), budget, steps)
    assert reach.cost == brute_force(board, (0, 0), budget)
    for node, cost in reach.cost.items():
        path = reach.path_to(node)
        assert sum(board[h] for h in path) == cost
        prev = (0, 0)
        for h in path:
            assert h in neighbours(prev)
            prev = h


def test_unlimited_budget_and_blocked_steps() -> None:
    board = {h: 1 for h in spiral((0, 0), 3)}
    blocked = {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)}

    def steps(h: Hex):  # type: ignore[no-untyped-def]
        for n in neighbours(h):
            if n in board and n not in blocked:
                yield n, board[n]

    reach = reachable((0, 0), None, steps)
    assert set(reach.cost) == set(board) - blocked
    assert reach.cost[(2, 0)] == 3  # around the wall, through (0, 1)


def test_ties_break_in_neighbour_order() -> None:
    board = {h: 1 for h in spiral((0, 0), 2)}

    def steps(h: Hex):  # type: ignore[no-untyped-def]
        for n in neighbours(h):
            if n in board:
                yield n, 1

    first = reachable((0, 0), 2, steps)
    again = reachable((0, 0), 2, steps)
    assert first.path_to((1, 1)) == again.path_to((1, 1)) == [(1, 0), (1, 1)]


def test_zero_cost_steps_and_negative_budget() -> None:
    line = {(i, 0): 0 for i in range(5)}

    def steps(h: Hex):  # type: ignore[no-untyped-def]
        n = (h[0] + 1, 0)
        if n in line:
            yield n, 0

    assert reachable((0, 0), 0, steps).cost == {(i, 0): 0 for i in range(5)}
    assert reachable((0, 0), -1, steps).cost == {}


def test_nodes_may_carry_more_than_a_position() -> None:
    # (position, used): one free step allowed along a line of cost-2 steps.
    def steps(node):  # type: ignore[no-untyped-def]
        (x, used) = node
        if x < 4:
            yield (x + 1, used), 2
            if not used:
                yield (x + 1, True), 0

    reach = reachable((0, False), 4, steps)
    best = {x: min(c for (y, _), c in reach.cost.items() if y == x)
            for x in {n[0] for n in reach.cost}}
    assert best == {0: 0, 1: 0, 2: 2, 3: 4}
    assert list(itertools.islice(reach.cost, 1)) == [(0, False)]

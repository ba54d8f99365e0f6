"""Reachability over small integer step costs with a budget.

The search knows nothing of rules: the caller passes ``steps(node)``, which yields the
nodes one step away with the cost of entering each (0 allowed, blocked steps simply not
yielded). Nodes are any hashable values; a ruleset that needs more than a position
(for instance "has the free city entry been used") folds it into the node.

It is Dijkstra with a bucket queue, because step costs are tiny integers: each bucket is
a FIFO, so among equally cheap paths the one found first wins, and "first" follows the
order in which ``steps`` yields — the tie-breaking is deterministic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from arbiter.engine.bounds import checkpoint

N = TypeVar("N", bound=Hashable)

StepFn = Callable[[N], Iterable[tuple[N, int]]]


@dataclass(frozen=True, slots=True)
class Reach(Generic[N]):
    """The cheapest cost of every node reachable within the budget, and one cheapest
    predecessor each (the start has none)."""

    start: N
    cost: dict[N, int]
    parent: dict[N, N]

    def path_to(self, node: N) -> list[N]:
        """The nodes from the start (excluded) to ``node`` (included)."""
        if node not in self.cost:
            raise KeyError(node)
        out: list[N] = []
        while node != self.start:
            out.append(node)
            node = self.parent[node]
        out.reverse()
        return out


def reachable(start: N, budget: int | None, steps: StepFn[N], max_step_cost: int = 8) -> Reach[N]:
    """Every node reachable from ``start`` for a total cost of at most ``budget``
    (``None``: unlimited). Step costs must lie in ``0..max_step_cost``."""
    if budget is not None and budget < 0:
        return Reach(start, {}, {})
    cost: dict[N, int] = {start: 0}
    parent: dict[N, N] = {}
    settled: set[N] = set()
    width = max_step_cost + 1
    # A circular array of FIFO buckets: costs pending lie within [current, current + width).
    buckets: list[deque[N]] = [deque() for _ in range(width)]
    buckets[0].append(start)
    pending = 1
    current = 0
    while pending:
        bucket = buckets[current % width]
        while bucket:
            node = bucket.popleft()
            pending -= 1
            if node in settled or cost[node] != current:
                continue
            settled.add(node)
            checkpoint()
            for nxt, step_cost in steps(node):
                if step_cost < 0 or step_cost > max_step_cost:
                    raise ValueError(f"step cost {step_cost} outside 0..{max_step_cost}")
                new_cost = current + step_cost
                if budget is not None and new_cost > budget:
                    continue
                if nxt in settled:
                    continue
                old = cost.get(nxt)
                if old is None or new_cost < old:
                    cost[nxt] = new_cost
                    parent[nxt] = node
                    buckets[new_cost % width].append(nxt)
                    pending += 1
        current += 1
    return Reach(start, cost, parent)

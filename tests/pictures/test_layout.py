"""The graph layout: the same graph always gets the same positions (in this process, and
in another one with another hash seed), no two nodes share a point, and the nodes joined
by an edge sit nearer each other than the others on average."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

from arbiter.pictures.layout import layout

RING = [f"r{i}" for i in range(12)]
EDGES = [(RING[i], RING[(i + 1) % 12]) for i in range(12)] + [("r0", "r6")]


def test_the_same_graph_gets_the_same_positions() -> None:
    assert layout(RING, EDGES) == layout(RING, EDGES)
    assert layout(RING, EDGES) == layout(RING, list(reversed(EDGES)))


def test_positions_do_not_depend_on_the_hash_seed() -> None:
    code = ("import json; from arbiter.pictures.layout import layout; "
            f"print(json.dumps(layout({RING!r}, {EDGES!r})))")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2", "3")}
    assert len(outputs) == 1
    assert [tuple(p) for p in json.loads(outputs.pop())] == layout(RING, EDGES)


def test_no_two_nodes_share_a_point_and_neighbours_sit_close() -> None:
    points = dict(zip(RING, layout(RING, EDGES), strict=True))
    assert len(set(points.values())) == len(RING)

    def far(a: str, b: str) -> float:
        return math.dist(points[a], points[b])

    joined = [far(a, b) for a, b in EDGES]
    others = [far(a, b) for a in RING for b in RING if a < b and (a, b) not in EDGES
              and (b, a) not in EDGES]
    assert sum(joined) / len(joined) < sum(others) / len(others)


def test_components_and_lone_nodes_are_laid_out_apart() -> None:
    points = layout(["a", "b", "c", "d"], [("a", "b")])
    assert len(set(points)) == 4
    assert min(x for x, _ in points) == 0 and min(y for _, y in points) == 0
    assert layout([], []) == []

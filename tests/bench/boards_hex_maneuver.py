"""Deterministic hex_maneuver boards for benchmarks: a hexagon of the given radius with
varied terrain, a sea, 20 armies for two players and a few cities."""

from __future__ import annotations

from typing import Any

from arbiter.engine.hexgrid import distance, spiral
from arbiter.engine.rng import SeededRng

TERRAINS = ("plains", "plains", "plains", "forest", "hills", "mountains", "swamp")


def board(radius: int, armies: int = 20, seed: int = 7) -> dict[str, Any]:
    rng = SeededRng(seed)
    cells = spiral((0, 0), radius)
    hexes = []
    for q, r in cells:
        # A sea band along one side, varied land elsewhere.
        terrain = "sea" if q >= radius - 1 and (q, r) != (0, 0) else TERRAINS[rng.below(7)]
        if (q, r) in ((0, 0), (-1, 0), (-2, 0)):
            terrain = "plains"  # the benchmark's maneuver crosses these
        hexes.append({"q": q, "r": r, "terrain": terrain, "province": f"p{(q // 3, r // 3)}"})
    land = [h for h, hx in zip(cells, hexes, strict=True) if hx["terrain"] != "sea"
            and h != (0, 0)]
    pieces = [{"id": "a0", "owner": "red", "hex": {"q": 0, "r": 0},
               "units": {"cavalrymen": 3, "archers": 1}}]
    used = {(0, 0)}
    spots = [h for h in land if distance(h, (0, 0)) >= 3]
    while len(pieces) < min(armies, len(spots) + 1):
        h = spots[rng.below(len(spots))]
        if h in used:
            continue
        used.add(h)
        owner = "red" if len(pieces) % 2 else "blue"
        pieces.append({"id": f"a{len(pieces)}", "owner": owner, "hex": {"q": h[0], "r": h[1]},
                       "units": {"swordsmen": 1 + rng.below(3), "archers": rng.below(2)}})
    structures = [{"id": f"c{i}", "kind": "city", "owner": "red" if i % 2 else "blue",
                   "hex": {"q": h[0], "r": h[1]}}
                  for i, h in enumerate(x for x in land if x not in used) if i < 4]
    return {"hexes": hexes, "players": [{"id": "red"}, {"id": "blue"}], "armies": pieces,
            "structures": structures}


def validate_body(radius: int) -> dict[str, Any]:
    return {"state": board(radius), "action": {
        "type": "maneuver", "player": "red", "army": "a0", "units": {"cavalrymen": 2},
        "path": [{"q": -1, "r": 0}, {"q": -2, "r": 0}]}}


def reachable_body(radius: int) -> dict[str, Any]:
    return {"state": board(radius), "army": "a0"}

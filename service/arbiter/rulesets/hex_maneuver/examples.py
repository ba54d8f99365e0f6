"""A small board a reader can paste: a radius-2 map with hills, a mountain, a sea with a
galley, Red's cavalry and archers, Red's city, and a blue army. Used in the OpenAPI
document, ``GET`` metadata and docs/getting-started.md."""

from __future__ import annotations

from typing import Any

from arbiter.engine.hexgrid import spiral
from arbiter.engine.ruleset import Examples

_TERRAIN = {(1, -1): "hills", (0, -1): "mountains", (-1, 0): "forest", (-2, 1): "sea",
            (-2, 2): "sea", (-1, 2): "sea", (2, -2): "swamp"}

EXAMPLE_STATE: dict[str, Any] = {
    "hexes": [{"q": q, "r": r, "terrain": _TERRAIN.get((q, r), "plains"), "province": "home"}
              for q, r in spiral((0, 0), 2)],
    "players": [{"id": "red", "voting_cubes": 3}, {"id": "blue", "voting_cubes": 3}],
    "armies": [
        {"id": "red-1", "owner": "red", "hex": {"q": 0, "r": 0},
         "units": {"cavalrymen": 3, "archers": 1}},
        {"id": "red-fleet", "owner": "red", "hex": {"q": -2, "r": 2}, "units": {"galley": 1}},
        {"id": "blue-1", "owner": "blue", "hex": {"q": 2, "r": 0}, "units": {"swordsmen": 2}},
    ],
    "structures": [{"id": "red-city", "kind": "city", "owner": "red", "hex": {"q": 1, "r": 0}}],
}

EXAMPLE_ACTION: dict[str, Any] = {
    "type": "maneuver", "player": "red", "army": "red-1", "units": {"cavalrymen": 2},
    "path": [{"q": 1, "r": -1}],
}

EXAMPLES = Examples(state=EXAMPLE_STATE, action=EXAMPLE_ACTION)

"""A small board a reader can paste: the worked example of the rulebook, where a race
enters the board through hills held by a Lost Tribe (3 tokens) and then marches on the
elves' neighbouring farmland. Used in the OpenAPI examples and in ``GET`` metadata."""

from __future__ import annotations

from typing import Any

from arbiter.engine.ruleset import Examples

EXAMPLE_STATE: dict[str, Any] = {
    "regions": [
        {"id": "sea", "kind": "sea", "edge": True, "adjacent": ["hills", "forest"]},
        {"id": "hills", "kind": "hill", "edge": True, "adjacent": ["sea", "farmland", "forest"],
         "lost_tribe": 1},
        {"id": "farmland", "kind": "farmland", "adjacent": ["hills", "forest", "mountain"]},
        {"id": "forest", "kind": "forest", "adjacent": ["sea", "hills", "farmland", "mountain"]},
        {"id": "mountain", "kind": "mountain", "edge": True, "adjacent": ["farmland", "forest"],
         "markers": {"mountain": 1}},
    ],
    "players": [
        {"id": "orcs", "hand": 10},
        {"id": "elves", "active": {"farmland": 2}},
    ],
    "turn": {"player": "orcs"},
}

EXAMPLE_ACTION: dict[str, Any] = {"type": "conquer", "player": "orcs", "region": "hills"}

EXAMPLES = Examples(state=EXAMPLE_STATE, action=EXAMPLE_ACTION)

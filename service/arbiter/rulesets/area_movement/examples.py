"""A small board a reader can paste: the Aegean, where red (second in census order, blue
having declared the end of his movement) sails the ship he built this turn from Athens to
Crete with three tokens, past Rhodes, which is out of play. Used in the OpenAPI examples
and in ``GET`` metadata."""

from __future__ import annotations

from typing import Any

from arbiter.engine.ruleset import Examples

EXAMPLE_STATE: dict[str, Any] = {
    "areas": [
        {"id": "athens", "land": ["thebes", "corinth"], "water": ["corinth", "aegean"],
         "coastal": True, "population_limit": 3, "city_site": True},
        {"id": "thebes", "land": ["athens", "corinth"], "population_limit": 2,
         "city_site": True},
        {"id": "corinth", "land": ["athens", "thebes"], "water": ["athens"], "coastal": True,
         "population_limit": 1},
        {"id": "rhodes", "water": ["aegean", "crete"], "coastal": True, "population_limit": 2,
         "out_of_play": True},
        {"id": "crete", "water": ["rhodes"], "coastal": True, "population_limit": 3,
         "city_site": True},
    ],
    "seas": [{"id": "aegean", "water": ["athens", "rhodes"]}],
    "cities": [{"area": "crete", "owner": "blue"}],
    "barbarians": {"thebes": 1},
    "players": [
        {"id": "red", "tokens": {"athens": 4, "corinth": 1}, "treasury": 3, "census": 5,
         "ast_rank": 2},
        {"id": "blue", "tokens": {"crete": 2}, "treasury": 1, "census": 7, "ast_rank": 1,
         "movement_ended": True},
    ],
    "ships": [{"id": "argo", "owner": "red", "area": "athens", "built_this_turn": True}],
}

EXAMPLE_ACTION: dict[str, Any] = {
    "type": "movement", "player": "red",
    "steps": [
        {"type": "move_tokens", "from_area": "corinth", "to_area": "thebes", "count": 1},
        {"type": "sail", "ship": "argo", "embark": 3,
         "path": [{"area": "aegean"}, {"area": "rhodes"}, {"area": "crete"}]},
        {"type": "end_movement"},
    ],
}

EXAMPLES = Examples(state=EXAMPLE_STATE, action=EXAMPLE_ACTION)

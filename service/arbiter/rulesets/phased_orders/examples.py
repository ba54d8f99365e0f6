"""A small board a reader can paste: a 7 by 5 valley with a road across its middle, where
Red (allied with Blue) and Green (at war with Blue) meet, a bandit lurks in a corner, and
the source's flying cavalry and archers stand ready. The action is one turn of orders
that resolves without a decision. Used in the OpenAPI examples and in ``GET`` metadata."""

from __future__ import annotations

from typing import Any

from arbiter.engine.ruleset import Examples

VALLEY: list[dict[str, Any]] = [
    {"q": q, "r": r, **({"road": True} if r == 2 else {})}
    for r in range(5) for q in range(7)]

EXAMPLE_STATE: dict[str, Any] = {
    "hexes": VALLEY,
    "players": [
        {"id": "red", "resources": 6, "gems": 4, "relations": {"blue": "allied"}},
        {"id": "green", "resources": 3, "relations": {"blue": "war"}},
        {"id": "blue", "resources": 2, "gems": 2,
         "relations": {"red": "allied", "green": "war"}},
    ],
    "units": [
        {"id": "red-cavalry", "owner": "red", "type": "flying_cavalry", "hex": {"q": 0, "r": 1},
         "move": 4, "flying": True, "hit_points": 6, "max_hit_points": 6, "strength": 3},
        {"id": "green-archers", "owner": "green", "type": "archers", "hex": {"q": 5, "r": 1},
         "move": 2, "archer": True, "range": 2, "hit_points": 4, "max_hit_points": 4,
         "strength": 2},
        {"id": "red-caravan", "owner": "red", "type": "caravan", "hex": {"q": 1, "r": 3},
         "move": 2, "hit_points": 2, "max_hit_points": 2, "strength": 1,
         "caravan": {"durability": 3, "resources": 2}},
        {"id": "blue-mage", "owner": "blue", "type": "mage", "hex": {"q": 3, "r": 4},
         "move": 2, "hit_points": 3, "max_hit_points": 3, "strength": 1,
         "spells": ["firebolt", "mend"], "abilities": ["scavenging"]},
        {"id": "bandit-1", "owner": "bandits", "type": "brigands", "hex": {"q": 6, "r": 4},
         "move": 3, "hit_points": 3, "max_hit_points": 3, "strength": 2},
    ],
    "strongholds": [
        {"id": "red-keep", "owner": "red", "hex": {"q": 1, "r": 3}, "resources": 4,
         "maximum": 10},
        {"id": "red-tower", "owner": "red", "hex": {"q": 2, "r": 0}, "resources": 3,
         "maximum": 6},
        {"id": "green-capital", "owner": "green", "hex": {"q": 6, "r": 0}, "capital": True,
         "resources": 9, "maximum": 8},
    ],
    "unit_types": [
        {"id": "spearmen", "cost": 3, "move": 2, "hit_points": 3, "strength": 2},
    ],
    "spells": [
        {"id": "firebolt", "gems": 2, "range": 3, "effect": "damage", "amount": 2},
        {"id": "mend", "gems": 1, "range": 2, "effect": "heal", "amount": 2},
    ],
    "abilities": [
        {"id": "scavenging", "effect": "gain_resources", "amount": 2},
        {"id": "stargazing", "effect": "report"},
    ],
    "rng": 1732,
}

EXAMPLE_ACTION: dict[str, Any] = {
    "type": "resolve",
    "orders": [
        {"order": "move", "player": "red", "unit": "red-cavalry",
         "path": [{"q": 1, "r": 1}, {"q": 1, "r": 2}, {"q": 2, "r": 2}]},
        {"order": "hold", "player": "green", "unit": "green-archers"},
        {"order": "load", "player": "red", "unit": "red-caravan", "amount": 2},
        {"order": "commission", "player": "red", "stronghold": "red-tower",
         "unit_type": "spearmen", "new_unit": "red-spearmen-1"},
        {"order": "ability", "player": "blue", "unit": "blue-mage", "ability": "scavenging"},
    ],
}

EXAMPLES = Examples(state=EXAMPLE_STATE, action=EXAMPLE_ACTION)

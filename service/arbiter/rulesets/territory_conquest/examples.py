"""A small Conquest board a reader can paste: two castles, each player's two home
territories, a contested centre and a sea. Red (6 soldier tokens) acts first and takes the
centre from Blue. Used in the OpenAPI document; the full-size illustrative
board is in tests/rulesets/territory_conquest_boards.py."""

from __future__ import annotations

from typing import Any

from arbiter.engine.ruleset import Examples

EXAMPLE_STATE: dict[str, Any] = {
    "territories": [
        {"id": "red-castle", "production": {"materials": 1, "gold": 1}},
        {"id": "blue-castle", "production": {"materials": 1, "gold": 1}},
        {"id": "south", "bonus_locations": [
            {"id": "south-trap", "effect": "trap_token"},
            {"id": "south-energy", "effect": "production", "icons": {"energy": 1}}],
         "victory_points": {"red": 1, "blue": 3}},
        {"id": "north", "bonus_locations": [
            {"id": "north-trap", "effect": "trap_token"},
            {"id": "north-energy", "effect": "production", "icons": {"energy": 1}}],
         "victory_points": {"red": 3, "blue": 1}},
        {"id": "centre", "bonus_locations": [
            {"id": "centre-destruction", "effect": "card_destruction"},
            {"id": "centre-gold", "effect": "production", "icons": {"gold": 1}}],
         "victory_points": {"red": 2, "blue": 2}},
        {"id": "sea", "kind": "sea", "bonus_locations": [
            {"id": "sea-double-move", "effect": "double_move"}],
         "victory_points": {"red": 2, "blue": 2}},
    ],
    "adjacent": [["red-castle", "south"], ["blue-castle", "north"], ["south", "centre"],
                 ["north", "centre"], ["centre", "sea"], ["south", "sea"], ["north", "sea"]],
    "players": [
        {"id": "red", "castle": "red-castle", "reserve": 8, "soldier_tokens": 6,
         "armies": {"south": 3, "red-castle": 1}, "on_bonus_locations": ["south-trap"],
         "trap_tokens": 1},
        {"id": "blue", "castle": "blue-castle", "reserve": 8, "soldier_tokens": 2,
         "armies": {"centre": 2, "north": 2}, "on_bonus_locations": ["centre-destruction"]},
    ],
    "round_first_player": "blue",
}

EXAMPLE_ACTION: dict[str, Any] = {
    "type": "move", "player": "red", "destination": "centre",
    "sources": [{"territory": "south", "count": 3, "from_bonus_locations": ["south-trap"]}],
    "placement": ["centre-destruction"],
}

EXAMPLES = Examples(state=EXAMPLE_STATE, action=EXAMPLE_ACTION)

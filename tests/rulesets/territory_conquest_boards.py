"""Shared boards of territory_conquest for the unit, property and golden tests and the bench.

The source text has no map: the Conquest board is printed. The board here is ILLUSTRATIVE,
built to the real game's size and anatomy — twelve territories including the two castles
and an inner sea, every territory but the castles with bonus locations carrying the listed
effects (trap and spy tokens, card destruction, double move, krystallium production,
production icons), production icons in each castle, and victory points per colour (more
for territories on the opponent's side). It is not a copy of either printed side.

    Blue's side (north)              blue-castle
                               north-west    north-east
              inner-sea    west      centre      east     highlands
                                                 mines
                               south-west    south-east
    Red's side (south)               red-castle

Adjacency (both ways): each castle borders its two home territories; the home territories
border each other and the centre; the west home territories touch the inner sea and the
west; the east ones touch the east and the highlands; west borders the sea and the centre;
the centre borders the east; the east, the highlands and the mines border each other.

At setup each player has 4 pawns on the 4 bonus locations of the territories beside their
castle (2 of them trap locations, so 2 trap tokens) and 8 in reserve.
"""

from __future__ import annotations

import copy
from typing import Any

RED, BLUE = "red", "blue"

ADJACENT: list[list[str]] = [
    ["red-castle", "south-west"], ["red-castle", "south-east"],
    ["blue-castle", "north-west"], ["blue-castle", "north-east"],
    ["south-west", "south-east"], ["north-west", "north-east"],
    ["south-west", "centre"], ["south-east", "centre"],
    ["north-west", "centre"], ["north-east", "centre"],
    ["south-west", "inner-sea"], ["north-west", "inner-sea"],
    ["south-west", "west"], ["north-west", "west"],
    ["south-east", "east"], ["north-east", "east"],
    ["south-east", "highlands"], ["north-east", "highlands"],
    ["west", "inner-sea"], ["west", "centre"], ["centre", "east"],
    ["east", "highlands"], ["east", "mines"], ["highlands", "mines"],
]


def _loc(id_: str, effect: str, **icons: int) -> dict[str, Any]:
    out: dict[str, Any] = {"id": id_, "effect": effect}
    if icons:
        out["icons"] = icons
    return out


def _territory(id_: str, locations: list[dict[str, Any]], red: int, blue: int,
               kind: str = "land") -> dict[str, Any]:
    return {"id": id_, "kind": kind, "bonus_locations": locations,
            "victory_points": {RED: red, BLUE: blue}}


TERRITORIES: list[dict[str, Any]] = [
    {"id": "red-castle", "production": {"materials": 1, "gold": 1}},
    {"id": "blue-castle", "production": {"materials": 1, "gold": 1}},
    _territory("south-west", [_loc("south-west-trap", "trap_token"),
                              _loc("south-west-materials", "production", materials=1)], 1, 3),
    _territory("south-east", [_loc("south-east-trap", "trap_token"),
                              _loc("south-east-energy", "production", energy=1)], 1, 3),
    _territory("north-west", [_loc("north-west-trap", "trap_token"),
                              _loc("north-west-materials", "production", materials=1)], 3, 1),
    _territory("north-east", [_loc("north-east-trap", "trap_token"),
                              _loc("north-east-energy", "production", energy=1)], 3, 1),
    _territory("west", [_loc("west-spy", "spy_token"),
                        _loc("west-science", "production", science=1)], 2, 2),
    _territory("east", [_loc("east-spy", "spy_token"),
                        _loc("east-science", "production", science=1)], 2, 2),
    _territory("centre", [_loc("centre-destruction", "card_destruction"),
                          _loc("centre-krystallium", "krystallium_production"),
                          _loc("centre-gold", "production", gold=1)], 4, 4),
    _territory("inner-sea", [_loc("inner-sea-double-move", "double_move"),
                             _loc("inner-sea-exploration", "production", exploration=1)],
               2, 2, kind="sea"),
    _territory("highlands", [_loc("highlands-double-move", "double_move"),
                             _loc("highlands-gold", "production", gold=1)], 3, 3),
    _territory("mines", [_loc("mines-krystallium", "krystallium_production"),
                         _loc("mines-materials", "production", materials=2)], 3, 3),
]

def player(id_: str, *, armies: dict[str, int], on: list[str] | None = None,
           soldier_tokens: int = 0) -> dict[str, Any]:
    """A player whose reserve, trap and spy tokens follow from the pawns placed."""
    on = on or []
    return {"id": id_, "castle": f"{id_}-castle", "reserve": 12 - sum(armies.values()),
            "armies": armies, "on_bonus_locations": on, "soldier_tokens": soldier_tokens,
            "trap_tokens": sum(1 for loc in on if loc.endswith("-trap")),
            "spy_tokens": sum(1 for loc in on if loc.endswith("-spy"))}


def state(red: dict[str, Any], blue: dict[str, Any], *, round_first_player: str = RED,
          conquest: dict[str, Any] | None = None,
          options: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "territories": copy.deepcopy(TERRITORIES),
        "adjacent": copy.deepcopy(ADJACENT),
        "players": [red, blue],
        "round_first_player": round_first_player,
    }
    if conquest is not None:
        out["conquest"] = conquest
    if options is not None:
        out["options"] = options
    return out


def setup_state(red_tokens: int = 4, blue_tokens: int = 4,
                round_first_player: str = RED) -> dict[str, Any]:
    """The board as set up (Setup: 4 pawns on the spaces beside each castle, 2 trap
    tokens each), at the start of a Conquest phase."""
    return state(
        player(RED, armies={"south-west": 2, "south-east": 2},
               on=["south-east-energy", "south-east-trap", "south-west-materials",
                   "south-west-trap"], soldier_tokens=red_tokens),
        player(BLUE, armies={"north-west": 2, "north-east": 2},
               on=["north-east-energy", "north-east-trap", "north-west-materials",
                   "north-west-trap"], soldier_tokens=blue_tokens),
        round_first_player=round_first_player)


def worked_example_state() -> dict[str, Any]:
    """Just before the source's example: Red to act, 2 pawns in the south-west (one on its
    trap location), 3 in the south-east (one on its energy location, one on its trap
    location), Blue holding the centre with 3 pawns (on card destruction and krystallium
    production, and one off the bonus locations)."""
    return state(
        player(RED, armies={"red-castle": 1, "south-west": 2, "south-east": 3, "west": 1},
               on=["south-west-trap", "south-east-trap", "south-east-energy", "west-spy"],
               soldier_tokens=6),
        player(BLUE, armies={"centre": 3, "north-west": 2, "north-east": 1, "blue-castle": 2},
               on=["centre-destruction", "centre-krystallium", "north-west-trap",
                   "north-west-materials", "north-east-trap"], soldier_tokens=3),
        conquest={"to_act": RED, "last_actions": [{"player": RED, "type": "recruit"},
                                                  {"player": BLUE, "type": "move"}]})


WORKED_EXAMPLE_MOVE: dict[str, Any] = {
    "type": "move", "player": RED, "destination": "centre",
    "sources": [
        {"territory": "south-west", "count": 2, "from_bonus_locations": ["south-west-trap"]},
        {"territory": "south-east", "count": 2, "from_bonus_locations": ["south-east-energy"]},
    ],
    "placement": ["centre-destruction"],
}


def mid_phase_state() -> dict[str, Any]:
    """A few rounds in, mid Conquest phase: both players spread over the board, Red holding
    a double move on the inner sea, Blue the highlands' double move and the east's spy.
    Red is to act with 9 soldier tokens."""
    return state(
        player(RED, armies={"red-castle": 2, "south-west": 2, "south-east": 1,
                            "inner-sea": 2, "west": 2, "centre": 1},
               on=["south-west-trap", "south-west-materials", "south-east-energy",
                   "inner-sea-double-move", "west-spy", "west-science", "centre-gold"],
               soldier_tokens=9),
        player(BLUE, armies={"blue-castle": 1, "north-west": 2, "north-east": 2, "east": 3,
                             "highlands": 1, "mines": 1},
               on=["north-west-trap", "north-east-trap", "north-east-energy", "east-spy",
                   "east-science", "highlands-double-move", "mines-krystallium"],
               soldier_tokens=5),
        round_first_player=BLUE,
        conquest={"to_act": RED, "last_actions": [{"player": RED, "type": "move"},
                                                  {"player": BLUE, "type": "recruit"}]})

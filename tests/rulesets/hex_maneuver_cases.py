"""The golden cases of hex_maneuver, written as small pictures of a board, each with the
sentence of ../shared/rules/hex_maneuver.md it is built from and its expected verdict,
worked out by hand from that sentence (never recorded from the engine's output).

`python -m tests.rulesets.hex_maneuver_cases` writes tests/cases/hex_maneuver/*.json;
tests/rulesets/test_hex_maneuver.py checks the committed files match this module.

Geometry: axial (q, r), pointy-top; the neighbours of (0,0) are E (1,0), NE (1,-1),
NW (0,-1), W (-1,0), SW (-1,1), SE (0,1). Provinces are 7-hex flowers; the flower next to
the home flower (centre (0,0)) towards the SE-E is centred at (2,1), towards the NE at
(3,-2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "cases" / "hex_maneuver"
FLOWER = [(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


def h(q: int, r: int) -> dict[str, int]:
    return {"q": q, "r": r}


def flower(center: tuple[int, int], province: str, terrain: dict[tuple[int, int], str] | None
           = None, explored: bool = True) -> list[dict[str, Any]]:
    out = []
    for dq, dr in FLOWER:
        q, r = center[0] + dq, center[1] + dr
        hx: dict[str, Any] = {"q": q, "r": r, "province": province, "explored": explored}
        if explored:
            hx["terrain"] = (terrain or {}).get((q, r), "plains")
        out.append(hx)
    return out


def grid(radius: int, terrain: dict[tuple[int, int], str] | None = None,
         province: str = "home") -> list[dict[str, Any]]:
    out = []
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
            out.append({"q": q, "r": r, "terrain": (terrain or {}).get((q, r), "plains"),
                        "province": province})
    return out


def army(id: str, owner: str, at: tuple[int, int], depletion: int = 0, **units: int
         ) -> dict[str, Any]:
    return {"id": id, "owner": owner, "hex": h(*at), "units": units, "depletion": depletion}


def state(hexes: list[dict[str, Any]], armies: list[dict[str, Any]], players: tuple[str, ...]
          = ("red", "blue"), **extra: Any) -> dict[str, Any]:
    return {"hexes": hexes, "players": [{"id": p, "voting_cubes": 2} for p in players],
            "armies": armies, **extra}


def maneuver(player: str, army_id: str, path: list[tuple[int, int]], **extra: Any
             ) -> dict[str, Any]:
    return {"type": "maneuver", "player": player, "army": army_id,
            "path": [h(*p) for p in path], **extra}


CASES: dict[str, dict[str, Any]] = {}


def case(name: str, description: str, source: str, st: dict[str, Any], action: dict[str, Any],
         expect: dict[str, Any], mode: str | None = None) -> None:
    body: dict[str, Any] = {"description": description, "source": source, "state": st,
                            "action": action, "expect": expect}
    if mode:
        body["mode"] = mode
    CASES[name] = body


# --- Worked examples of the source text ----------------------------------------------

case("mike_splits_two_cavalrymen",
     "Mike moves 2 of his 3 cavalrymen to the adjacent hex; the new army is depleted, the "
     "initial army (1 cavalrymen, 1 archer) is not.",
     "Mike splits 2 cavalrymen units, moves them to the adjacent hex, and puts a depletion "
     "cube on this new army. The initial army with 1 cavalrymen unit and 1 archer unit does "
     "not get a depletion cube.",
     state(grid(2), [army("m1", "mike", (0, 0), cavalrymen=3, archers=1)], ("mike", "nadia")),
     maneuver("mike", "m1", [(1, 0)], units={"cavalrymen": 2}),
     {"legal": True, "codes": [], "applied": True,
      "state": {"armies": [
          {"id": "m1", "hex": h(0, 0), "units": {"archers": 1, "cavalrymen": 1},
           "depletion": 0},
          {"id": "m1.1", "hex": h(1, 0), "units": {"cavalrymen": 2}, "depletion": 1}]},
      "events": ["army_split", "army_moved", "depletion_placed"],
      "derived": {"movement_points": 3, "cost": 1}})

case("nadia_picks_up_into_four_cavalrymen",
     "Nadia's 2 cavalrymen pass two hexes holding her other armies, pick up 1 cavalrymen from "
     "each, and land as 4 cavalrymen with a depletion cube.",
     "Nadia starts the movement with her army of 2 cavalrymen units and moves through the "
     "hexes with her other armies. She picks up 1 cavalrymen unit from each hex along the "
     "way. As a result, her new army of 4 cavalrymen units land on the destination hex, "
     "receives a depletion cube and is ready to attack.",
     state(grid(3), [army("n1", "nadia", (0, 0), cavalrymen=2),
                     army("n2", "nadia", (1, 0), cavalrymen=2),
                     army("n3", "nadia", (2, 0), cavalrymen=1),
                     army("b1", "mike", (3, -1), swordsmen=1)], ("mike", "nadia")),
     maneuver("nadia", "n1", [(1, 0), (2, 0), (2, -1)],
              pickups=[{"army": "n2", "units": {"cavalrymen": 1}},
                       {"army": "n3", "units": {"cavalrymen": 1}}]),
     {"legal": True, "codes": [], "applied": True,
      "state": {"armies": [
          {"id": "n2", "hex": h(1, 0), "units": {"cavalrymen": 1}, "depletion": 0},
          {"id": "b1", "hex": h(3, -1), "units": {"swordsmen": 1}, "depletion": 0},
          {"id": "n1", "hex": h(2, -1), "units": {"cavalrymen": 4}, "depletion": 1}]},
      "events": ["units_picked_up", "units_picked_up", "army_moved", "depletion_placed"],
      "derived": {"cost": 3, "movement_points": 3,
                  "in_range": [{"kind": "army", "id": "b1", "owner": "mike", "hex": h(3, -1),
                                "distance": 1, "units": ["cavalrymen"]}]}})

# Mike's galley: ocean (1,0), ocean (2,0), sea of an explored tile (3,-1), (4,-2), ocean
# (5,-2); the swordsman stands on land at (6,-1), 2 hexes from (5,-2): within 1-2.
_galley_terrain = {(0, 0): "ocean", (1, 0): "ocean", (2, 0): "ocean", (3, -1): "sea",
                   (4, -2): "sea", (5, -2): "ocean"}
_galley_hexes = [
    {"q": q, "r": r, "terrain": t, "province": "tile-7" if t == "sea" else "open-sea"}
    for (q, r), t in _galley_terrain.items()] + [
    {"q": 6, "r": -1, "terrain": "plains", "province": "isle"},
    {"q": 6, "r": -2, "terrain": "plains", "province": "isle"}]
case("mike_galley_five_hexes_then_in_range",
     "Mike's galley moves 5 hexes: two of ocean, then the sea of an explored tile, finishing "
     "in the ocean, from where a swordsman 2 hexes away is within its ranged attack.",
     "Mike maneuvers his galley, moving it 5 hexes away. The first two hexes are through the "
     "ocean, followed by movement through the sea on an explored province tile, and finishing "
     "in the ocean. From that spot, it attacks a swordsman unit that is within its attack "
     "range.",
     state(_galley_hexes, [army("g1", "mike", (0, 0), galley=1),
                           army("s1", "nadia", (6, -1), swordsmen=1)], ("mike", "nadia")),
     maneuver("mike", "g1", [(1, 0), (2, 0), (3, -1), (4, -2), (5, -2)]),
     {"legal": True, "codes": [], "applied": True,
      "state": {"armies": [
          {"id": "s1", "hex": h(6, -1)},
          {"id": "g1", "hex": h(5, -2), "units": {"galley": 1}, "depletion": 1}]},
      "derived": {"cost": 5, "movement_points": 5,
                  "in_range": [{"kind": "army", "id": "s1", "owner": "nadia", "hex": h(6, -1),
                                "distance": 2, "units": ["galley"]}]}})

# Alex: home flower at (0,0), unexplored flower P2 centred at (2,1). Swordsmen at (1,0)
# claim hex A = (2,0), the NW hex of P2. The tile shows a solid relic symbol on its E hex
# and a forest on its NW hex: unturned, A would be forest; turned 2 sixths
# (E -> NE -> NW), the relic symbol lies on A.
_alex_tile = {"id": "t-alex", "hexes": [
    {"dq": 0, "dr": 0, "terrain": "plains"},
    {"dq": 1, "dr": 0, "terrain": "plains", "relic_symbol": "solid"},
    {"dq": 1, "dr": -1, "terrain": "hills"},
    {"dq": 0, "dr": -1, "terrain": "forest"},
    {"dq": -1, "dr": 0, "terrain": "plains"},
    {"dq": -1, "dr": 1, "terrain": "plains"},
    {"dq": 0, "dr": 1, "terrain": "plains"}]}


def alex_state(**extra: Any) -> dict[str, Any]:
    st = state(flower((0, 0), "home") + flower((2, 1), "P2", explored=False),
               [army("x1", "alex", (1, 0), swordsmen=1)], ("alex", "bea"))
    st["relics"] = {"total": 3, "to_place": 3, "bag": ["crown", "chalice", "sword"],
                    "placed": []}
    st["events"] = {"deck": [], "rows": [[{"card": "e1", "voting_cubes": ["bea"]}]]}
    st.update(extra)
    return st


def explore(player: str, army_id: str, path: list[tuple[int, int]], **extra: Any
            ) -> dict[str, Any]:
    return {"type": "explore", "player": player, "army": army_id,
            "path": [h(*p) for p in path], **extra}


case("alex_explores_with_rotated_tile_and_relic",
     "Alex claims hex A of the unexplored province, turns the tile so its relic symbol lies "
     "on A rather than the forest, places the relic, moves his swordsmen there with a "
     "depletion cube, flips an event card next to the previous one and puts his voting cube "
     "on it.",
     "Alex considers different options while placing a tile, and decides he needs to obtain "
     "a relic more than to have an access to the forest. Therefore, he rotates the tile, "
     "places a relic on a hex with its symbol, moves his swordsmen and puts a depletion cube "
     "there.",
     alex_state(),
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=2, relic="crown",
             event_card="e2"),
     {"legal": True, "codes": [], "applied": True, "reversible": False,
      "state": {
          "hexes": [*flower((0, 0), "home"),
              {"q": 2, "r": 1, "terrain": "plains", "province": "P2", "explored": True},
              {"q": 3, "r": 1, "terrain": "plains", "province": "P2", "explored": True},
              {"q": 3, "r": 0, "terrain": "plains", "province": "P2", "explored": True},
              {"q": 2, "r": 0, "terrain": "plains", "province": "P2", "explored": True},
              {"q": 1, "r": 1, "terrain": "hills", "province": "P2", "explored": True},
              {"q": 1, "r": 2, "terrain": "forest", "province": "P2", "explored": True},
              {"q": 2, "r": 2, "terrain": "plains", "province": "P2", "explored": True}],
          "armies": [{"id": "x1", "hex": h(2, 0), "units": {"swordsmen": 1},
                      "depletion": 1}],
          "relics": {"to_place": 2, "bag": ["chalice", "sword"],
                     "placed": [{"relic": "crown", "hex": h(2, 0)}]},
          "events": {"rows": [[{"card": "e1", "voting_cubes": ["bea"]},
                               {"card": "e2", "voting_cubes": ["alex"]}]]},
          "players": [{"id": "alex", "voting_cubes": 1}, {"id": "bea", "voting_cubes": 2}]},
      "events": ["tile_placed", "relic_placed", "army_moved", "depletion_placed",
                 "event_card_flipped", "voting_cube_placed"],
      "derived": {"rotation": 2, "landed": True, "cost": 2,
                  "relic": {"due": True, "relic": "crown", "hex": h(2, 0)}}})

# --- maneuver.1, maneuver.5: whose army, and undepleted -------------------------------

case("not_your_army",
     "Red names Blue's army: a player moves only their own armies.",
     "Choose one of your undepleted armies and move it up to its movement points across the "
     "map.",
     state(grid(2), [army("b1", "blue", (0, 0), swordsmen=1)]),
     maneuver("red", "b1", [(1, 0)]),
     {"legal": False, "codes": ["not_your_army"], "applied": False})

case("depleted_army_cannot_move",
     "An army carrying a depletion cube cannot be chosen to maneuver.",
     "Choose one of your undepleted armies and move it up to its movement points across the "
     "map.",
     state(grid(2), [army("r1", "red", (0, 0), depletion=1, swordsmen=1)]),
     maneuver("red", "r1", [(1, 0)]),
     {"legal": False, "codes": ["army_depleted"]})

case("stay_put_and_deplete",
     "An army may move 0 hexes and is still depleted.",
     "An army may move 0 hexes (stay on its hex) and still be marked depleted.",
     state(grid(1), [army("r1", "red", (0, 0), archers=2)]),
     maneuver("red", "r1", []),
     {"legal": True, "codes": [],
      "state": {"armies": [{"id": "r1", "hex": h(0, 0), "units": {"archers": 2},
                            "depletion": 1}]},
      "derived": {"cost": 0}})

case("path_must_be_adjacent",
     "A path that jumps two hexes in one step is not a path.",
     "Choose one of your undepleted armies and move it up to its movement points across the "
     "map.",
     state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(2, 0)]),
     {"legal": False, "codes": ["path_not_adjacent"]})

# --- maneuver.2: enemy objects --------------------------------------------------------

case("cannot_pass_through_enemy_army",
     "The path crosses a hex holding an enemy army.",
     "You cannot move through or finish your movement in hexes with enemy objects.",
     state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                     army("b1", "blue", (1, 0), peasants=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0)]),
     {"legal": False, "codes": ["enemy_in_path"]})

case("cannot_finish_on_enemy_city",
     "The path ends on an enemy city: enemy objects include structures.",
     "You cannot move through or finish your movement in hexes with enemy objects.",
     state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1)],
           structures=[{"id": "bc", "kind": "city", "owner": "blue", "hex": h(1, 0)}]),
     maneuver("red", "r1", [(1, 0)]),
     {"legal": False, "codes": ["enemy_at_destination"]})

# --- movement.1, terrain.1-4, march.1 --------------------------------------------------

case("infantry_cannot_walk_three_plains",
     "Swordsmen have 2 movement points; three plains cost 3.",
     "Entering an ordinary land hex costs 1 MP.",
     state(grid(3), [army("r1", "red", (0, 0), swordsmen=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)]),
     {"legal": False, "codes": ["over_movement_points"]})

case("slowest_unit_sets_the_pace",
     "Cavalrymen (3 MP) moving with a catapult (1 MP) go no further than 1 MP.",
     "Make sure to move no further than the movement points of the slowest unit among the "
     "moved ones.",
     state(grid(2), [army("r1", "red", (0, 0), cavalrymen=2, catapult=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0)]),
     {"legal": False, "codes": ["over_movement_points"]})

case("mountains_cost_two",
     "Cavalrymen enter a mountains hex for 2 MP and a plains hex for 1: 3 MP in all.",
     "Entering a mountains hex, a swamp hex, or a hex of an unexplored province costs 2 MP "
     "(the latter whatever its terrain turns out to be).",
     state(grid(2, {(1, 0): "mountains"}), [army("r1", "red", (0, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0)]),
     {"legal": True, "codes": [], "derived": {"cost": 3}})

case("swamp_costs_two",
     "Swordsmen (2 MP) cannot cross a swamp (2 MP) and then a plains hex (1 MP).",
     "Entering a mountains hex, a swamp hex, or a hex of an unexplored province costs 2 MP "
     "(the latter whatever its terrain turns out to be).",
     state(grid(2, {(1, 0): "swamp"}), [army("r1", "red", (0, 0), swordsmen=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0)]),
     {"legal": False, "codes": ["over_movement_points"]})

case("own_city_free_once",
     "Swordsmen pass two of their own cities on plains: one entry is free, the other costs "
     "1, and a third plains hex makes 2 MP in all.",
     "Entering one of your own cities or castles costs 0 MP, at most once per maneuver.",
     state(grid(3), [army("r1", "red", (0, 0), swordsmen=1)],
           structures=[{"id": "c1", "kind": "city", "owner": "red", "hex": h(1, 0)},
                       {"id": "c2", "kind": "castle", "owner": "red", "hex": h(2, 0)}]),
     maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)]),
     {"legal": True, "codes": [], "derived": {"cost": 2}})

case("own_city_free_on_the_dearest_entry",
     "Of two own cities on the path, the one on mountains is entered for free and the one on "
     "plains costs 1: cavalrymen spend 1 + 0 + 1 + 1 = 3 MP (freeing the plains city instead "
     "would make 4).",
     "A maneuver whose total cost exceeds the movement points is illegal however the path is "
     "drawn; when only one of two own cities on the path can be entered for 0 MP, the other "
     "costs its terrain's price.",
     state(grid(3, {(2, 0): "mountains"}), [army("r1", "red", (0, 0), cavalrymen=1)],
           structures=[{"id": "c1", "kind": "city", "owner": "red", "hex": h(1, 0)},
                       {"id": "c2", "kind": "city", "owner": "red", "hex": h(2, 0)}]),
     maneuver("red", "r1", [(1, 0), (2, 0), (3, 0), (3, -1)]),
     {"legal": True, "codes": [], "derived": {"cost": 3}})

case("march_gives_one_more_point_and_two_cubes",
     "Swordsmen march 3 plains hexes with the extra movement point and receive 2 depletion "
     "cubes.",
     "March: an army may take 1 extra movement point; it then receives 2 depletion cubes "
     "instead of 1.",
     state(grid(3), [army("r1", "red", (0, 0), swordsmen=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)], march=True),
     {"legal": True, "codes": [],
      "state": {"armies": [{"id": "r1", "hex": h(3, 0), "depletion": 2}]},
      "derived": {"cost": 3, "movement_points": 3, "march": True}})

case("march_switched_off",
     "A game whose options turn marching off refuses a march.",
     "March: an army may take 1 extra movement point; it then receives 2 depletion cubes "
     "instead of 1.",
     state(grid(2), [army("r1", "red", (0, 0), swordsmen=1)], options={"march": False}),
     maneuver("red", "r1", [(1, 0)], march=True),
     {"legal": False, "codes": ["march_not_allowed"]})

case("trebuchet_must_pack_first",
     "An unpacked trebuchet (1 MP) spends its point packing and cannot also enter a hex.",
     "trebuchet | siege engine | 1 (moves only when packed; packing or unpacking costs 1 MP)",
     state(grid(2), [{**army("r1", "red", (0, 0), trebuchet=1), "unpacked": 1}]),
     maneuver("red", "r1", [(1, 0)]),
     {"legal": False, "codes": ["over_movement_points"]})

case("packed_trebuchet_moves",
     "A packed trebuchet moves its 1 hex.",
     "trebuchet | siege engine | 1 (moves only when packed; packing or unpacking costs 1 MP)",
     state(grid(2), [army("r1", "red", (0, 0), trebuchet=1)]),
     maneuver("red", "r1", [(1, 0)]),
     {"legal": True, "codes": []})

# --- split.1-2, merge.1, pickup.1 -------------------------------------------------------

case("drop_units_along_the_way",
     "Cavalrymen drop an archer's pile after the first hex; the dropped army is depleted too.",
     "Alternatively, you can drop units on hexes along the way while moving.",
     state(grid(3), [army("r1", "red", (0, 0), cavalrymen=2, archers=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)],
              drops=[{"hex": h(1, 0), "units": {"archers": 1}}]),
     {"legal": True, "codes": [],
      "state": {"armies": [
          {"id": "r1.1", "hex": h(1, 0), "units": {"archers": 1}, "depletion": 1},
          {"id": "r1", "hex": h(3, 0), "units": {"cavalrymen": 2}, "depletion": 1}]},
      "events": ["units_dropped", "army_moved", "depletion_placed"]})

case("dropped_units_must_reach_their_hex",
     "A catapult (1 MP) cannot be dropped 2 hexes along the way.",
     "Newly formed armies left behind while moving (units dropped along the way) are also "
     "depleted.",
     state(grid(3), [army("r1", "red", (0, 0), cavalrymen=2, catapult=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)],
              drops=[{"hex": h(2, 0), "units": {"catapult": 1}}]),
     {"legal": False, "codes": ["dropped_beyond_reach"]})

case("drop_off_the_path",
     "Units cannot be dropped on a hex the path does not pass.",
     "Alternatively, you can drop units on hexes along the way while moving.",
     state(grid(3), [army("r1", "red", (0, 0), cavalrymen=2, archers=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0)], drops=[{"hex": h(0, 1), "units": {"archers": 1}}]),
     {"legal": False, "codes": ["drop_not_on_path"]})

case("merge_with_own_army",
     "An army moving onto a hex with another of the player's armies joins it; the joined "
     "army is depleted.",
     "You can combine your armies - move your army to the hex with your another army and "
     "merge the units of the same types in separate piles.",
     state(grid(2), [army("r1", "red", (0, 0), swordsmen=1),
                     army("r2", "red", (1, 0), swordsmen=2, archers=1)]),
     maneuver("red", "r1", [(1, 0)]),
     {"legal": True, "codes": [],
      "state": {"armies": [{"id": "r2", "hex": h(1, 0),
                            "units": {"archers": 1, "swordsmen": 3}, "depletion": 1}]},
      "events": ["army_moved", "armies_merged", "depletion_placed"]})

case("pickup_from_a_depleted_army",
     "Depleted units cannot be picked up.",
     "Or you pick up your undepleted units along the way of your army, and combine them on "
     "the destination hex.",
     state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                     army("r2", "red", (1, 0), depletion=1, cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0)], pickups=[{"army": "r2", "units": {"cavalrymen": 1}}]),
     {"legal": False, "codes": ["pickup_depleted"]})

case("pickup_from_an_enemy",
     "Only your own units can be picked up (and an enemy's hex cannot be entered).",
     "Or you pick up your undepleted units along the way of your army, and combine them on "
     "the destination hex.",
     state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                     army("b1", "blue", (0, 1), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0)], pickups=[{"army": "b1", "units": {"cavalrymen": 1}}]),
     {"legal": False, "codes": ["pickup_not_on_path", "pickup_not_own"]})

case("pickup_off_the_path",
     "An army the path does not pass cannot give units.",
     "Or you pick up your undepleted units along the way of your army, and combine them on "
     "the destination hex.",
     state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                     army("r2", "red", (0, 1), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0)], pickups=[{"army": "r2", "units": {"cavalrymen": 1}}]),
     {"legal": False, "codes": ["pickup_not_on_path"]})

case("picked_up_units_slow_the_army",
     "Cavalrymen that pick up swordsmen (2 MP) on the first hex may not go 3 hexes.",
     "the whole path, measured from the start hex, must fit within the movement points of the "
     "slowest unit of the final army (the army that arrives, including picked-up units).",
     state(grid(3), [army("r1", "red", (0, 0), cavalrymen=1),
                     army("r2", "red", (1, 0), swordsmen=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)],
              pickups=[{"army": "r2", "units": {"swordsmen": 1}}]),
     {"legal": False, "codes": ["over_movement_points"]})

# --- vessel.1, peasant_sea.1, ferry.1-2 ---------------------------------------------------

case("vessel_cannot_enter_land",
     "A galley cannot sail onto a plains hex.",
     "Vessels can be placed at and move through sea and ocean hexes only.",
     state(grid(1, {(0, 0): "sea", (1, 0): "sea"}), [army("g1", "red", (0, 0), galley=1)]),
     maneuver("red", "g1", [(1, 0), (1, -1)]),
     {"legal": False, "codes": ["vessel_off_water"]})

case("peasants_wade_into_the_sea",
     "Peasants enter a sea hex for 2 movement points.",
     "Peasants may enter a sea hex by spending 2 movement points.",
     state(grid(1, {(1, 0): "sea"}), [army("p1", "red", (0, 0), peasants=2)]),
     maneuver("red", "p1", [(1, 0)]),
     {"legal": True, "codes": [], "derived": {"cost": 2}})

case("peasants_not_into_the_ocean",
     "Peasants may wade into the sea, but not into the ocean.",
     "Peasants may enter a sea hex (not ocean) for 2 MP.",
     state(grid(1, {(1, 0): "ocean"}), [army("p1", "red", (0, 0), peasants=2)]),
     maneuver("red", "p1", [(1, 0)]),
     {"legal": False, "codes": ["peasants_into_ocean"]})

case("swordsmen_need_a_ferry",
     "Swordsmen cannot walk into the sea with no vessel of theirs on or next to it.",
     "Other land units require ferrying to cross water.",
     state(grid(2, {(1, 0): "sea"}), [army("r1", "red", (0, 0), swordsmen=1)]),
     maneuver("red", "r1", [(1, 0)]),
     {"legal": False, "codes": ["water_needs_ferry"]})

case("depleted_galley_ferries_across_the_sea",
     "Swordsmen cross two sea hexes next to their depleted galley at 0 MP, then walk two "
     "plains hexes for 1 MP each.",
     "Your vessels can ferry your land units across seas and oceans (even if vessels are "
     "depleted).",
     state(grid(3, {(1, 0): "sea", (2, 0): "sea", (1, 1): "sea", (2, -1): "ocean"}),
           [army("r1", "red", (0, 0), swordsmen=2),
            army("g1", "red", (1, 1), depletion=1, galley=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0), (3, 0), (3, -1)]),
     {"legal": True, "codes": [], "derived": {"cost": 2, "ferried": True},
      "state": {"armies": [{"id": "g1", "hex": h(1, 1), "depletion": 1},
                           {"id": "r1", "hex": h(3, -1), "depletion": 1}]}})

case("ferry_over_mountains_next_to_a_vessel",
     "Next to a vessel even a mountains hex costs a land unit 0 MP.",
     "During a maneuver, your land units may move to a hex with a vessel or to any hex "
     "adjacent to a vessel, spending 0 movement points, regardless of the terrain type (sea, "
     "ocean, mountains, swamp, or unexplored hex).",
     state(grid(2, {(1, 0): "mountains", (2, -1): "sea", (0, -1): "swamp"}),
           [army("r1", "red", (0, 0), catapult=1), army("g1", "red", (2, -1), galley=1)]),
     maneuver("red", "r1", [(1, 0)]),
     {"legal": True, "codes": [], "derived": {"cost": 0, "ferried": True}})

# --- explore.1-5 ------------------------------------------------------------------------

case("maneuver_cannot_enter_unexplored",
     "A plain maneuver may not step into an unexplored province: that is an exploration.",
     "In order to move onto the unexplored province, choose the army to maneuver and claim "
     "the exact hex where you would like to land on.",
     alex_state(),
     maneuver("alex", "x1", [(2, 0)]),
     {"legal": False, "codes": ["unexplored_needs_explore"]})

case("peasants_cannot_explore",
     "Peasants have no attack: they cannot move onto a new province.",
     "Only military units can explore and move onto the new provinces.",
     alex_state(armies=[army("x1", "alex", (1, 0), peasants=1)]),
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=0, relic="crown",
             event_card="e2"),
     {"legal": False, "codes": ["explorer_not_military"]})

case("claim_must_be_unexplored",
     "An exploration whose path ends on an explored hex claims nothing to explore.",
     "In order to move onto the unexplored province, choose the army to maneuver and claim "
     "the exact hex where you would like to land on.",
     alex_state(),
     explore("alex", "x1", [(1, -1)], tile=_alex_tile, rotation=0, event_card="e2"),
     {"legal": False, "codes": ["claim_not_unexplored"]})

case("tile_must_cover_the_province",
     "A three-hex tile cannot cover a seven-hex province.",
     "Then flip the province tile and decide exactly how you want to place it on the map.",
     alex_state(),
     explore("alex", "x1", [(2, 0)], tile={"id": "t-small", "hexes": [
         {"dq": 0, "dr": 0, "terrain": "plains"}, {"dq": 1, "dr": 0, "terrain": "plains"},
         {"dq": 0, "dr": 1, "terrain": "plains"}]}, rotation=0, event_card="e2"),
     {"legal": False, "codes": ["tile_does_not_fit"]})

case("no_tile_to_flip",
     "Table mode names the flipped tile; with none named and no tile stack there is nothing "
     "to place.",
     "Then flip the province tile and decide exactly how you want to place it on the map.",
     alex_state(),
     explore("alex", "x1", [(2, 0)], event_card="e2"),
     {"legal": False, "codes": ["no_tile_to_flip"]})

# The sea province S (centred (3,-2)) borders P2's hexes (3,0) and (2,0). A tile with one
# sea hex at its E offset: turned 1 sixth the sea lies on (3,0), touching S, and A = (2,0)
# stays plains (both conditions); unturned the sea lies on (3,1), touching no water
# (condition 2 only); turned 2 sixths the sea lies on A itself (condition 1 only).
_sea_tile = {"id": "t-sea", "hexes": [
    {"dq": 0, "dr": 0, "terrain": "plains"}, {"dq": 1, "dr": 0, "terrain": "sea"},
    {"dq": 1, "dr": -1, "terrain": "plains"}, {"dq": 0, "dr": -1, "terrain": "plains"},
    {"dq": -1, "dr": 0, "terrain": "plains"}, {"dq": -1, "dr": 1, "terrain": "plains"},
    {"dq": 0, "dr": 1, "terrain": "forest"}]}


def sea_state(**extra: Any) -> dict[str, Any]:
    st = alex_state(**extra)
    st["hexes"] = st["hexes"] + flower((3, -2), "S", {(3 + dq, -2 + dr): "sea"
                                                      for dq, dr in FLOWER})
    return st


case("placement_must_continue_the_sea",
     "Alex leaves the tile unturned although turning it one sixth would both continue the "
     "neighbouring sea and let him land.",
     "If those two conditions are impossible to meet at once, fulfill one at least (first is "
     "of higher priority).",
     sea_state(),
     explore("alex", "x1", [(2, 0)], tile=_sea_tile, rotation=0, event_card="e2"),
     {"legal": False, "codes": ["placement_priority_ignored"],
      "derived": {"rotations": [
          {"rotation": 0, "fits": True, "conditions": ["army_can_land"]},
          {"rotation": 1, "fits": True, "conditions": ["water_continues", "army_can_land"]},
          {"rotation": 2, "fits": True, "conditions": ["water_continues"]},
          {"rotation": 3, "fits": True, "conditions": ["army_can_land"]},
          {"rotation": 4, "fits": True, "conditions": ["army_can_land"]},
          {"rotation": 5, "fits": True, "conditions": ["army_can_land"]}]}})

case("placement_meeting_both_conditions",
     "Turned one sixth, the tile continues the sea and Alex lands on plains.",
     "If those two conditions are impossible to meet at once, fulfill one at least (first is "
     "of higher priority).",
     sea_state(),
     explore("alex", "x1", [(2, 0)], tile=_sea_tile, rotation=1, event_card="e2"),
     {"legal": True, "codes": [],
      "state": {"armies": [{"id": "x1", "hex": h(2, 0), "depletion": 1}]},
      "derived": {"rotation": 1, "landed": True}})

_all_sea_tile = {"id": "t-lagoon", "hexes": [
    {"dq": dq, "dr": dr, "terrain": "sea"} for dq, dr in FLOWER]}

case("army_stays_when_it_cannot_land",
     "The tile is all sea: every turn continues the sea, none lets the swordsman land, so he "
     "stays where he was, undepleted, and the tile stays placed.",
     "If your army cannot move onto the claimed destination hex, it stays in its current "
     "position.",
     sea_state(),
     explore("alex", "x1", [(2, 0)], tile=_all_sea_tile, rotation=3, event_card="e2"),
     {"legal": True, "codes": [], "reversible": False,
      "state": {"armies": [{"id": "x1", "hex": h(1, 0), "depletion": 0}],
                "events": {"rows": [[{"card": "e1"}, {"card": "e2"}]]}},
      "events": ["tile_placed", "landing_failed", "event_card_flipped",
                 "voting_cube_placed"],
      "derived": {"landed": False}})

# --- relic.1-3, event.1-2 ----------------------------------------------------------------

_outlined_tile = {"id": "t-out", "hexes": [
    {"dq": 0, "dr": 0, "terrain": "hills", "relic_symbol": "outlined"},
    *[{"dq": dq, "dr": dr, "terrain": "plains"} for dq, dr in FLOWER[1:]]]}

case("outlined_relic_placed_when_relics_outnumber_provinces",
     "One relic left and no other unexplored province: the outlined symbol gets the relic.",
     "Outlined symbol: place a relic here only when the number of relics left to place "
     "exceeds the number of unexplored provinces remaining.",
     alex_state(relics={"total": 3, "to_place": 1, "bag": ["sword"], "placed": [
         {"relic": "crown", "hex": h(0, 0)}, {"relic": "chalice", "hex": h(-1, 0)}]}),
     explore("alex", "x1", [(2, 0)], tile=_outlined_tile, rotation=0, relic="sword",
             event_card="e2"),
     {"legal": True, "codes": [],
      "state": {"relics": {"to_place": 0, "bag": [],
                           "placed": [{"relic": "crown"}, {"relic": "chalice"},
                                      {"relic": "sword", "hex": h(2, 1)}]}}})

case("outlined_relic_not_due",
     "One relic left and another unexplored province remaining: no relic on an outlined "
     "symbol, so naming one is wrong.",
     "Outlined symbol: place a relic here only when the number of relics left to place "
     "exceeds the number of unexplored provinces remaining.",
     alex_state(hexes=flower((0, 0), "home") + flower((2, 1), "P2", explored=False)
                + flower((-2, -1), "P3", explored=False),
                relics={"total": 3, "to_place": 1, "bag": ["sword"], "placed": [
                    {"relic": "crown", "hex": h(0, 0)}, {"relic": "chalice", "hex": h(-1, 0)}]}),
     explore("alex", "x1", [(2, 0)], tile=_outlined_tile, rotation=0, relic="sword",
             event_card="e2"),
     {"legal": False, "codes": ["relic_not_due"]})

case("solid_relic_needs_a_draw",
     "A solid symbol with relics left needs a relic drawn: table mode must name it.",
     "Solid symbol: place a relic here if there are still relics to be placed in this game.",
     alex_state(),
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=2, event_card="e2"),
     {"legal": False, "codes": ["relic_draw_missing"]})

case("event_card_must_be_flipped",
     "Exploring flips an event card: table mode names it.",
     "Flip the top card from the event deck and place it in a row of up to three cards.",
     alex_state(),
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=2, relic="crown"),
     {"legal": False, "codes": ["event_card_missing"]})

case("full_event_row_starts_another",
     "The row already holds three cards: the new card begins a second row.",
     "If the row of three cards is completed - begin another row.",
     alex_state(events={"deck": [], "rows": [[{"card": "e1", "voting_cubes": []},
                                              {"card": "e2", "voting_cubes": []},
                                              {"card": "e3", "voting_cubes": []}]]}),
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=2, relic="crown",
             event_card="e4"),
     {"legal": True, "codes": [],
      "state": {"events": {"rows": [[{"card": "e1"}, {"card": "e2"}, {"card": "e3"}],
                                    [{"card": "e4", "voting_cubes": ["alex"]}]]}}})

case("digital_mode_draws_from_stack_deck_and_bag",
     "With an rng seed, a tile stack and an event deck, the service flips the top tile, draws "
     "the relic from the bag and the top event card, and returns the advanced seed.",
     "When placing a relic, draw a random one from the bag containing all unused relics.",
     alex_state(rng=20261122, tiles=[_alex_tile],
                events={"deck": ["e7", "e8"], "rows": []}),
     explore("alex", "x1", [(2, 0)], rotation=2),
     {"legal": True, "codes": [], "reversible": False,
      "state": {"tiles": [], "events": {"deck": ["e8"],
                                        "rows": [[{"card": "e7", "voting_cubes": ["alex"]}]]},
                "relics": {"to_place": 2}},
      "events": ["tile_placed", "relic_placed", "army_moved", "depletion_placed",
                 "event_card_flipped", "voting_cube_placed"]})

case("no_voting_cube_left",
     "With no voting cube left in the bank the card is still flipped, without a cube.",
     "Take one of your voting cubes from the bank and place it on the new event card.",
     {**alex_state(), "players": [{"id": "alex", "voting_cubes": 0},
                                  {"id": "bea", "voting_cubes": 2}]},
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=2, relic="crown",
             event_card="e2"),
     {"legal": True, "codes": [],
      "events": ["tile_placed", "relic_placed", "army_moved", "depletion_placed",
                 "event_card_flipped", "no_voting_cube"]})

# --- split.1, the tile stack and the event deck, drops along the way -------------------

case("split_must_move_to_another_hex",
     "Splitting off a cavalryman and staying put would merge him back and deplete the units "
     "that never moved: a split moves the new army to another hex.",
     "You can split your army - take some units from your army on one hex and move them to "
     "another hex, forming a new army. The units remaining in the initial army are not "
     "depleted and can still move this round.",
     state(grid(2), [army("r1", "red", (0, 0), cavalrymen=2, archers=1)]),
     maneuver("red", "r1", [], units={"cavalrymen": 1}),
     {"legal": False, "codes": ["split_needs_a_move"]})

case("the_flipped_tile_is_the_top_of_the_stack",
     "With a tile stack in the state, the tile flipped is its top one: naming another is "
     "refused.",
     "Then flip the province tile and decide exactly how you want to place it on the map.",
     alex_state(tiles=[_alex_tile, {**_sea_tile, "id": "t-next"}]),
     explore("alex", "x1", [(2, 0)], tile={**_sea_tile, "id": "t-next"}, rotation=1,
             event_card="e2"),
     {"legal": False, "codes": ["tile_not_on_top"]})

case("the_flipped_event_card_is_the_top_of_the_deck",
     "With an event deck in the state, the card flipped is its top one: naming another is "
     "refused.",
     "Flip the top card from the event deck and place it in a row of up to three cards.",
     alex_state(events={"deck": ["e7", "e8"], "rows": []}),
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=2, relic="crown",
             event_card="e8"),
     {"legal": False, "codes": ["event_card_not_on_top"]})

case("naming_the_top_card_takes_it_from_the_deck",
     "Naming the deck's top card flips that card and takes it off the deck.",
     "Flip the top card from the event deck and place it in a row of up to three cards.",
     alex_state(events={"deck": ["e7", "e8"], "rows": []}),
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=2, relic="crown",
             event_card="e7"),
     {"legal": True, "codes": [],
      "state": {"events": {"deck": ["e8"], "rows": [[{"card": "e7"}]]}}})

case("a_dropped_galley_ferries_the_units_that_go_on",
     "A galley carrying swordsmen is dropped on the first sea hex; from then on it is a vessel "
     "of theirs on the map, so the swordsmen enter the next sea hex beside it for 0 MP.",
     "During a maneuver, your land units may move to a hex with a vessel or to any hex "
     "adjacent to a vessel, spending 0 movement points, regardless of the terrain type (sea, "
     "ocean, mountains, swamp, or unexplored hex).",
     state(grid(2, {(0, 0): "sea", (1, 0): "sea", (2, 0): "sea"}),
           [army("r1", "red", (0, 0), galley=1, swordsmen=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0)], drops=[{"hex": h(1, 0), "units": {"galley": 1}}]),
     {"legal": True, "codes": [], "derived": {"cost": 0, "ferried": True},
      "state": {"armies": [
          {"id": "r1.1", "hex": h(1, 0), "units": {"galley": 1}, "depletion": 1},
          {"id": "r1", "hex": h(2, 0), "units": {"swordsmen": 1}, "depletion": 1}]}})

case("drop_on_a_later_visit_of_a_hex",
     "Archers picked up on the way are dropped when the path comes back to a hex it crossed "
     "before they joined.",
     "Alternatively, you can drop units on hexes along the way while moving.",
     state(grid(2), [army("r1", "red", (0, 1), cavalrymen=1),
                     army("r2", "red", (1, 0), archers=1)]),
     maneuver("red", "r1", [(1, 0), (0, 1), (-1, 1)], march=True,
              pickups=[{"army": "r2", "units": {"archers": 1}}],
              drops=[{"hex": h(0, 1), "units": {"archers": 1}}]),
     {"legal": True, "codes": [],
      "state": {"armies": [
          {"id": "r1.1", "hex": h(0, 1), "units": {"archers": 1}, "depletion": 1},
          {"id": "r1", "hex": h(-1, 1), "units": {"cavalrymen": 1}, "depletion": 2}]}})

# --- ferry.1 stranded units, vessel.1 on land, trebuchet.1 packing, relic.1-3 -----------

STRANDED = ("Land units are not stranded at sea: a land unit may end a maneuver, or be "
            "dropped, on a sea or ocean hex only where it could be ferried as the vessels "
            "stand when the maneuver ends \u2014 on or next to one of the player's vessels "
            "(peasants on a sea hex excepted). Units dropped on water and left there when "
            "their vessel sails on out of reach make the maneuver illegal (`ferry.1`).")
_ocean = {(q, r): "ocean" for q in range(-3, 4) for r in range(-3, 4)}

case("swordsmen_dropped_on_the_ocean_and_left_behind",
     "A galley carrying swordsmen drops them on the ocean hex (-1,0) and sails on three hexes "
     "to (2,0), 3 hexes away: no vessel is on or next to the swordsmen when the maneuver "
     "ends.",
     STRANDED,
     state(grid(3, _ocean), [army("r1", "red", (-2, 0), galley=1, swordsmen=1)]),
     maneuver("red", "r1", [(-1, 0), (0, 0), (1, 0), (2, 0)],
              drops=[{"hex": h(-1, 0), "units": {"swordsmen": 1}}]),
     {"legal": False, "codes": ["stranded_at_sea"], "applied": False})

case("swordsmen_dropped_beside_the_galley_they_leave",
     "The galley drops the swordsmen on the ocean hex (-1,0) and sails on one hex to (0,0), "
     "next to them: they could still be ferried, so the maneuver is legal.",
     STRANDED,
     state(grid(3, _ocean), [army("r1", "red", (-2, 0), galley=1, swordsmen=1)]),
     maneuver("red", "r1", [(-1, 0), (0, 0)],
              drops=[{"hex": h(-1, 0), "units": {"swordsmen": 1}}]),
     {"legal": True, "codes": [],
      "state": {"armies": [
          {"id": "r1.1", "hex": h(-1, 0), "units": {"swordsmen": 1}, "depletion": 1},
          {"id": "r1", "hex": h(0, 0), "units": {"galley": 1}, "depletion": 1}]},
      "events": ["units_dropped", "army_moved", "depletion_placed"]})

case("galley_sailing_off_leaves_its_swordsmen_stranded",
     "The galley splits from the swordsmen it carries on the ocean hex (0,0) and sails two "
     "hexes away: the swordsmen are left on the ocean with no vessel in reach.",
     STRANDED,
     state(grid(3, _ocean), [army("r1", "red", (0, 0), galley=1, swordsmen=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0)], units={"galley": 1}),
     {"legal": False, "codes": ["stranded_at_sea"]})

_sea = {(q, r): "sea" for q in range(-3, 4) for r in range(-3, 4)}

case("peasants_dropped_in_the_sea_may_stay",
     "A galley drops peasants on the sea hex (-1,0) and sails three hexes on: peasants on a "
     "sea hex are excepted, so the maneuver is legal.",
     STRANDED,
     state(grid(3, _sea), [army("r1", "red", (-2, 0), galley=1, peasants=1)]),
     maneuver("red", "r1", [(-1, 0), (0, 0), (1, 0), (2, 0)],
              drops=[{"hex": h(-1, 0), "units": {"peasants": 1}}]),
     {"legal": True, "codes": [],
      "state": {"armies": [
          {"id": "r1.1", "hex": h(-1, 0), "units": {"peasants": 1}, "depletion": 1},
          {"id": "r1", "hex": h(2, 0), "units": {"galley": 1}, "depletion": 1}]}})

case("peasants_dropped_in_the_ocean_are_stranded",
     "The same drop on an ocean hex: peasants may stand in the sea, not in the ocean, so "
     "they are stranded there once the galley sails on out of reach.",
     STRANDED,
     state(grid(3, _ocean), [army("r1", "red", (-2, 0), galley=1, peasants=1)]),
     maneuver("red", "r1", [(-1, 0), (0, 0), (1, 0), (2, 0)],
              drops=[{"hex": h(-1, 0), "units": {"peasants": 1}}]),
     {"legal": False, "codes": ["stranded_at_sea"]})


def _destinations(hexes: list[tuple[int, int]], **fields: Any) -> list[dict[str, Any]]:
    return [{"hex": h(*x), **fields} for x in hexes]


# The six neighbours of (0,0), cheapest first then in map order (r, then q).
_RING_1 = [(0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1)]

CASES["reachable_galley_sailing_alone_stays_beside_its_swordsmen"] = {
    "description": "A galley carrying swordsmen on the ocean asks where it can sail alone: "
                   "only the hexes next to the swordsmen it leaves behind (5 MP would take "
                   "it anywhere on the map).",
    "source": STRANDED,
    "query": "reachable",
    "request": {"state": state(grid(2, _ocean),
                               [army("r1", "red", (0, 0), galley=1, swordsmen=1)]),
                "army": "r1", "units": {"galley": 1}, "march": False},
    "expect": {"army": "r1", "movement_points": 5,
               "destinations": _destinations(_RING_1, cost=1, march=False, ferry=False,
                                             in_range=[])}}

CASES["legal_actions_never_leave_swordsmen_on_the_ocean"] = {
    "description": "Swordsmen stand on the ocean with no vessel in reach and one plains hex "
                   "next to them: they may walk ashore, but staying put would end the "
                   "maneuver stranded, so it is not listed.",
    "source": STRANDED,
    "query": "legal-actions",
    "request": {"state": state(grid(2, {**_ocean, (1, 0): "plains"}),
                               [army("r1", "red", (0, 0), swordsmen=1)]),
                "player": "red"},
    "expect": {"count": 1, "truncated": False,
               "actions": [{"type": "maneuver", "player": "red", "army": "r1",
                            "path": [h(1, 0)], "march": False, "unpack": False}]}}

case("malformed_galley_on_the_plains",
     "A galley standing on a plains hex is no position of the game: 422 naming the galley's "
     "pile in the army.",
     "Vessels stand only on water: a state that places a vessel on a land hex is malformed "
     "(422 at its pointer).",
     state(grid(1, {(1, 0): "sea"}), [army("r1", "red", (1, 0), galley=1),
                                      army("r2", "red", (0, 0), galley=1, swordsmen=1)]),
     maneuver("red", "r1", []),
     {"status": 422, "pointers": ["/state/armies/1/units/galley"]})

TREBUCHET = ("A trebuchet attacks only while unpacked. One that moved ends the maneuver "
             "packed unless the army has 1 MP left to unpack it and the action asks to; a "
             "packed trebuchet has no targets in range.")


def _siege(unpacked: int = 0) -> dict[str, Any]:
    """A trebuchet on (0,0) and a blue army on (3,0): 3 hexes from (0,0), 2 from (1,0)."""
    return state(grid(3), [{**army("r1", "red", (0, 0), trebuchet=1), "unpacked": unpacked},
                           army("b1", "blue", (3, 0), swordsmen=1)])


_B1 = {"kind": "army", "id": "b1", "owner": "blue", "hex": h(3, 0), "units": ["trebuchet"]}

case("trebuchet_that_moved_stands_packed_with_nothing_in_range",
     "A packed trebuchet moves 1 hex to (1,0), 2 hexes from a blue army: it ends packed "
     "(no MP left to unpack, and the action does not ask), so nothing is in range.",
     TREBUCHET,
     _siege(),
     maneuver("red", "r1", [(1, 0)]),
     {"legal": True, "codes": [],
      "state": {"armies": [{"id": "b1"},
                           {"id": "r1", "hex": h(1, 0), "unpacked": 0, "depletion": 1}]},
      "derived": {"unpacked": 0, "in_range": []}})

case("trebuchet_unpacks_with_the_marchs_point",
     "On a march the trebuchet has 2 MP: 1 to enter (1,0) and 1 left to unpack, as the "
     "action asks; unpacked, it has the blue army 2 hexes away in range.",
     TREBUCHET,
     _siege(),
     maneuver("red", "r1", [(1, 0)], march=True, unpack=True),
     {"legal": True, "codes": [],
      "state": {"armies": [{"id": "b1"},
                           {"id": "r1", "hex": h(1, 0), "unpacked": 1, "depletion": 2}]},
      "derived": {"cost": 1, "unpacked": 1, "in_range": [{**_B1, "distance": 2}]}})

case("trebuchet_cannot_unpack_with_no_point_left",
     "Without the march the trebuchet spends its 1 MP entering (1,0) and has none left to "
     "unpack.",
     TREBUCHET,
     _siege(),
     maneuver("red", "r1", [(1, 0)], unpack=True),
     {"legal": False, "codes": ["unpack_needs_a_movement_point"], "applied": False})

case("trebuchet_unpacks_where_it_stands",
     "A packed trebuchet that stays put spends 1 MP unpacking and has the blue army 3 hexes "
     "away in range.",
     "trebuchet | siege engine | 1 (moves only when packed; packing or unpacking costs 1 MP) "
     "| projectile (only when unpacked) | 2\u20133",
     _siege(),
     maneuver("red", "r1", [], unpack=True),
     {"legal": True, "codes": [],
      "state": {"armies": [{"id": "b1"},
                           {"id": "r1", "hex": h(0, 0), "unpacked": 1, "depletion": 1}]},
      "derived": {"cost": 0, "unpacked": 1, "in_range": [{**_B1, "distance": 3}]}})

CASES["reachable_trebuchet_has_targets_only_where_it_stays"] = {
    "description": "An unpacked trebuchet may stay (the blue army 3 hexes away in range) or, "
                   "on a march, pack (1 MP) and enter a neighbour (1 MP): there it stands "
                   "packed, with nothing in range, though the blue army is 2 or 3 hexes away.",
    "source": TREBUCHET,
    "query": "reachable",
    "request": {"state": _siege(unpacked=1), "army": "r1"},
    "expect": {"army": "r1", "movement_points": 0, "destinations": [
        {"hex": h(0, 0), "cost": 0, "march": False, "in_range": [{**_B1, "distance": 3}]},
        *_destinations(_RING_1, cost=1, march=True, in_range=[])]}}

case("malformed_unpack_without_a_trebuchet",
     "Asking to unpack an army that has no packing unit: 422 naming the request's unpack.",
     TREBUCHET,
     state(grid(1), [army("r1", "red", (0, 0), swordsmen=1)]),
     maneuver("red", "r1", [(1, 0)], unpack=True),
     {"status": 422, "pointers": ["/action/unpack"]})

_all_placed = {"total": 3, "to_place": 0, "bag": [], "placed": [
    {"relic": "crown", "hex": h(0, 0)}, {"relic": "chalice", "hex": h(-1, 0)},
    {"relic": "sword", "hex": h(0, 1)}]}

case("no_relic_left_for_a_solid_symbol",
     "Every relic of the game is placed: the solid symbol gets none, and naming one is "
     "refused under the solid-symbol rule (relic.1).",
     "Solid symbol: place a relic here if there are still relics to be placed in this game.",
     alex_state(relics=_all_placed),
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=2, relic="crown",
             event_card="e2"),
     {"legal": False, "codes": ["no_relic_to_place"],
      "derived": {"relic": {"due": False, "reason": "no relics remain to be placed"}}})

case("relic_due_but_the_bag_is_empty",
     "A relic is due on the solid symbol, and the state has an rng seed, but its bag of "
     "unused relics is empty: there is nothing to draw, so the client must name the relic.",
     "When placing a relic, draw a random one from the bag containing all unused relics.",
     alex_state(rng=7, relics={"total": 3, "to_place": 1, "bag": [], "placed": [
         {"relic": "crown", "hex": h(0, 0)}, {"relic": "chalice", "hex": h(-1, 0)}]}),
     explore("alex", "x1", [(2, 0)], tile=_alex_tile, rotation=2, event_card="e2"),
     {"legal": False, "codes": ["relic_bag_empty"], "applied": False})

# --- advisory mode and malformed input ---------------------------------------------------

case("advisory_applies_an_overlong_move",
     "In advisory mode an overlong move is applied, its violation returned as a warning.",
     "Make sure to move no further than the movement points of the slowest unit among the "
     "moved ones.",
     state(grid(3), [army("r1", "red", (0, 0), swordsmen=1)]),
     maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)]),
     {"legal": False, "codes": ["over_movement_points"], "applied": True,
      "state": {"armies": [{"id": "r1", "hex": h(3, 0), "depletion": 1}]}},
     mode="advisory")

case("malformed_unknown_army",
     "An army that is not in the state cannot be judged: 422 naming /action/army.",
     "Choose one of your undepleted armies and move it up to its movement points across the "
     "map.",
     state(grid(1), [army("r1", "red", (0, 0), swordsmen=1)]),
     maneuver("red", "r9", [(1, 0)]),
     {"status": 422, "pointers": ["/action/army"]})

case("malformed_more_units_than_the_army_has",
     "Moving 3 swordsmen out of an army of 1 is an inconsistent count: 422.",
     "You can split your army - take some units from your army on one hex and move them to "
     "another hex, forming a new army.",
     state(grid(1), [army("r1", "red", (0, 0), swordsmen=1)]),
     maneuver("red", "r1", [(1, 0)], units={"swordsmen": 3}),
     {"status": 422, "pointers": ["/action/units/swordsmen"]})

case("malformed_army_off_the_map",
     "An army standing on a hex that is not on the map: 422 naming its hex.",
     "Choose one of your undepleted armies and move it up to its movement points across the "
     "map.",
     state(grid(1), [army("r1", "red", (5, 5), swordsmen=1)]),
     maneuver("red", "r1", [(1, 0)]),
     {"status": 422, "pointers": ["/state/armies/0/hex"]})


def write() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    for name, body in CASES.items():
        (OUT / f"{name}.json").write_text(json.dumps(body, indent=1) + "\n")


if __name__ == "__main__":
    write()
    print(f"wrote {len(CASES)} cases to {OUT}")

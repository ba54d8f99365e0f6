"""Crowded render requests, one or more per ruleset with a picture: several armies, units,
tokens or cities on one place that also carries an overlay's labels (a cost, a step's
number, a note, a violation's number), next to other crowded places. Used by
test_labels.py and by the browser test of the playground."""

from __future__ import annotations

from typing import Any

from arbiter.rulesets.area_movement.examples import EXAMPLE_STATE as AREA
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_STATE as HEX
from arbiter.rulesets.phased_orders.examples import EXAMPLE_STATE as VALLEY
from arbiter.rulesets.region_conquest.examples import EXAMPLE_STATE as REGIONS
from arbiter.rulesets.territory_conquest.examples import EXAMPLE_STATE as TERRITORIES


def _army(army_id: str, owner: str, q: int, r: int, **units: int) -> dict[str, Any]:
    return {"id": army_id, "owner": owner, "hex": {"q": q, "r": r}, "units": units}


# Red's city hex (1,0) holds the city, three more red armies and a relic; red-1's own hex
# holds a second army; blue's hex (2,0) two blue armies. red-1's cheapest path is drawn
# through the crowded hex to (2,-1), every reachable hex carries its cost.
CROWDED_HEX: dict[str, Any] = {
    **HEX,
    "armies": [*HEX["armies"],
               _army("red-2", "red", 1, 0, swordsmen=2),
               _army("red-3", "red", 1, 0, archers=12),
               _army("red-4", "red", 1, 0, cavalrymen=1),
               _army("red-5", "red", 0, 0, swordsmen=1),
               _army("blue-2", "blue", 2, 0, swordsmen=3)],
    "relics": {"total": 3, "to_place": 2, "bag": ["horn", "cup"],
               "placed": [{"relic": "crown", "hex": {"q": 1, "r": 0}}]},
}
# Forty armies on red's city hex: more than its frame holds at the smallest size, so the
# pile overflows onto the neighbours and their costs move round it.
PILE: dict[str, Any] = {**CROWDED_HEX, "armies": [
    *CROWDED_HEX["armies"], *(_army(f"red-pile-{i}", "red", 1, 0, swordsmen=i % 9 + 1)
                              for i in range(40))]}
CROWDED_HEX_MOVE = {"type": "maneuver", "player": "red", "army": "red-1",
                    "path": [{"q": 1, "r": 0}, {"q": 2, "r": 0}]}

# A region holds one race's tokens at most: the crowd is of labels. Each region carries
# its name and cost, the takeable ones a cost badge too; the redeployment's steps go in
# and out of the farmland and place tokens there, each numbered, and the ones that break
# a rule are marked there.
CROWDED_REGIONS: dict[str, Any] = {
    **REGIONS,
    "players": [*REGIONS["players"],
                {"id": "dwarves", "in_decline": {"forest": 1}},
                {"id": "goblins", "active": {"mountain": 13}}],
}

# A territory is one player's at a time: the crowd is of labels. Blue's centre carries
# its pawns, its name, a cost and its badge; red's move there from two territories, too
# weak to take it, is refused there and at red's castle (numbered marks).
CROWDED_TERRITORIES: dict[str, Any] = TERRITORIES
CROWDED_TERRITORY_MOVE = {
    "type": "move", "player": "red", "destination": "centre",
    "sources": [{"territory": "south", "count": 1}, {"territory": "red-castle", "count": 1}],
    "placement": ["centre-destruction", "centre-gold"]}

# Athens holds red's tokens, its ship and a second ship, a city and barbarians; Crete the
# blue city, blue and red tokens, barbarians and a ship. The voyage ends on Crete.
CROWDED_AREAS: dict[str, Any] = {
    **AREA,
    "cities": [*AREA["cities"], {"area": "athens", "owner": "red"}],
    "barbarians": {"thebes": 1, "athens": 2, "crete": 1},
    "players": [{**AREA["players"][0], "tokens": {"athens": 4, "corinth": 1, "crete": 1}},
                {**AREA["players"][1], "tokens": {"crete": 2, "athens": 1}}],
    "ships": [*AREA["ships"],
              {"id": "hydra", "owner": "blue", "area": "athens"},
              {"id": "kerkyra", "owner": "blue", "area": "crete"}],
}

# Units on every hex round the red keep (which holds the caravan), a unit on the red
# tower's neighbours; the cavalry's reach covers them all.
CROWDED_VALLEY: dict[str, Any] = {
    **VALLEY,
    "units": [*VALLEY["units"], *(
        {"id": f"red-guard-{q}-{r}", "owner": "red", "type": "spearmen", "hex": {"q": q, "r": r},
         "move": 2, "hit_points": 13, "max_hit_points": 13, "strength": 2, "free_upkeep": True}
        for q, r in ((2, 3), (0, 3), (1, 4), (0, 4), (2, 2), (1, 0), (3, 0), (2, 1)))],
}

CROWDED: list[tuple[str, str, dict[str, Any]]] = [
    ("hex_maneuver", "crowded-reachable", {"state": CROWDED_HEX, "overlay": {
        "reachable": {"army": "red-1", "to": {"q": 2, "r": -1}}}}),
    ("hex_maneuver", "crowded-action", {"state": CROWDED_HEX,
                                        "overlay": {"action": CROWDED_HEX_MOVE}}),
    ("hex_maneuver", "pile", {"state": PILE, "overlay": {"reachable": {"army": "red-1"}}}),
    ("region_conquest", "crowded-costs", {"state": CROWDED_REGIONS,
                                          "overlay": {"costs": {"player": "orcs"}}}),
    ("region_conquest", "crowded-redeploy", {"state": CROWDED_REGIONS, "overlay": {
        "costs": {"player": "orcs"}, "action": {
            "type": "redeploy", "player": "elves",
            "moves": [{"from_region": "farmland", "to_region": "forest", "tokens": 1},
                      {"from_region": "mountain", "to_region": "farmland", "tokens": 1},
                      {"from_region": "hills", "to_region": "farmland", "tokens": 2}],
            "placements": [{"player": "elves", "region": "farmland", "tokens": 1},
                           {"player": "elves", "region": "farmland", "tokens": 2}]}}}),
    ("territory_conquest", "crowded-costs", {"state": CROWDED_TERRITORIES,
                                             "overlay": {"costs": {"player": "red"}}}),
    ("territory_conquest", "crowded-move", {"state": CROWDED_TERRITORIES, "overlay": {
        "costs": {"player": "red"}, "action": CROWDED_TERRITORY_MOVE}}),
    ("area_movement", "crowded-voyage", {"state": CROWDED_AREAS, "overlay": {"reachable": {
        "player": "red", "ship": "argo", "to": "crete"}}}),
    ("area_movement", "crowded-plan", {"state": CROWDED_AREAS, "overlay": {"action": {
        "type": "movement", "player": "red", "steps": [
            {"type": "move_tokens", "from_area": "athens", "to_area": "thebes", "count": 1},
            {"type": "move_tokens", "from_area": "athens", "to_area": "corinth", "count": 1},
            {"type": "sail", "ship": "argo", "embark": 2,
             "path": [{"area": "aegean"}, {"area": "rhodes"}, {"area": "crete"}]}]}}}),
    ("phased_orders", "crowded-reachable", {"state": CROWDED_VALLEY, "overlay": {
        "reachable": {"unit": "red-cavalry"}}}),
    ("phased_orders", "crowded-trace", {"state": CROWDED_VALLEY, "overlay": {"trace": {
        "orders": [
            {"order": "move", "player": "red", "unit": "red-cavalry",
             "path": [{"q": 1, "r": 1}, {"q": 2, "r": 1}, {"q": 3, "r": 1}, {"q": 4, "r": 1}]},
            {"order": "move", "player": "green", "unit": "green-archers",
             "path": [{"q": 5, "r": 0}, {"q": 4, "r": 1}]},
            {"order": "commission", "player": "red", "stronghold": "red-tower",
             "unit_type": "spearmen", "new_unit": "red-spearmen-1"},
            {"order": "commission", "player": "red", "stronghold": "red-keep",
             "unit_type": "spearmen", "new_unit": "red-spearmen-2"}],
        "decisions": [{"id": "communique:4,1:red", "choice": "proceed"},
                      {"id": "communique:4,1:green", "choice": "proceed"}]}}}),
]

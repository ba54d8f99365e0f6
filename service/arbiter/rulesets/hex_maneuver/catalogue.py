"""The rule ids of ``hex_maneuver`` with their paraphrases, every violation code with the
rule it enforces and its message template, the event kinds, and the game's fixed data: the
default unit catalogue from the published rules (a state may override or add types).

Rule ids follow ``../shared/rules/hex_maneuver.md``: ``hex_maneuver/<section>.<n>``.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.catalogue import Entry, build_catalogue
from arbiter.engine.hexgrid import Axial

from .models import AttackKind, HexManeuverUnitType, UnitClass

RULES: list[tuple[str, str]] = [
    ("maneuver.1", "Choose one of your undepleted armies and move it up to its movement points."),
    ("maneuver.2", "You cannot move through or finish your movement in hexes with enemy objects "
                   "(enemy units, cities, castles or other structures)."),
    ("maneuver.3", "The army at its destination receives 1 depletion cube; all its units become "
                   "depleted. An army may move 0 hexes and still be depleted."),
    ("maneuver.4", "A path is a chain of adjacent hexes of the map, starting next to the army."),
    ("maneuver.5", "Every action names its player; a player moves only their own armies."),
    ("movement.1", "An army's movement points are those of its slowest moved unit, picked-up "
                   "units included; the whole path must fit within them."),
    ("terrain.1", "Entering an ordinary land hex costs 1 MP."),
    ("terrain.2", "Entering a mountains or swamp hex costs 2 MP."),
    ("terrain.3", "Entering a hex of an unexplored province costs 2 MP, whatever its terrain "
                  "turns out to be."),
    ("terrain.4", "Entering one of your own cities or castles costs 0 MP, at most once per "
                  "maneuver; another costs its terrain's price."),
    ("march.1", "March: an army may take 1 extra MP; it then receives 2 depletion cubes "
                "instead of 1."),
    ("split.1", "You can split an army: the units moved form a new army; the units remaining "
                "are not depleted and can still move this round."),
    ("split.2", "You can drop units on hexes along the way; the armies so formed are depleted "
                "and must have been able to reach that hex."),
    ("merge.1", "An army that ends on a hex with another of your armies joins it; the joined "
                "army carries the maneuver's depletion cubes."),
    ("pickup.1", "You may pick up your own undepleted units from armies along the path; they "
                 "arrive with the army."),
    ("vessel.1", "Vessels can be placed at and move through sea and ocean hexes only (1 MP "
                 "each)."),
    ("peasant_sea.1", "Peasants may enter a sea hex (not ocean) by spending 2 MP."),
    ("ferry.1", "Land units other than peasants in the sea cross water only by ferrying, and "
                "end a maneuver on water (arriving, dropped, or left behind by a vessel that "
                "sails on) only on or next to one of your vessels as the vessels stand when "
                "the maneuver ends."),
    ("ferry.2", "A land unit may enter a hex with one of your vessels, or any hex adjacent to "
                "one, for 0 MP whatever its terrain; depleted vessels ferry too."),
    ("trebuchet.1", "A trebuchet moves only when packed and attacks only when unpacked; "
                    "packing and unpacking each cost 1 MP. One that moved ends the maneuver "
                    "packed unless the army has 1 MP left to unpack it and the action asks to."),
    ("explore.1", "Only military units (units with an attack) can explore and move onto new "
                  "provinces."),
    ("explore.2", "To explore, claim the exact hex of the unexplored province you would land "
                  "on: the path ends there and crosses no other unexplored hex; a maneuver "
                  "never enters an unexplored hex."),
    ("explore.3", "The flipped tile must cover the province exactly with the chosen rotation."),
    ("explore.4", "Place the tile so that (1) its sea and ocean continue the water of the "
                  "neighbouring explored tiles (at least one of its water hexes touches it) and "
                  "(2) the army may end on the claimed hex; both when possible, else (1), else "
                  "any."),
    ("explore.5", "If the army cannot move onto the claimed hex, it stays in its current "
                  "position (not depleted); the tile stays placed."),
    ("relic.1", "Solid relic symbol: place a relic there if relics remain to be placed; a tile "
                "without a symbol, or one explored when no relic remains to be placed, gets "
                "none."),
    ("relic.2", "Outlined relic symbol: place a relic there only when the relics left to place "
                "exceed the unexplored provinces remaining."),
    ("relic.3", "The game uses exactly players + 1 relics; a placed relic is drawn at random "
                "from the bag of unused relics."),
    ("event.1", "After exploring, flip the top event card into a row of up to three cards; a "
                "full row starts another."),
    ("event.2", "Put one of your voting cubes from the bank on the new event card."),
]

CODES: list[Entry] = [
    ("not_your_army", "maneuver.5",
     "army {army} belongs to {owner}, not to {player}"),
    ("army_depleted", "maneuver.1",
     "army {army} is depleted ({depletion} cubes) and cannot move this round"),
    ("path_not_adjacent", "maneuver.4",
     "step {step} goes from {from_hex} to {hex}, which are not adjacent"),
    ("enemy_in_path", "maneuver.2",
     "the path crosses {hex}, which holds enemy objects ({enemies})"),
    ("enemy_at_destination", "maneuver.2",
     "the path ends on {hex}, which holds enemy objects ({enemies})"),
    ("over_movement_points", "movement.1",
     "the path costs {cost} MP but the slowest unit ({unit}) has {movement_points} MP"),
    ("split_needs_a_move", "split.1",
     "units split from army {army} must move to another hex: the units remaining "
     "are not depleted"),
    ("tile_not_on_top", "explore.3",
     "tile {tile} was named, but the top of the tile stack is {top}"),
    ("event_card_not_on_top", "event.1",
     "event card {card} was named, but the top of the event deck is {top}"),
    ("dropped_beyond_reach", "split.2",
     "{units} dropped at {hex} travel {cost} MP but the slowest of them ({unit}) has "
     "{movement_points} MP"),
    ("drop_not_on_path", "split.2",
     "units are dropped at {hex}, which the path does not pass before its end"),
    ("march_not_allowed", "march.1",
     "marching is switched off in this game's options"),
    ("pickup_not_on_path", "pickup.1",
     "army {army} stands on {hex}, which the path does not pass"),
    ("pickup_not_own", "pickup.1",
     "army {army} belongs to {owner}; only your own units can be picked up"),
    ("pickup_depleted", "pickup.1",
     "army {army} is depleted; only undepleted units can be picked up"),
    ("vessel_off_water", "vessel.1",
     "{hex} is {terrain}: vessels move through sea and ocean only"),
    ("peasants_into_ocean", "peasant_sea.1",
     "{hex} is ocean: peasants enter sea hexes only, and ocean only by ferrying"),
    ("water_needs_ferry", "ferry.1",
     "{hex} is {terrain}: {units} cross water only by ferrying, and no vessel of yours "
     "is on or next to it", {"units": list[str]}),
    ("stranded_at_sea", "ferry.1",
     "{units} would be left on {hex} ({terrain}) with no vessel of yours on or next to it "
     "when the maneuver ends"),
    ("unpack_needs_a_movement_point", "trebuchet.1",
     "unpacking at {hex} costs 1 MP, but {unit} has spent {cost} of its {movement_points} MP"),
    ("unexplored_needs_explore", "explore.2",
     "{hex} lies in unexplored province {province}: only an exploration may enter it, "
     "as its last step"),
    ("explorer_not_military", "explore.1",
     "{units} cannot explore: only military units can move onto new provinces"),
    ("claim_not_unexplored", "explore.2",
     "the claimed hex {hex} is not in an unexplored province"),
    ("tile_does_not_fit", "explore.3",
     "tile {tile} turned {rotation} sixths does not cover province {province} exactly"),
    ("no_tile_to_flip", "explore.3",
     "no tile was given and the state's tile stack is empty"),
    ("placement_priority_ignored", "explore.4",
     "rotation {rotation} meets {met}, but rotation {better} meets {required}"),
    ("no_relic_to_place", "relic.1",
     "relic {relic} was named, but no relic is placed on this tile ({reason})"),
    ("relic_not_due", "relic.2",
     "relic {relic} was named, but no relic is placed on this tile ({reason})"),
    ("relic_draw_missing", "relic.3",
     "a relic must be placed on {hex}: name the relic drawn, or give the state an rng "
     "seed for the service to draw it"),
    ("relic_bag_empty", "relic.3",
     "a relic must be placed on {hex}, but the state's relic bag is empty: name the relic "
     "drawn"),
    ("event_card_missing", "event.1",
     "an event card must be flipped: name it, or give the state an event deck"),
]

EVENTS: list[Entry] = [
    ("army_moved", "maneuver.1", "army {army} moved to {hex} for {cost} MP"),
    ("depletion_placed", "maneuver.3",
     "{cubes} depletion cube(s) placed on army {army} at {hex}"),
    ("army_split", "split.1",
     "army {army} formed from {source} with {units}"),
    ("units_dropped", "split.2", "{units} dropped at {hex} as army {army}"),
    ("units_picked_up", "pickup.1", "{units} picked up from army {army} at {hex}"),
    ("armies_merged", "merge.1", "army {army} joined army {into} at {hex}"),
    ("tile_placed", "explore.3",
     "tile {tile} placed on province {province} turned {rotation} sixths"),
    ("landing_failed", "explore.5",
     "army {army} cannot move onto {hex} ({terrain}) and stays where it was"),
    ("relic_placed", "relic.3", "relic {relic} placed on {hex}"),
    ("event_card_flipped", "event.1", "event card {card} placed in row {row}"),
    ("voting_cube_placed", "event.2",
     "{player} put a voting cube on event card {card}"),
    ("no_voting_cube", "event.2",
     "{player} has no voting cube left in the bank for event card {card}"),
]

DEFAULT_UNIT_TYPES: dict[str, HexManeuverUnitType] = {
    "peasants": HexManeuverUnitType(unit_class=UnitClass.infantry, movement=2, enters_sea=True),
    "spearmen": HexManeuverUnitType(unit_class=UnitClass.infantry, movement=2,
                                    attack=AttackKind.melee, range_min=1, range_max=1),
    "swordsmen": HexManeuverUnitType(unit_class=UnitClass.infantry, movement=2,
                                     attack=AttackKind.melee, range_min=1, range_max=1),
    "archers": HexManeuverUnitType(unit_class=UnitClass.infantry, movement=2,
                                   attack=AttackKind.ranged, range_min=1, range_max=2),
    "cavalrymen": HexManeuverUnitType(unit_class=UnitClass.cavalry, movement=3,
                                      attack=AttackKind.melee, range_min=1, range_max=1),
    "catapult": HexManeuverUnitType(unit_class=UnitClass.siege_engine, movement=1,
                                    attack=AttackKind.projectile, range_min=1, range_max=2),
    "trebuchet": HexManeuverUnitType(unit_class=UnitClass.siege_engine, movement=1,
                                     attack=AttackKind.projectile, range_min=2, range_max=3,
                                     packs=True),
    "galley": HexManeuverUnitType(unit_class=UnitClass.vessel, movement=5,
                                  attack=AttackKind.ranged, range_min=1, range_max=2),
}


# The type of each word a template fills (an entry may declare its own, and facts beside).
PARAM_TYPES: dict[str, Any] = {
    "army": str,
    "better": int,
    "card": str,
    "cost": int,
    "cubes": int,
    "depletion": int,
    "enemies": list[str],
    "from_hex": Axial,
    "hex": Axial,
    "into": str,
    "met": list[str],
    "movement_points": int,
    "owner": str,
    "player": str,
    "province": str,
    "reason": str,
    "relic": str,
    "required": list[str],
    "rotation": int,
    "row": int,
    "source": str,
    "step": int,
    "terrain": str,
    "tile": str,
    "top": str,
    "unit": str,
    "units": dict[str, int],
}


CATALOGUE = build_catalogue(
    "hex_maneuver", "1.0.0", "Army maneuver and exploration on a hex map",
    rules=RULES, codes=CODES, events=EVENTS, param_types=PARAM_TYPES,
    data={"unit_types": {name: t.model_dump(mode="json")
                         for name, t in DEFAULT_UNIT_TYPES.items()}},
)

"""Adversarial review of ``hex_maneuver`` against ../shared/rules/hex_maneuver.md.

Every expected verdict below is worked out by hand from the rules text (source sentences,
the omitted facts and the binding "Reading to implement"), never copied from the engine.
The 15 discrepancies the review found were fixed; their tests stay as regression tests.
A new discrepancy is recorded as ``xfail(strict=True)`` with what the rules demand and
what the engine does, until it is fixed.

Geometry: axial (q, r), pointy-top; the neighbours of (0,0) are E (1,0), NE (1,-1),
NW (0,-1), W (-1,0), SW (-1,1), SE (0,1). Rotations turn E -> NE -> NW (sixths, CCW).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest
from tests.rulesets.hex_maneuver_cases import (
    FLOWER,
    alex_state,
    army,
    explore,
    flower,
    grid,
    h,
    maneuver,
    state,
)

from arbiter.engine.errors import InvalidInput
from arbiter.engine.outcome import Outcome
from arbiter.rulesets import load

RULESET = load("hex_maneuver")
Hex = tuple[int, int]
DIRS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


# --- helpers ----------------------------------------------------------------------------

def judge(st: dict[str, Any], act: dict[str, Any], mode: str = "strict") -> Outcome:
    return RULESET.validate(RULESET.state_model.model_validate(st),
                            RULESET.action_model.model_validate(act), mode)


def codes(out: Outcome) -> list[str]:
    return sorted(v.code for v in out.violations)


def pointers(st: dict[str, Any], act: dict[str, Any]) -> list[str]:
    with pytest.raises(InvalidInput) as err:
        judge(st, act)
    return [p.pointer for p in err.value.problems]


def armies_at(out: Outcome, at: Hex, owner: str | None = None) -> list[dict[str, Any]]:
    assert out.state is not None
    return [a for a in out.state["armies"] if (a["hex"]["q"], a["hex"]["r"]) == at
            and (owner is None or a["owner"] == owner)]


def units_by_owner(armies: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for a in armies:
        out.setdefault(a["owner"], Counter()).update(a["units"])
    return out


def neighbours(x: Hex) -> list[Hex]:
    return [(x[0] + dq, x[1] + dr) for dq, dr in DIRS]


def city(sid: str, owner: str, at: Hex, kind: str = "city") -> dict[str, Any]:
    return {"id": sid, "kind": kind, "owner": owner, "hex": h(*at)}


def tile(tid: str, cells: dict[Hex, str], symbol: tuple[Hex, str] | None = None
         ) -> dict[str, Any]:
    hexes = []
    for (dq, dr), terrain in cells.items():
        cell: dict[str, Any] = {"dq": dq, "dr": dr, "terrain": terrain}
        if symbol is not None and symbol[0] == (dq, dr):
            cell["relic_symbol"] = symbol[1]
        hexes.append(cell)
    return {"id": tid, "hexes": hexes}


PLAINS_FLOWER_TILE = tile("t-plains", {o: "plains" for o in FLOWER})
LAGOON_TILE = tile("t-lagoon", {o: "sea" for o in FLOWER})
# One sea hex on the E offset (the golden cases' t-sea): turned r sixths the sea lies on
# P2 (centre (2,1)) at r0 (3,1), r1 (3,0), r2 (2,0), r3 (1,1), r4 (1,2), r5 (2,2).
SEA_TILE = tile("t-sea", {(0, 0): "plains", (1, 0): "sea", (1, -1): "plains",
                          (0, -1): "plains", (-1, 0): "plains", (-1, 1): "plains",
                          (0, 1): "forest"})
# A solid relic symbol on the E offset: turned 2 sixths it lies on (2,0).
SOLID_TILE = tile("t-solid", {o: "plains" for o in FLOWER}, ((1, 0), "solid"))
OUTLINED_TILE = tile("t-out", {o: "plains" for o in FLOWER}, ((0, 0), "outlined"))


def sea_state(**extra: Any) -> dict[str, Any]:
    """alex_state plus an explored all-sea province S centred (3,-2), which borders P2's
    hexes (3,0) and (2,0)."""
    st = alex_state(**extra)
    st["hexes"] = st["hexes"] + flower((3, -2), "S", {(3 + dq, -2 + dr): "sea"
                                                      for dq, dr in FLOWER})
    return st


# --- movement.1: the slowest moved unit, picked-up units included -----------------------

def test_mixed_army_moves_at_its_slowest_and_a_split_leaves_the_rest_undepleted() -> None:
    # Cavalrymen 3 MP with archers 2 MP: three plains (3 MP) are too far for the army, but
    # the cavalrymen split off can go (split.1), the archers staying undepleted.
    st = state(grid(3), [army("r1", "red", (0, 0), cavalrymen=2, archers=1)])
    path = [(1, 0), (2, 0), (3, 0)]
    assert codes(judge(st, maneuver("red", "r1", path))) == ["over_movement_points"]
    out = judge(st, maneuver("red", "r1", path, units={"cavalrymen": 2}))
    assert out.legal, codes(out)
    [home] = armies_at(out, (0, 0))
    assert home["units"] == {"archers": 1} and home["depletion"] == 0
    [moved] = armies_at(out, (3, 0))
    assert moved["units"] == {"cavalrymen": 2} and moved["depletion"] == 1


def test_unit_picked_up_at_the_destination_counts_from_the_start_hex() -> None:
    # Reading: "the whole path, measured from the start hex, must fit within the movement
    # points of the slowest unit of the final army". A catapult (1 MP) picked up at the
    # end of a 2-hex path makes the arriving army over its movement points.
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                         army("r2", "red", (2, 0), catapult=1)])
    out = judge(st, maneuver("red", "r1", [(1, 0), (2, 0)],
                             pickups=[{"army": "r2", "units": {"catapult": 1}}]))
    assert codes(out) == ["over_movement_points"]


def test_march_with_a_pickup_gives_the_slowest_one_more_point_and_two_cubes() -> None:
    # Cavalrymen pick up swordsmen (2 MP) on the first hex and go 3 hexes: over without a
    # march (3 > 2), legal with it (3 <= 2 + 1), then 2 depletion cubes.
    st = state(grid(3), [army("r1", "red", (0, 0), cavalrymen=1),
                         army("r2", "red", (1, 0), swordsmen=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)],
                   pickups=[{"army": "r2", "units": {"swordsmen": 1}}])
    assert codes(judge(st, act)) == ["over_movement_points"]
    out = judge(st, {**act, "march": True})
    assert out.legal, codes(out)
    [arrived] = armies_at(out, (3, 0))
    assert arrived["units"] == {"cavalrymen": 1, "swordsmen": 1}
    assert arrived["depletion"] == 2
    assert armies_at(out, (1, 0)) == []


def test_a_path_that_revisits_hexes_pays_every_entry() -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1)])
    out = judge(st, maneuver("red", "r1", [(1, 0), (0, 0), (1, 0)]))
    assert out.legal and out.derived["cost"] == 3
    assert armies_at(out, (1, 0))[0]["depletion"] == 1
    out = judge(st, maneuver("red", "r1", [(1, 0), (2, 0), (1, 0), (2, 0)]))
    assert codes(out) == ["over_movement_points"]


# --- split.2, pickup.1, merge.1 ----------------------------------------------------------

def test_drop_on_the_second_visit_of_a_hex_the_units_were_picked_up_after() -> None:
    # Cavalrymen march (0,1) -> (1,0) [pick up archers] -> (0,1) [drop the archers] ->
    # (-1,1): cavalrymen spend 4 <= 3+1; the archers travel 3 MP from the start <= 2+1.
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                         army("r2", "red", (1, 0), archers=1)])
    out = judge(st, maneuver("red", "r1", [(0, 1), (1, 0), (0, 1), (-1, 1)], march=True,
                             pickups=[{"army": "r2", "units": {"archers": 1}}],
                             drops=[{"hex": h(0, 1), "units": {"archers": 1}}]))
    assert out.legal, codes(out)
    [dropped] = armies_at(out, (0, 1))
    assert dropped["units"] == {"archers": 1} and dropped["depletion"] >= 1
    assert armies_at(out, (-1, 1))[0]["units"] == {"cavalrymen": 1}


def test_pick_up_and_drop_on_the_same_hex() -> None:
    # The column takes 1 cavalrymen from r2 and leaves its archer there; the archer joins
    # r2 (merge.1) so that army is depleted; the column arrives with 3 cavalrymen.
    st = state(grid(3), [army("r1", "red", (0, 0), cavalrymen=2, archers=1),
                         army("r2", "red", (1, 0), cavalrymen=2)])
    out = judge(st, maneuver("red", "r1", [(1, 0), (2, 0)],
                             pickups=[{"army": "r2", "units": {"cavalrymen": 1}}],
                             drops=[{"hex": h(1, 0), "units": {"archers": 1}}]))
    assert out.legal, codes(out)
    [left] = armies_at(out, (1, 0))
    assert left["units"] == {"archers": 1, "cavalrymen": 1} and left["depletion"] >= 1
    [arrived] = armies_at(out, (2, 0))
    assert arrived["units"] == {"cavalrymen": 3} and arrived["depletion"] == 1
    assert units_by_owner(out.state["armies"]) == units_by_owner(st["armies"])


def test_drop_on_a_hex_with_another_own_army_joins_it() -> None:
    st = state(grid(3), [army("r1", "red", (0, 0), cavalrymen=2, archers=1),
                         army("r2", "red", (1, 0), swordsmen=1)])
    out = judge(st, maneuver("red", "r1", [(1, 0), (2, 0)],
                             drops=[{"hex": h(1, 0), "units": {"archers": 1}}]))
    assert out.legal, codes(out)
    [joined] = armies_at(out, (1, 0))
    assert joined["units"] == {"archers": 1, "swordsmen": 1} and joined["depletion"] >= 1
    [arrived] = armies_at(out, (2, 0))
    assert arrived["units"] == {"cavalrymen": 2} and arrived["depletion"] == 1


def test_merging_into_a_depleted_army_is_allowed_and_the_result_is_depleted() -> None:
    # merge.1 does not require the host to be undepleted (only pick-ups do).
    st = state(grid(2), [army("r1", "red", (0, 0), swordsmen=1),
                         army("r2", "red", (1, 0), depletion=2, archers=1)])
    out = judge(st, maneuver("red", "r1", [(1, 0)]))
    assert out.legal, codes(out)
    [joined] = armies_at(out, (1, 0))
    assert joined["units"] == {"archers": 1, "swordsmen": 1} and joined["depletion"] >= 1


def test_a_split_that_stays_put_does_not_deplete_the_remaining_units() -> None:
    st = state(grid(1), [army("r1", "red", (0, 0), cavalrymen=1, archers=1)])
    out = judge(st, maneuver("red", "r1", [], units={"cavalrymen": 1}))
    # Either a split must go to another hex (illegal), or the archers stay undepleted.
    assert not out.legal or any(a["units"].get("archers") and a["depletion"] == 0
                                for a in out.state["armies"])


# --- maneuver.2: enemy objects -------------------------------------------------------------

@pytest.mark.parametrize(("blocker", "path", "code"), [
    ({"structures": [city("bc", "blue", (1, 0), "castle")]}, [(1, 0), (2, 0)], "enemy_in_path"),
    ({"structures": [city("bo", "blue", (2, 0), "other")]}, [(1, 0), (2, 0)],
     "enemy_at_destination"),
    ({"armies": [army("b1", "blue", (1, 0), depletion=2, peasants=1)]}, [(1, 0), (2, 0)],
     "enemy_in_path"),
    # A path that goes around and comes back through the enemy hex is still blocked.
    ({"structures": [city("bc", "blue", (1, -1))]}, [(1, 0), (1, -1), (0, -1)],
     "enemy_in_path"),
])
def test_enemy_objects_block_passing_and_ending(blocker: dict[str, Any], path: list[Hex],
                                                code: str) -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                         *blocker.get("armies", [])],
               structures=blocker.get("structures", []))
    assert codes(judge(st, maneuver("red", "r1", path))) == [code]


# --- terrain.4: own cities and castles, once -----------------------------------------------

def test_own_structure_of_another_kind_is_not_a_free_entry() -> None:
    # Only "your own cities or castles" cost 0; an own "other" structure on plains costs 1.
    st = state(grid(2), [army("r1", "red", (0, 0), swordsmen=1)],
               structures=[city("o1", "red", (1, 0), "other")])
    assert codes(judge(st, maneuver("red", "r1", [(1, 0), (2, 0), (2, -1)]))) == [
        "over_movement_points"]
    st["structures"] = [city("c1", "red", (1, 0))]
    out = judge(st, maneuver("red", "r1", [(1, 0), (2, 0), (2, -1)]))
    assert out.legal and out.derived["cost"] == 2


def test_free_city_entry_is_the_one_the_dropped_units_need() -> None:
    # Cavalrymen (3) + catapult (1): (1,0) plains 1, (2,0) own city on plains, (3,0) own city
    # on mountains. Entering (2,0) first, free: the catapult dropped there spent 1 <= 1, the
    # cavalrymen spend 1 + 0 + 2 = 3 <= 3. Legal (and with the first entry free it is the
    # only reading that fits "at most once per maneuver" as the army enters).
    st = state(grid(3, {(3, 0): "mountains"}), [army("r1", "red", (0, 0), cavalrymen=1,
                                                     catapult=1)],
               structures=[city("c1", "red", (2, 0)), city("c2", "red", (3, 0))])
    out = judge(st, maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)],
                             drops=[{"hex": h(2, 0), "units": {"catapult": 1}}]))
    assert out.legal, codes(out)


def test_free_city_entry_is_not_spent_on_a_ferried_city() -> None:
    # Own galley at (2,-1): (1,0), an own city on mountains next to it, costs 0 by ferrying;
    # the free entry is left for (1,1), an own city on mountains out of the ferry's reach;
    # then plains (1,2) costs 1. Swordsmen (2 MP) spend 1.
    st = state(grid(3, {(2, -1): "sea", (1, 0): "mountains", (1, 1): "mountains"}),
               [army("r1", "red", (0, 0), swordsmen=1), army("g1", "red", (2, -1), galley=1)],
               structures=[city("c1", "red", (1, 0)), city("c2", "red", (1, 1))])
    out = judge(st, maneuver("red", "r1", [(1, 0), (1, 1), (1, 2)]))
    assert out.legal, codes(out)
    assert out.derived["cost"] == 1 and out.derived["ferried"] is True


# --- vessel.1, peasant_sea.1, ferry.1-2 --------------------------------------------------------

def test_a_chain_of_vessels_carries_land_units_across_the_water() -> None:
    water = {(1, 0): "sea", (2, 0): "sea", (3, 0): "sea", (1, 1): "sea", (3, -1): "sea"}
    fleet = [army("g1", "red", (1, 1), galley=1), army("g2", "red", (3, -1), depletion=1,
                                                       galley=1)]
    st = state(grid(3, water), [army("r1", "red", (0, 0), swordsmen=1), *fleet])
    out = judge(st, maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)]))
    assert out.legal, codes(out)
    assert out.derived["cost"] == 0
    # Without the second (depleted) galley, (3,0) is next to no vessel.
    st["armies"] = st["armies"][:2]
    assert codes(judge(st, maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)]))) == [
        "water_needs_ferry"]


def test_an_enemy_vessel_does_not_ferry() -> None:
    st = state(grid(2, {(1, 0): "sea", (1, 1): "sea"}),
               [army("r1", "red", (0, 0), swordsmen=1), army("bg", "blue", (1, 1), galley=1)])
    assert codes(judge(st, maneuver("red", "r1", [(1, 0)]))) == ["water_needs_ferry"]


def test_peasants_wade_into_the_sea_for_two_and_into_the_ocean_only_by_ferry() -> None:
    st = state(grid(2, {(1, 0): "sea"}), [army("p1", "red", (0, 0), peasants=1)])
    act = maneuver("red", "p1", [(1, 0), (2, 0)])
    assert codes(judge(st, act)) == ["over_movement_points"]  # 2 + 1 > 2
    out = judge(st, {**act, "march": True})
    assert out.legal and out.derived["cost"] == 3
    assert armies_at(out, (2, 0))[0]["depletion"] == 2
    st = state(grid(2, {(1, 0): "ocean", (2, 0): "ocean"}),
               [army("p1", "red", (0, 0), peasants=1), army("g1", "red", (2, 0), galley=1)])
    out = judge(st, maneuver("red", "p1", [(1, 0)]))
    assert out.legal and out.derived["cost"] == 0


def test_vessels_do_not_cross_unexplored_or_land_hexes() -> None:
    hexes = [{"q": 0, "r": 0, "terrain": "sea", "province": "w"},
             {"q": 1, "r": 0, "province": "U", "explored": False},
             {"q": 2, "r": 0, "terrain": "sea", "province": "w"},
             {"q": 1, "r": -1, "terrain": "plains", "province": "w"},
             {"q": 2, "r": -1, "terrain": "sea", "province": "w"}]
    st = state(hexes, [army("g1", "red", (0, 0), galley=1)])
    assert "unexplored_needs_explore" in codes(judge(st, maneuver("red", "g1",
                                                                  [(1, 0), (2, 0)])))
    assert codes(judge(st, maneuver("red", "g1", [(1, -1), (2, -1)]))) == ["vessel_off_water"]


def test_a_vessel_dropped_along_the_way_ferries_the_units_that_go_on() -> None:
    st = state(grid(2, {(0, 0): "sea", (1, 0): "sea", (2, 0): "sea"}),
               [army("g1", "red", (0, 0), galley=1, swordsmen=1)])
    out = judge(st, maneuver("red", "g1", [(1, 0), (2, 0)],
                             drops=[{"hex": h(1, 0), "units": {"galley": 1}}]))
    assert out.legal, codes(out)


def test_a_vessel_ferries_until_it_is_picked_up() -> None:
    st = state(grid(3, {(1, 0): "sea", (2, 0): "sea", (3, 0): "sea"}),
               [army("s1", "red", (0, 0), swordsmen=1), army("g1", "red", (2, 0), galley=1)])
    out = judge(st, maneuver("red", "s1", [(1, 0), (2, 0), (3, 0)],
                             pickups=[{"army": "g1", "units": {"galley": 1}}]))
    assert out.legal, codes(out)


# --- explore.1-5 ------------------------------------------------------------------------------

def test_a_maneuver_never_enters_an_unexplored_hex_even_by_ferry() -> None:
    st = alex_state()
    st["hexes"] = flower((0, 0), "home", {(0, 1): "sea"}) + flower((2, 1), "P2",
                                                                   explored=False)
    st["armies"].append(army("g1", "alex", (0, 1), galley=1))
    assert codes(judge(st, maneuver("alex", "x1", [(1, 1)]))) == ["unexplored_needs_explore"]


def test_an_exploration_crosses_no_other_unexplored_hex() -> None:
    out = judge(alex_state(), explore("alex", "x1", [(2, 0), (3, 0)], tile=PLAINS_FLOWER_TILE,
                                      rotation=0, event_card="e2", march=True))
    assert not out.legal and "unexplored_needs_explore" in codes(out)


def test_another_player_cannot_explore_with_my_army() -> None:
    out = judge(alex_state(), explore("bea", "x1", [(2, 0)], tile=PLAINS_FLOWER_TILE,
                                      rotation=0, event_card="e2"))
    assert "not_your_army" in codes(out)


def test_only_military_units_explore_so_a_mixed_army_splits() -> None:
    st = alex_state(armies=[army("x1", "alex", (1, 0), swordsmen=1, peasants=1)])
    act = explore("alex", "x1", [(2, 0)], tile=PLAINS_FLOWER_TILE, rotation=0,
                  event_card="e2")
    assert codes(judge(st, act)) == ["explorer_not_military"]
    out = judge(st, {**act, "units": {"swordsmen": 1}})
    assert out.legal, codes(out)
    [stayed] = armies_at(out, (1, 0))
    assert stayed["units"] == {"peasants": 1} and stayed["depletion"] == 0
    [landed] = armies_at(out, (2, 0))
    assert landed["units"] == {"swordsmen": 1} and landed["depletion"] == 1


def test_explorers_ferried_onto_a_sea_hex_next_to_a_depleted_galley() -> None:
    # Own depleted galley on (1,0): (0,0), (0,1) and the claimed (1,1) are all next to it,
    # so the swordsmen pay 0 (ferry.2 lists unexplored hexes) and may stand on the sea
    # the lagoon tile reveals there (condition 2 holds, condition 1 too).
    st = alex_state(armies=[army("x1", "alex", (-1, 0), swordsmen=1),
                            army("g1", "alex", (1, 0), depletion=1, galley=1)])
    st["hexes"] = flower((0, 0), "home", {(1, 0): "sea"}) + flower((2, 1), "P2",
                                                                   explored=False)
    out = judge(st, explore("alex", "x1", [(0, 0), (0, 1), (1, 1)], tile=LAGOON_TILE,
                            event_card="e2"))
    assert out.legal, codes(out)
    assert out.derived["cost"] == 0 and out.derived["landed"] is True
    assert armies_at(out, (1, 1))[0]["units"] == {"swordsmen": 1}


def vessel_explore_state() -> dict[str, Any]:
    st = alex_state(armies=[army("g1", "alex", (1, 0), galley=1)])
    st["hexes"] = flower((0, 0), "home", {(1, 0): "sea", (0, 1): "sea"}) + flower(
        (2, 1), "P2", explored=False)
    return st


def test_a_galley_explores_and_the_tile_must_put_sea_under_it() -> None:
    # Claim (2,0). Only rotation 2 puts the tile's sea on (2,0): it touches the home sea at
    # (1,0) (condition 1) and the galley may end there (condition 2). Rotation 3 puts the
    # sea on (1,1): condition 1 only.
    st = vessel_explore_state()
    out = judge(st, explore("alex", "g1", [(2, 0)], tile=SEA_TILE, event_card="e2"))
    assert out.legal, codes(out)
    assert out.derived["rotation"] == 2 and out.derived["landed"] is True
    [galley] = armies_at(out, (2, 0))
    assert galley["units"] == {"galley": 1} and galley["depletion"] == 1
    wrong = judge(st, explore("alex", "g1", [(2, 0)], tile=SEA_TILE, rotation=3,
                              event_card="e2"))
    assert codes(wrong) == ["placement_priority_ignored"]


def test_a_galley_that_cannot_land_stays_undepleted_and_the_tile_stays() -> None:
    st = vessel_explore_state()
    out = judge(st, explore("alex", "g1", [(2, 0)], tile=PLAINS_FLOWER_TILE, rotation=4,
                            event_card="e2"))
    assert out.legal, codes(out)
    assert out.derived["landed"] is False
    [galley] = armies_at(out, (1, 0))
    assert galley["depletion"] == 0
    p2 = [hx for hx in out.state["hexes"] if hx["province"] == "P2"]
    assert all(hx["explored"] and hx["terrain"] == "plains" for hx in p2)
    assert [r["card"] for r in out.state["events"]["rows"][-1]][-1] == "e2"
    # A march changes nothing: the army that stays put is not depleted.
    out = judge(st, explore("alex", "g1", [(2, 0)], tile=PLAINS_FLOWER_TILE, rotation=4,
                            event_card="e2", march=True))
    assert out.legal and armies_at(out, (1, 0))[0]["depletion"] == 0


def test_any_rotation_when_condition_one_is_impossible() -> None:
    # No explored water near P2: no rotation of the sea tile continues a sea. Rotation 2 puts
    # the sea on the claimed hex (2,0), so the swordsman cannot land: it meets neither
    # condition, while rotations 0, 1, 3, 4, 5 meet condition 2. The Reading to implement:
    # "both ... when one exists; otherwise one that meets condition 1; otherwise any".
    out = judge(alex_state(), explore("alex", "x1", [(2, 0)], tile=SEA_TILE, rotation=2,
                                      event_card="e2"))
    assert out.legal, codes(out)
    assert out.derived["landed"] is False


def test_tile_rotation_must_fit_an_irregular_province() -> None:
    # Province T = {(2,0), (3,0), (2,1)}: a triangle of three hexes. The tile's triangle
    # {(0,0), E, SE} has the same orientation at rotations 0, 2, 4 and the opposite one at
    # 1, 3, 5, so only the even rotations fit.
    st = alex_state()
    st["hexes"] = flower((0, 0), "home") + [
        {"q": q, "r": r, "province": "T", "explored": False} for q, r in
        [(2, 0), (3, 0), (2, 1)]]
    tri = tile("t-tri", {(0, 0): "plains", (1, 0): "forest", (0, 1): "hills"})
    out = judge(st, explore("alex", "x1", [(2, 0)], tile=tri, rotation=2, event_card="e2"))
    assert out.legal, codes(out)
    assert [r["fits"] for r in out.derived["rotations"]] == [True, False] * 3
    # Turned 2 sixths: E -> NW (0,-1), SE -> NE (1,-1); the centre lands on (2,1).
    terrain = {(hx["q"], hx["r"]): hx["terrain"] for hx in out.state["hexes"]
               if hx["province"] == "T"}
    assert terrain == {(2, 1): "plains", (2, 0): "forest", (3, 0): "hills"}
    bad = judge(st, explore("alex", "x1", [(2, 0)], tile=tri, rotation=1, event_card="e2"))
    assert codes(bad) == ["tile_does_not_fit"]


# --- relic.1-3 ----------------------------------------------------------------------------------

def relic_state(to_place: int, other_unexplored: int) -> dict[str, Any]:
    """Two players (3 relics); P2 is explored now; ``other_unexplored`` one-hex provinces
    stay unexplored afterwards."""
    placed = [{"relic": f"r{i}", "hex": h(0, 0)} for i in range(3 - to_place)]
    st = alex_state(relics={"total": 3, "to_place": to_place,
                            "bag": ["crown", "chalice", "sword"][:to_place], "placed": placed})
    st["hexes"] += [{"q": 9 + i, "r": 0, "province": f"far{i}", "explored": False}
                    for i in range(other_unexplored)]
    return st


@pytest.mark.parametrize(("to_place", "others", "due"), [
    (3, 2, True),    # 3 left > 2 unexplored provinces remaining
    (2, 2, False),   # 2 left, 2 remaining: not more
    (2, 1, True),
    (1, 0, True),
    (1, 1, False),
    (0, 0, False),   # none left to place
])
def test_outlined_symbol_places_a_relic_only_when_relics_outnumber_provinces(
        to_place: int, others: int, due: bool) -> None:
    st = relic_state(to_place, others)
    act = explore("alex", "x1", [(2, 0)], tile=OUTLINED_TILE, rotation=0, event_card="e2")
    out = judge(st, {**act, "relic": "crown"} if due else act)
    assert out.legal, codes(out)
    placed = out.state["relics"]["placed"]
    if due:
        assert placed[-1] == {"relic": "crown", "hex": h(2, 1)}
        assert out.state["relics"]["to_place"] == to_place - 1
        assert "crown" not in out.state["relics"]["bag"]
    else:
        assert len(placed) == 3 - to_place
        # The rule that decides is cited: relic.2 when the outlined symbol's count fails,
        # relic.1 when no relic remains to be placed at all.
        code = "relic_not_due" if to_place else "no_relic_to_place"
        assert codes(judge(st, {**act, "relic": "crown"})) == [code]


def test_solid_symbol_places_nothing_once_all_relics_are_placed() -> None:
    st = relic_state(0, 0)
    act = explore("alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2, event_card="e2")
    out = judge(st, act)
    assert out.legal and len(out.state["relics"]["placed"]) == 3
    refused = judge(st, {**act, "relic": "crown"})
    assert codes(refused) == ["no_relic_to_place"]
    assert refused.violations[0].rule == "hex_maneuver/relic.1"


def test_the_game_uses_exactly_players_plus_one_relics() -> None:
    st = alex_state(relics={"total": 4, "to_place": 4, "bag": ["a", "b", "c", "d"],
                            "placed": []})
    assert "/state/relics/total" in pointers(st, explore(
        "alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2, relic="a", event_card="e2"))


def test_digital_mode_draws_the_relic_from_the_bag_reproducibly() -> None:
    st = alex_state(rng=12345)
    act = explore("alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2, event_card="e2")
    first, second = judge(st, act), judge(st, act)
    assert first.legal, codes(first)
    [placed] = first.state["relics"]["placed"]
    assert placed["hex"] == h(2, 0) and placed["relic"] in {"crown", "chalice", "sword"}
    assert sorted([*first.state["relics"]["bag"], placed["relic"]]) == sorted(
        st["relics"]["bag"])
    assert first.state["relics"]["to_place"] == 2
    assert first.state["rng"] != 12345
    assert first.state == second.state


# --- table vs digital: tile stack and event deck -----------------------------------------------

def test_digital_mode_flips_the_top_tile_and_picks_a_rotation_meeting_both_conditions() -> None:
    st = sea_state(tiles=[SEA_TILE, PLAINS_FLOWER_TILE])
    out = judge(st, explore("alex", "x1", [(2, 0)], event_card="e2"))
    assert out.legal, codes(out)
    assert [t["id"] for t in out.state["tiles"]] == ["t-plains"]
    chosen = out.derived["rotations"][out.derived["rotation"]]
    assert set(chosen["conditions"]) == {"water_continues", "army_can_land"}
    # The sea of rotation 1 lies on (3,0), next to province S.
    assert out.derived["rotation"] == 1


def test_the_flipped_event_card_is_the_top_of_the_deck() -> None:
    st = alex_state(events={"deck": ["e7", "e8"], "rows": []})
    out = judge(st, explore("alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2,
                            relic="crown", event_card="e8"))
    if out.legal:
        assert out.state["events"]["rows"] == [[{"card": "e7", "voting_cubes": ["alex"]}]]
        assert out.state["events"]["deck"] == ["e8"]


def test_a_named_tile_from_the_stack_leaves_the_stack() -> None:
    st = alex_state(tiles=[SOLID_TILE, PLAINS_FLOWER_TILE])
    out = judge(st, explore("alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2,
                            relic="crown", event_card="e2"))
    if out.legal:
        assert [t["id"] for t in out.state["tiles"]] == ["t-plains"]


def test_event_cards_fill_rows_of_three() -> None:
    row = [{"card": "e1", "voting_cubes": []}, {"card": "e2", "voting_cubes": ["bea"]}]
    st = alex_state(events={"deck": ["e3", "e4"], "rows": [row]})
    act = explore("alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2, relic="crown")
    out = judge(st, act)
    assert out.legal, codes(out)
    assert out.state["events"]["rows"] == [[*row, {"card": "e3", "voting_cubes": ["alex"]}]]
    assert out.state["events"]["deck"] == ["e4"]
    assert out.state["players"][0] == {"id": "alex", "relics": [], "voting_cubes": 1}
    # The row is full now: the next card begins a second row.
    st["events"] = out.state["events"]
    out = judge(st, act)
    assert out.state["events"]["rows"][-1] == [{"card": "e4", "voting_cubes": ["alex"]}]
    assert len(out.state["events"]["rows"]) == 2


# --- malformed input: InvalidInput with the right JSON pointer, never another exception ------

@pytest.mark.parametrize(("st", "act", "pointer"), [
    (state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0), (9, 9)]), "/action/path/1"),
    (state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0)], pickups=[{"army": "nope", "units": {"cavalrymen": 1}}]),
     "/action/pickups/0/army"),
    (state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                     army("r2", "red", (1, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0)], pickups=[{"army": "r2", "units": {"cavalrymen": 2}}]),
     "/action/pickups/0/units/cavalrymen"),
    (state(grid(2), [army("r1", "red", (0, 0), cavalrymen=2)]),
     maneuver("red", "r1", [(1, 0), (2, 0)], drops=[{"hex": h(1, 0), "units": {"archers": 1}}]),
     "/action/drops/0/units/archers"),
    (state(grid(2), [army("r1", "red", (0, 0), dragons=1)]),
     maneuver("red", "r1", [(1, 0)]), "/state/armies/0/units/dragons"),
    (state([*grid(1), {"q": 0, "r": 0, "terrain": "hills", "province": "home"}],
           [army("r1", "red", (0, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0)]), "/state/hexes/7"),
    (alex_state(), explore("alex", "x1", [(2, 0)], tile={"id": "t", "hexes": [
        {"dq": 0, "dr": 0, "terrain": "plains"}, {"dq": 0, "dr": 0, "terrain": "hills"}]},
        rotation=0, event_card="e2"), "/action/tile/hexes/1"),
    (alex_state(), explore("alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2,
                           relic="excalibur", event_card="e2"), "/action/relic"),
    (alex_state(), explore("carl", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2,
                           relic="crown", event_card="e2"), "/action/player"),
])
def test_malformed_input_names_the_bad_field(st: dict[str, Any], act: dict[str, Any],
                                             pointer: str) -> None:
    assert pointer in pointers(st, act)


def test_two_pickups_from_one_army_cannot_take_more_than_it_has() -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                         army("r2", "red", (1, 0), cavalrymen=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0)],
                   pickups=[{"army": "r2", "units": {"cavalrymen": 1}},
                            {"army": "r2", "units": {"cavalrymen": 1}}])
    assert any(p.startswith("/action/pickups/1") for p in pointers(st, act))


def test_unknown_unit_with_zero_count_in_a_pickup_is_not_a_crash() -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                         army("r2", "red", (1, 0), cavalrymen=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0)],
                   pickups=[{"army": "r2", "units": {"cavalrymen": 1, "dragons": 0}}])
    try:
        out = judge(st, act)
    except InvalidInput as err:
        assert all(p.pointer.startswith("/action/pickups/0/units") for p in err.problems)
    else:
        assert out.legal, codes(out)


def test_unknown_unit_with_zero_count_in_a_drop_is_not_a_crash() -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1, archers=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0)],
                   drops=[{"hex": h(1, 0), "units": {"dragons": 0}}])
    try:
        judge(st, act)
    except InvalidInput as err:
        assert all(p.pointer.startswith("/action/drops/0/units") for p in err.problems)


def test_a_drop_of_zero_units_forms_no_empty_army() -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1, archers=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0)],
                   drops=[{"hex": h(1, 0), "units": {"archers": 0}}])
    try:
        out = judge(st, act)
    except InvalidInput as err:
        assert all(p.pointer.startswith("/action/drops/0/units") for p in err.problems)
    else:
        assert all(sum(a["units"].values()) > 0 for a in out.state["armies"])


def test_a_bad_drop_is_named_by_its_own_index() -> None:
    st = state(grid(3), [army("r1", "red", (0, 0), cavalrymen=2, archers=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)],
                   drops=[{"hex": h(2, 0), "units": {"cavalrymen": 1}},
                          {"hex": h(1, 0), "units": {"archers": 3}}])
    assert pointers(st, act) == ["/action/drops/1/units/archers"]


def test_query_input_errors_name_the_bad_field() -> None:
    st = state(grid(1), [army("r1", "red", (0, 0), cavalrymen=1)])
    reach, legal = RULESET.queries["reachable"], RULESET.queries["legal-actions"]
    cases = [
        (reach, {"state": st, "army": "r9"}, "/army"),
        (reach, {"state": st, "army": "r1", "units": {"cavalrymen": 2}}, "/units/cavalrymen"),
        (legal, {"state": st, "player": "green"}, "/player"),
    ]
    for query, body, pointer in cases:
        with pytest.raises(InvalidInput) as err:
            query.run(query.request.model_validate(body))
        assert pointer in [p.pointer for p in err.value.problems]


# --- queries: reachable and legal-actions against hand costs and brute force ------------------

ONE_HEX_TILE = tile("t-one", {(0, 0): "plains"})


def map_m(movers: list[dict[str, Any]], galley_depletion: int = 1) -> dict[str, Any]:
    """Radius-2 map: mountains (1,0) and (2,-1), swamp (0,1), sea (-1,0) and (-2,0), ocean
    (-2,1) and (-1,1); own city (1,-1), own castle on the mountains (2,-1); own galley on
    (-2,0); a blue army on (0,-1) and a blue city on (0,2); (2,0) is a one-hex unexplored
    province."""
    terrain = {(1, 0): "mountains", (2, -1): "mountains", (0, 1): "swamp", (-1, 0): "sea",
               (-2, 0): "sea", (-2, 1): "ocean", (-1, 1): "ocean"}
    hexes = [hx for hx in grid(2, terrain) if (hx["q"], hx["r"]) != (2, 0)]
    hexes.append({"q": 2, "r": 0, "province": "U", "explored": False})
    return state(hexes, [*movers, army("b1", "blue", (0, -1), swordsmen=1),
                         army("g", "red", (-2, 0), depletion=galley_depletion, galley=1)],
                 structures=[city("c1", "red", (1, -1)), city("k1", "red", (2, -1), "castle"),
                             city("bc", "blue", (0, 2))],
                 events={"deck": ["ev"], "rows": []})


def reachable(st: dict[str, Any], army_id: str, **extra: Any) -> Any:
    query = RULESET.queries["reachable"]
    return query.run(query.request.model_validate({"state": st, "army": army_id, **extra}))


def test_reachable_costs_worked_out_by_hand() -> None:
    # Swordsmen (2 MP, 3 on a march) on (0,0). Ferry zone of the depleted galley on (-2,0):
    # (-2,0), (-1,0), (-1,-1), (-2,1). The own city (1,-1) is free once; the castle on
    # mountains (2,-1) costs 1 when the city is paid (1 + 0) instead of 0 + 2.
    st = map_m([army("r1", "red", (0, 0), swordsmen=1)])
    answer = reachable(st, "r1")
    assert answer.movement_points == 2
    got = {(d.hex.q, d.hex.r): (d.cost, d.march, d.explore) for d in answer.destinations}
    expected = {
        (0, 0): 0, (1, -1): 0, (-1, 0): 0, (-2, 0): 0, (-2, 1): 0, (-1, -1): 0,
        (2, -1): 1, (2, -2): 1, (1, -2): 1, (0, -2): 1, (-2, 2): 1,
        (-1, 2): 2, (0, 1): 2, (1, 0): 2,
        (1, 1): 3,
    }
    want = {x: (c, c > 2, False) for x, c in expected.items()}
    want[(2, 0)] = (3, True, True)   # explore: castle (1) + unexplored (2)
    assert got == want
    # Blocked: the blue army (0,-1), the blue city (0,2), the ocean (-1,1) next to no vessel.


def brute_force(st: dict[str, Any], army_id: str, max_len: int = 6
                ) -> tuple[dict[Hex, int], dict[Hex, int]]:
    """Cheapest legal cost (on a march) of every hex the whole army can end a maneuver on,
    and of every hex it can claim in an exploration, over every simple path up to
    ``max_len`` hexes. Illegal prefixes are not extended: a step's violations stay and a
    path's cost never falls as it grows."""
    cells = {(hx["q"], hx["r"]) for hx in st["hexes"]}
    unexplored = {(hx["q"], hx["r"]) for hx in st["hexes"] if not hx.get("explored", True)}
    owner = next(a for a in st["armies"] if a["id"] == army_id)["owner"]
    start = next((a["hex"]["q"], a["hex"]["r"]) for a in st["armies"] if a["id"] == army_id)
    moves: dict[Hex, int] = {}
    explores: dict[Hex, int] = {}
    stack: list[list[Hex]] = [[]]
    while stack:
        walk = stack.pop()
        end = walk[-1] if walk else start
        if end in unexplored:
            out = judge(st, explore(owner, army_id, walk, tile=ONE_HEX_TILE, rotation=0,
                                    march=True))
            if out.legal:
                explores[end] = min(explores.get(end, 99), out.derived["cost"])
            continue
        out = judge(st, maneuver(owner, army_id, walk, march=True))
        if not out.legal:
            continue
        moves[end] = min(moves.get(end, 99), out.derived["cost"])
        if len(walk) < max_len:
            stack += [[*walk, n] for n in neighbours(end)
                      if n in cells and n not in walk and n != start]
    return moves, explores


MOVERS = {
    "swordsmen": ([army("r1", "red", (0, 0), swordsmen=1)], 1),
    "cavalry": ([army("r1", "red", (0, 0), cavalrymen=2)], 1),
    "peasants": ([army("r1", "red", (0, 0), peasants=1)], 1),
    "cavalry_and_catapult": ([army("r1", "red", (0, 0), cavalrymen=1, catapult=1)], 1),
    "unpacked_trebuchet": ([{**army("r1", "red", (0, 0), trebuchet=1), "unpacked": 1}], 1),
    "galley": ([army("r1", "red", (-1, 0), galley=1)], 0),
}


@pytest.mark.parametrize("mover", sorted(MOVERS))
def test_reachable_and_legal_actions_match_brute_force(mover: str) -> None:
    movers, galley_depletion = MOVERS[mover]
    st = map_m(movers, galley_depletion)
    before = json.dumps(st, sort_keys=True)
    answer = reachable(st, "r1")
    listed = {(d.hex.q, d.hex.r): d for d in answer.destinations}
    for at, d in listed.items():
        path = [p.model_dump() for p in d.path]
        if d.explore:
            out = judge(st, {**explore("red", "r1", [], tile=ONE_HEX_TILE, rotation=0),
                             "path": path, "march": d.march})
        else:
            out = judge(st, {**maneuver("red", "r1", []), "path": path, "march": d.march})
        assert out.legal, (at, codes(out))
        assert out.derived["cost"] == d.cost, at
        assert d.march == (d.cost > answer.movement_points), at
        end = (path[-1]["q"], path[-1]["r"]) if path else (movers[0]["hex"]["q"],
                                                           movers[0]["hex"]["r"])
        assert end == at
    moves, explores = brute_force(st, "r1")
    assert {x: d.cost for x, d in listed.items() if not d.explore} == moves
    assert {x: d.cost for x, d in listed.items() if d.explore} == explores

    query = RULESET.queries["legal-actions"]
    actions = query.run(query.request.model_validate({"state": st, "player": "red"})).actions
    by_army: dict[str, set[Hex]] = {}
    for action in actions:
        act = action.model_dump(mode="json")
        out = judge(st, act)
        assert out.legal, (act, codes(out))
        start = next((a["hex"]["q"], a["hex"]["r"]) for a in st["armies"]
                     if a["id"] == act["army"])
        if act["type"] != "maneuver" or act["units"] or act["drops"] or act["pickups"]:
            continue  # the whole army's maneuvers are what brute force finds
        by_army.setdefault(act["army"], set()).add(
            (act["path"][-1]["q"], act["path"][-1]["r"]) if act["path"] else start)
    assert by_army["r1"] == set(moves)
    if galley_depletion == 0:
        assert by_army["g"] == set(brute_force(st, "g")[0])
    assert json.dumps(st, sort_keys=True) == before


def test_reachable_lists_only_moves_that_validate_accepts_for_a_depleted_army() -> None:
    st = state(grid(1), [army("r1", "red", (0, 0), depletion=1, swordsmen=1)])
    for d in reachable(st, "r1").destinations:
        out = judge(st, {**maneuver("red", "r1", []),
                         "path": [p.model_dump() for p in d.path], "march": d.march})
        assert out.legal, codes(out)


# --- the input state is never mutated ------------------------------------------------------------

def test_judging_never_mutates_the_input() -> None:
    st = state(grid(3), [army("r1", "red", (0, 0), cavalrymen=2, archers=1),
                         army("r2", "red", (1, 0), cavalrymen=2),
                         army("r3", "red", (2, 0), swordsmen=1)],
               structures=[city("c1", "red", (1, 0))])
    act = maneuver("red", "r1", [(1, 0), (2, 0)], march=True,
                   pickups=[{"army": "r2", "units": {"cavalrymen": 1}}],
                   drops=[{"hex": h(1, 0), "units": {"archers": 1}}])
    ex_st = alex_state(rng=99, tiles=[SOLID_TILE, PLAINS_FLOWER_TILE],
                       events={"deck": ["e7", "e8"], "rows": []})
    ex_act = explore("alex", "x1", [(2, 0)])
    for raw_state, raw_action in ((st, act), (ex_st, ex_act)):
        raw_before = copy.deepcopy(raw_state), copy.deepcopy(raw_action)
        model = RULESET.state_model.model_validate(raw_state)
        action = RULESET.action_model.model_validate(raw_action)
        dumped = model.model_dump(mode="json")
        out = RULESET.validate(model, action, "strict")
        assert out.legal, codes(out)
        again = RULESET.validate(model, action, "advisory")
        assert again.state == out.state
        # Scribbling on the result must not reach the input either.
        out.state["armies"][0]["units"]["cavalrymen"] = 99
        out.state["hexes"][0]["terrain"] = "ocean"
        assert model.model_dump(mode="json") == dumped
        assert (raw_state, raw_action) == raw_before
    before = copy.deepcopy(st)
    reachable(st, "r1")
    query = RULESET.queries["legal-actions"]
    query.run(query.request.model_validate({"state": st, "player": "red"}))
    assert st == before


def test_a_malformed_state_never_shares_a_cache_key_with_a_valid_one() -> None:
    query = RULESET.queries["reachable"]
    good = query.request.model_validate({"state": alex_state(), "army": "x1"})
    bad = query.request.model_validate({"state": alex_state(relics={
        "total": 5, "to_place": 5, "bag": [], "placed": []}), "army": "x1"})
    query.run(good)
    with pytest.raises(InvalidInput):
        query.run(bad)
    # Through the cache: the valid answer is cached, the malformed twin still gets its 422.
    import asyncio

    import orjson

    from arbiter.cache.memory import LruCache
    from arbiter.cache.tiered import AnswerCache
    from arbiter.service.configured import configured
    from arbiter.settings import Settings

    service = configured(Settings(), cache=AnswerCache(LruCache(10, 1 << 20)))
    asyncio.run(service.query(RULESET, query, orjson.dumps(good.model_dump(mode="json"))))
    with pytest.raises(InvalidInput):
        asyncio.run(service.query(RULESET, query, orjson.dumps(bad.model_dump(mode="json"))))

"""How hex_maneuver moves armies: an army moves at its slowest unit, picked-up units
included (movement.1, march.1); splits, pick-ups, drops and merges (split.1-2, pickup.1,
merge.1); enemy armies and structures block passing and ending (maneuver.2); an own city
or castle is entered free once per maneuver (terrain.4).

Every expected verdict is worked out by hand from the rules text (the source sentences
and the binding "Reading to implement"), never copied from the engine.

Geometry: axial (q, r), pointy-top; the neighbours of (0,0) are E (1,0), NE (1,-1),
NW (0,-1), W (-1,0), SW (-1,1), SE (0,1).
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.rulesets.hex_maneuver_cases import army, grid, h, maneuver, state
from tests.rulesets.hex_maneuver_judging import (
    Hex,
    armies_at,
    city,
    codes,
    judge,
    units_by_owner,
)

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

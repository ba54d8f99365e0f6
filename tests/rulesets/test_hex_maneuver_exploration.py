"""Exploring in hex_maneuver: a maneuver never enters an unexplored hex, an exploration
crosses no other, and only military units explore (explore.1-5); the tile's placement and
rotation (the two conditions, an irregular province); relics placed by the tile's symbols,
and refused under the rule that decides (relic.1-3); and what table and digital mode draw:
the tile stack, the event deck and its rows of three (event.1-2).

Every expected verdict is worked out by hand from the rules text (the source sentences
and the binding "Reading to implement"), never copied from the engine.

Geometry: axial (q, r), pointy-top; the neighbours of (0,0) are E (1,0), NE (1,-1),
NW (0,-1), W (-1,0), SW (-1,1), SE (0,1). Rotations turn E -> NE -> NW (sixths, CCW).
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.rulesets.hex_maneuver_cases import (
    FLOWER,
    alex_state,
    army,
    explore,
    flower,
    h,
    maneuver,
)
from tests.rulesets.hex_maneuver_judging import (
    LAGOON_TILE,
    OUTLINED_TILE,
    PLAINS_FLOWER_TILE,
    RULESET,
    SEA_TILE,
    SOLID_TILE,
    armies_at,
    codes,
    judge,
    pointers,
    tile,
)


def sea_state(**extra: Any) -> dict[str, Any]:
    """alex_state plus an explored all-sea province S centred (3,-2), which borders P2's
    hexes (3,0) and (2,0)."""
    st = alex_state(**extra)
    st["hexes"] = st["hexes"] + flower((3, -2), "S", {(3 + dq, -2 + dr): "sea"
                                                      for dq, dr in FLOWER})
    return st


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
    assert "/state/relics/total" in pointers(lambda: judge(st, explore(
        "alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2, relic="a", event_card="e2")))


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


def test_a_relic_due_with_no_seed_and_an_empty_bag_says_the_bag_is_empty() -> None:
    st = alex_state(relics={"total": 3, "to_place": 1, "bag": [], "placed": [
        {"relic": "crown", "hex": h(0, 0)}, {"relic": "chalice", "hex": h(-1, 0)}]})
    act = explore("alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2, event_card="e2")
    out = judge(st, act)
    assert codes(out) == ["relic_bag_empty"]
    assert "bag is empty" in out.violations[0].message
    assert "seed" not in out.violations[0].message
    # Table mode names the relic: accepted (the state keeps no bag to check it against).
    assert judge(st, {**act, "relic": "sword"}).legal
    # With relics in the bag and no seed, the message still offers both ways.
    st["relics"]["bag"] = ["sword"]
    out = judge(st, act)
    assert codes(out) == ["relic_draw_missing"] and "rng seed" in out.violations[0].message


def test_relic_codes_cite_their_rules() -> None:
    rules = {c: RULESET.catalogue.codes[c].rule for c in
             ("no_relic_to_place", "relic_not_due", "relic_bag_empty", "relic_draw_missing")}
    assert rules == {"no_relic_to_place": "hex_maneuver/relic.1",
                     "relic_not_due": "hex_maneuver/relic.2",
                     "relic_bag_empty": "hex_maneuver/relic.3",
                     "relic_draw_missing": "hex_maneuver/relic.3"}



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

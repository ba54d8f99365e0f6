"""Siege engines in hex_maneuver (trebuchet.1): a trebuchet attacks only while unpacked;
packing and unpacking each cost 1 MP, so one that moved unpacks only with a movement
point left and when the action asks; an army joined keeps its own unpacked trebuchets; a
catapult needs no unpacking.

Every expected verdict is worked out by hand from the rules text (the source sentences
and the binding "Reading to implement"), never copied from the engine.

Geometry: axial (q, r), pointy-top; the neighbours of (0,0) are E (1,0), NE (1,-1),
NW (0,-1), W (-1,0), SW (-1,1), SE (0,1).
"""

from __future__ import annotations

from typing import Any

from tests.rulesets.hex_maneuver_cases import army, grid, maneuver, state
from tests.rulesets.hex_maneuver_judging import RULESET, codes, judge


def siege(**units: int) -> dict[str, Any]:
    """Red's army on (0,0) and a blue army on (3,0): 3 hexes from (0,0), 2 from (1,0)."""
    return state(grid(3), [army("r1", "red", (0, 0), **units),
                           army("b1", "blue", (3, 0), swordsmen=1)])


def test_the_trebuchet_paraphrase_says_packing_and_unpacking_cost_1_mp() -> None:
    [text] = [r.paraphrase for r in RULESET.catalogue.rules
              if r.id == "hex_maneuver/trebuchet.1"]
    assert "packing and unpacking each cost 1 MP" in text


def test_an_unpacked_trebuchet_that_moves_cannot_also_unpack() -> None:
    # Pack 1 + plains 1 + unpack 1 = 3 MP, more than 1 + the march's 1.
    st_ = siege(trebuchet=1)
    st_["armies"][0]["unpacked"] = 1
    out = judge(st_, maneuver("red", "r1", [(1, 0)], march=True, unpack=True))
    assert codes(out) == ["unpack_needs_a_movement_point"]
    assert out.violations[0].params["cost"] == 2
    out = judge(st_, maneuver("red", "r1", [(1, 0)], march=True))
    assert out.legal and out.derived["in_range"] == [] and out.derived["unpacked"] == 0


def test_the_army_must_have_the_point_left_not_only_the_trebuchet() -> None:
    # A trebuchet made 3 MP fast moves with swordsmen (2 MP): after two plains hexes the
    # army (at its slowest unit's 2 MP) has nothing left to unpack with.
    st_ = siege(trebuchet=1, swordsmen=1)
    st_["unit_types"] = {"trebuchet": {"unit_class": "siege_engine", "movement": 3,
                                       "attack": "projectile", "range_min": 2,
                                       "range_max": 3, "packs": True}}
    far = judge(st_, maneuver("red", "r1", [(0, 1), (0, 2)], unpack=True))
    assert codes(far) == ["unpack_needs_a_movement_point"]
    near = judge(st_, maneuver("red", "r1", [(1, 0)], unpack=True))
    assert near.legal, codes(near)
    assert [t["id"] for t in near.derived["in_range"]] == ["b1"]


def test_staying_unpacked_trebuchets_keep_their_targets_and_unpacking_more_costs() -> None:
    st_ = siege(trebuchet=2)
    st_["armies"][0]["unpacked"] = 1
    stay = judge(st_, maneuver("red", "r1", []))
    assert stay.legal and stay.derived["unpacked"] == 1
    assert [t["id"] for t in stay.derived["in_range"]] == ["b1"]
    both = judge(st_, maneuver("red", "r1", [], unpack=True))
    assert both.legal and both.state is not None
    assert [a["unpacked"] for a in both.state["armies"] if a["id"] == "r1"] == [2]


def test_an_army_joined_keeps_its_own_unpacked_trebuchets() -> None:
    # merge.1: the arriving trebuchet stands packed; the host's unpacked one stays so.
    st_ = siege(trebuchet=1)
    st_["armies"].append({**army("r2", "red", (1, 0), trebuchet=1), "unpacked": 1})
    out = judge(st_, maneuver("red", "r1", [(1, 0)]))
    assert out.legal and out.state is not None
    [host] = [a for a in out.state["armies"] if a["id"] == "r2"]
    assert host["units"] == {"trebuchet": 2} and host["unpacked"] == 1


def test_a_catapult_needs_no_unpacking() -> None:
    # Only packing units pack: a catapult that moved has its targets (range 1-2).
    out = judge(siege(catapult=1), maneuver("red", "r1", [(1, 0)]))
    assert out.legal and [t["distance"] for t in out.derived["in_range"]] == [2]

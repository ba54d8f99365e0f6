"""Combinations of hex_maneuver's rules that the golden cases cannot express (batches,
queries next to validate). Expected verdicts worked out by hand from
../shared/rules/hex_maneuver.md, never recorded from the engine.

Geometry: axial (q, r), pointy-top; the neighbours of (0,0) are E (1,0), NE (1,-1),
NW (0,-1), W (-1,0), SW (-1,1), SE (0,1).
"""

from __future__ import annotations

from typing import Any

from tests.rulesets.hex_maneuver_cases import FLOWER, army, explore, flower, grid, h, maneuver

from arbiter.rulesets import load
from arbiter.rulesets.hex_maneuver.queries import HexManeuverReachableRequest, run_reachable

RULESET = load("hex_maneuver")


def _state(hexes: list[dict[str, Any]], armies: list[dict[str, Any]], **extra: Any
           ) -> dict[str, Any]:
    return {"hexes": hexes, "players": [{"id": "red", "voting_cubes": 2},
                                        {"id": "blue", "voting_cubes": 2}],
            "armies": armies, **extra}


def test_a_sequence_moves_over_the_terrain_an_exploration_revealed() -> None:
    # explore.3, terrain.2-3: before the tile is flipped the hex (1,1) of P2 cannot be
    # entered by a maneuver; once the exploration has laid an all-mountains tile, a second
    # army walks plains (0,1) 1 + mountains (1,1) 2 = 3 MP, a cavalryman's full points.
    mountains = {"id": "t-m", "hexes": [{"dq": dq, "dr": dr, "terrain": "mountains"}
                                        for dq, dr in FLOWER]}
    st = _state(flower((0, 0), "home") + flower((2, 1), "P2", explored=False),
                [army("x", "red", (1, 0), cavalrymen=1), army("y", "red", (-1, 1),
                                                            cavalrymen=1)],
                tiles=[mountains], events={"deck": ["e1"], "rows": []})
    state = RULESET.state_model.model_validate(st)
    walk = maneuver("red", "y", [(0, 1), (1, 1)])
    before = RULESET.validate(state, RULESET.action_model.model_validate(walk))
    assert [v.code for v in before.violations] == ["unexplored_needs_explore"]

    actions = [RULESET.action_model.model_validate(a)
               for a in (explore("red", "x", [(2, 0)]), walk, maneuver("red", "x", []))]
    first, second, third = list(RULESET.validate_batch(state, actions, sequence=True))
    assert first.legal and first.state is not None
    assert first.state["tiles"] == [] and first.state["events"]["deck"] == []
    assert second.legal and second.derived["cost"] == 3
    assert second.state is not None
    assert [a["hex"] for a in second.state["armies"]] == [h(2, 0), h(1, 1)]
    # maneuver.1: the explorer was depleted by the exploration.
    assert [v.code for v in third.violations] == ["army_depleted"]


def test_staying_with_a_pickup_keeps_every_trebuchet_unpacked() -> None:
    # trebuchet.1 with maneuver.3 and pickup.1: nothing moves, so nothing packs.
    st = _state(grid(1), [army("t1", "red", (0, 0), trebuchet=2),
                          army("t2", "red", (0, 0), trebuchet=1)])
    st["armies"][0]["unpacked"] = 1
    st["armies"][1]["unpacked"] = 1
    act = maneuver("red", "t1", [], pickups=[{"army": "t2", "units": {"trebuchet": 1}}])
    out = RULESET.validate(RULESET.state_model.model_validate(st),
                           RULESET.action_model.model_validate(act))
    assert out.legal and out.state is not None
    assert [(a["units"], a["unpacked"], a["depletion"]) for a in out.state["armies"]] == [
        ({"trebuchet": 3}, 2, 1)]


def test_reachable_marks_a_galley_carrying_land_units_as_ferrying() -> None:
    # ferry.2: the swordsmen aboard are ferried; a galley alone ferries nobody.
    water = {(q, r): "sea" for q in range(-2, 3) for r in range(-2, 3)}
    st = _state(grid(2, water), [army("g", "red", (0, 0), galley=1, swordsmen=1)])
    state = RULESET.state_model.model_validate(st)
    both = run_reachable(HexManeuverReachableRequest(state=state, army="g"))
    alone = run_reachable(HexManeuverReachableRequest(state=state, army="g",
                                                      units={"galley": 1}))
    assert {d.ferry for d in both.destinations if d.path} == {True}
    assert {d.ferry for d in alone.destinations} == {False}
    act = maneuver("red", "g", [(1, 0)])
    out = RULESET.validate(state, RULESET.action_model.model_validate(act))
    assert out.legal and out.derived["ferried"] is True

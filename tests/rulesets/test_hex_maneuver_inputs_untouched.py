"""Judging with hex_maneuver leaves its input alone: neither the models nor the JSON it is
given change, through a maneuver with pick-ups and drops, a digital exploration, the
queries, and a caller who scribbles on the answer's state."""

from __future__ import annotations

import copy

from tests.rulesets.hex_maneuver_cases import alex_state, army, explore, grid, h, maneuver, state
from tests.rulesets.hex_maneuver_judging import (
    PLAINS_FLOWER_TILE,
    RULESET,
    SOLID_TILE,
    ask,
    city,
    codes,
)


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
    ask("reachable", {"state": st, "army": "r1"})
    ask("legal-actions", {"state": st, "player": "red"})
    assert st == before

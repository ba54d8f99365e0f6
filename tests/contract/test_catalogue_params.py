"""The params every violation and event carries are exactly what its catalogue entry
declares (``build_catalogue``'s param types, the model ``Catalogue.params_model`` makes):
no param missing, none extra, each of its declared type, with no coercion (strict). The
declarations type GraphQL's params and OpenAPI's description, so they must not drift
from what the rules emit. The generic contract checks it on every ruleset, in its golden
cases and on random positions (``generic``: ``golden_cases_emit_params_...`` and
``random_positions_emit_params_...``, with ``checks.params_misses`` and
``checks.derived_misses``); here, those two can fail, and every golden case folder is
one a ruleset's check reads.
"""

from __future__ import annotations

from typing import Any

import pytest

from arbiter.engine.catalogue import build_catalogue
from arbiter.engine.hexgrid import Axial
from arbiter.rulesets import names
from arbiter.rulesets.area_movement.derived import AreaMovementDerived

from .checks import derived_misses, params_misses
from .under_test import TESTS

Answer = dict[str, Any]


# --- the checks can fail -------------------------------------------------------------------

DEMO = build_catalogue(
    "demo", "1.0.0", "A demo", rules=[("move.1", "Moves.")],
    codes=[("far", "move.1", "{hex} is {cost} MP away")],
    events=[("moved", "move.1", "moved {units}", {"march": bool})],
    param_types={"hex": Axial, "cost": int, "units": dict[str, int]})


@pytest.mark.parametrize(("violation", "event", "why"), [
    ({"hex": {"q": 0, "r": 1}, "cost": "2"}, {"units": {"a": 1}, "march": True}, "cost"),
    ({"hex": {"q": 0, "r": 1}, "cost": 2, "mp": 1}, {"units": {"a": 1}, "march": True}, "mp"),
    ({"hex": {"q": 0, "r": 1}}, {"units": {"a": 1}, "march": True}, "cost"),
    ({"hex": [0, 1], "cost": 2}, {"units": {"a": 1}, "march": True}, "hex"),
    ({"hex": {"q": 0, "r": 1}, "cost": 2}, {"units": {"a": 1}}, "march"),
    ({"hex": {"q": 0, "r": 1}, "cost": 2}, {"units": {"a": True}, "march": True}, "units"),
])
def test_a_param_missing_extra_or_mistyped_is_reported(violation: Answer, event: Answer,
                                                       why: str) -> None:
    outcome = {"violations": [{"code": "far", "params": violation}],
               "events": [{"kind": "moved", "params": event}]}
    misses = params_misses(DEMO, outcome)
    assert len(misses) == 1 and why in misses[0], misses
    fine = {"violations": [{"code": "far", "params": {"hex": {"q": 0, "r": 1}, "cost": 2}}],
            "events": [{"kind": "moved", "params": {"units": {"a": 1}, "march": False}}]}
    assert params_misses(DEMO, fine) == []


def test_every_golden_case_folder_is_a_rulesets() -> None:
    # A folder under tests/cases named after no ruleset would be read by no check.
    folders = {p.name for p in (TESTS / "cases").iterdir() if p.is_dir()}
    assert folders == set(names())


# A whole area_movement derived answer, and what each case breaks in it.
TURN = {"moving": "red", "may_move": ["red"], "simultaneous": False}
PLAN = {"steps": 2, "first_illegal_step": 1, "whole_plan_violations": 0}
DERIVED = {"plan": PLAN, "turn": TURN, "turn_after": TURN}


@pytest.mark.parametrize(("derived", "why"), [
    ({**DERIVED, "cost": 1}, "cost"),
    ({**DERIVED, "plan": {**PLAN, "steps": "2"}}, "steps"),
    ({**DERIVED, "plan": {"steps": 2, "whole_plan_violations": 0}}, "first_illegal_step"),
    ({"turn": TURN, "turn_after": TURN}, "plan"),
])
def test_derived_facts_missing_extra_or_mistyped_are_reported(derived: Answer, why: str) -> None:
    model = AreaMovementDerived
    misses = derived_misses(model, {"derived": derived})
    assert len(misses) == 1 and why in misses[0], misses
    assert derived_misses(model, {"derived": DERIVED}) == []
    assert derived_misses(None, {"derived": {"x": 1}}) != []

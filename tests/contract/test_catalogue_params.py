"""The params every violation and event carries are exactly what its catalogue entry
declares (``build_catalogue``'s param types, the model ``Catalogue.params_model`` makes):
no param missing, none extra, each of its declared type, with no coercion (strict). The
declarations type GraphQL's params and OpenAPI's description, so they must not drift
from what the rules emit: every golden case (tests/cases, tests/toy/cases) and, on random
positions of every ruleset (``boards.SUBJECTS``), every action its generator proposes,
judged in advisory mode (which applies an illegal action where it can, so its events
are emitted too), are checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from pydantic import BaseModel, ValidationError

from arbiter.engine.catalogue import Catalogue, build_catalogue
from arbiter.engine.errors import InvalidInput
from arbiter.engine.hexgrid import Axial
from arbiter.engine.registry import AnyRuleset
from arbiter.rulesets.area_movement.derived import AreaMovementDerived
from golden import load_cases, typed_params
from test_golden_engine import REGISTRY, run_engine
from toy.tic_tac_toe import RULESET as TOY

from .checks import compiled, judged, proposed
from .test_contract import RULESET_IDS, SETTINGS, TESTS, subject_of

Answer = dict[str, Any]


def params_misses(catalogue: Catalogue, outcome: Answer) -> list[str]:
    """Every violation or event of an outcome (as JSON) whose params are not exactly
    those its catalogue entry declares."""
    misses = []
    for said, items, key in (("violation", outcome["violations"], "code"),
                             ("event", outcome["events"], "kind")):
        for item in items:
            miss = _inexact(catalogue.params_model(said, item[key]), item["params"])
            if miss:
                misses.append(f"{said} {item[key]}: {miss}")
    return misses


def _inexact(model: type[BaseModel], params: Answer) -> str | None:
    try:
        parsed = model.model_validate(params)
    except ValueError as exc:
        return f"{params}: {exc}"
    again = parsed.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return None if again == params else f"{params} reads as {again}"


def _results(value: Any) -> list[Answer]:
    """The order results (phased_orders) in derived facts, at any depth."""
    if isinstance(value, list):
        return [r for v in value for r in _results(v)]
    if not isinstance(value, dict):
        return []
    here = [value] if {"status", "code", "params"} <= set(value) else []
    return here + [r for v in value.values() for r in _results(v)]


def derived_misses(derived_model: type[BaseModel] | None, outcome: Answer) -> list[str]:
    """The outcome's derived facts, unless they are exactly what the ruleset's derived
    model declares (none: the ruleset derives nothing)."""
    derived = outcome["derived"]
    if derived_model is None:
        return [] if derived == {} else [f"derived {derived} without a derived model"]
    try:
        parsed = derived_model.model_validate(derived, strict=True)
    except ValueError as exc:
        return [f"derived {derived}: {exc}"]
    again = parsed.model_dump(mode="json", exclude_unset=True)
    if again != derived:
        return [f"derived {derived} reads as {again}"]
    # Params typed by their code within the facts: a phased_orders order result's.
    models = typed_params(derived_model)
    return [f"result {r['code']}: {miss}" for r in _results(derived)
            if (miss := _inexact(models[r["code"]], r["params"]))]


def _toy_cases() -> list[tuple[str, Answer]]:
    return [(f"toy/{p.stem}", json.loads(p.read_text()) | {"ruleset": TOY.id})
            for p in sorted((TESTS / "toy" / "cases").glob("*.json"))]


GOLDEN = [(n, c) for n, c in [*load_cases(), *_toy_cases()]
          if "query" not in c and (c["ruleset"] == TOY.id or REGISTRY.get(c["ruleset"]))]


def _run(case: Answer) -> tuple[int, Answer, AnyRuleset]:
    if case["ruleset"] == TOY.id:
        try:
            outcome = TOY.validate(case["state"], case["action"], case.get("mode", "strict"))
        except (InvalidInput, ValidationError):
            return 422, {}, TOY
        return 200, outcome.model_dump(mode="json"), TOY
    ruleset = REGISTRY.get(case["ruleset"])
    assert ruleset is not None
    status, body = run_engine(case)
    return status, body, ruleset


def test_every_golden_case_emits_params_and_derived_facts_as_declared() -> None:
    misses, seen = [], 0
    for name, case in GOLDEN:
        status, body, ruleset = _run(case)
        if status != 200:
            continue
        seen += len(body["violations"]) + len(body["events"])
        misses += [f"{name}: {m}" for m in params_misses(ruleset.catalogue, body)]
        misses += [f"{name}: {m}" for m in derived_misses(ruleset.derived_model, body)]
    assert seen > 1000, seen
    assert not misses, "\n".join(misses[:40])


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_random_positions_emit_params_and_derived_facts_as_declared(ruleset_id: str) -> None:
    ruleset, subject = subject_of(ruleset_id)

    @SETTINGS
    @given(state=subject.states)
    def every_proposal(state: dict[str, Any]) -> None:
        model, board = compiled(ruleset, state, "the drawn state")
        for player in subject.players(state):
            for action in proposed(ruleset, board, player):
                outcome = judged(ruleset, model, action, "advisory", "a proposed action")
                body = outcome.model_dump(mode="json")
                misses = [*params_misses(ruleset.catalogue, body),
                          *derived_misses(ruleset.derived_model, body)]
                assert not misses, "\n".join(misses)

    every_proposal()


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


def test_every_golden_case_file_is_read() -> None:
    # A case directory the loader skipped would leave its params unchecked.
    files = len(list((TESTS / "cases").glob("*/**/*.json"))) + len(
        list(Path(TESTS / "toy" / "cases").glob("*.json")))
    queries = sum(1 for _, c in [*load_cases(), *_toy_cases()] if "query" in c)
    assert len(GOLDEN) + queries == files


@pytest.mark.parametrize(("derived", "why"), [
    ({"plan": {"steps": 2, "first_illegal_step": None}, "cost": 1}, "cost"),
    ({"plan": {"steps": "2", "first_illegal_step": None}}, "steps"),
    ({"plan": {"steps": 2}}, "first_illegal_step"),
    ({}, "plan"),
])
def test_derived_facts_missing_extra_or_mistyped_are_reported(derived: Answer, why: str) -> None:
    model = AreaMovementDerived
    misses = derived_misses(model, {"derived": derived})
    assert len(misses) == 1 and why in misses[0], misses
    assert derived_misses(model, {"derived": {"plan": {"steps": 2,
                                                       "first_illegal_step": 1}}}) == []
    assert derived_misses(None, {"derived": {"x": 1}}) != []

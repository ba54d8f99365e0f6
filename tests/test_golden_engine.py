"""Every golden case through the engine alone (REST and GraphQL: tests/api/test_golden_api.py)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from arbiter.engine.errors import InvalidInput
from arbiter.rulesets import builtin_registry
from golden import check_outcome, load_cases, subset_mismatch

# ARBITER_RULESETS narrows a local run to some rulesets, as it narrows the service.
REGISTRY = builtin_registry(os.environ.get("ARBITER_RULESETS", ""))
CASES = [(n, c) for n, c in load_cases() if REGISTRY.get(c["ruleset"]) is not None]


def run_engine(case: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Run a case in-process; returns (status, body) as the REST API would answer."""
    ruleset = REGISTRY.get(case["ruleset"])
    assert ruleset is not None, f"unknown ruleset {case['ruleset']}"
    try:
        if "query" in case:
            query = ruleset.queries[case["query"]]
            request = query.request.model_validate(case["request"])
            return 200, query.run(request).model_dump(mode="json")
        state = ruleset.state_model.model_validate(case["state"])
        action = ruleset.action_model.model_validate(case["action"])
        outcome = ruleset.validate(state, action, case.get("mode", "strict"))
        # The service adds what it alone makes: a patch (asked for by ``return``) and the
        # resulting state's signature (when the service signs states).
        return 200, {**outcome.model_dump(mode="json"), "patch": None, "signature": None}
    except InvalidInput as exc:
        return 422, {"pointers": sorted(p.pointer for p in exc.problems)}


@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_golden_case_through_engine(name: str, case: dict[str, Any]) -> None:
    status, body = run_engine(case)
    expect = case["expect"]
    if "status" in expect:
        assert status == expect["status"], body
        if "pointers" in expect:
            assert sorted(expect["pointers"]) == body["pointers"]
        return
    assert status == 200, body
    if "query" in case:
        miss = subset_mismatch(expect, body)
        assert miss is None, miss
    else:
        assert check_outcome(expect, body) == []


def test_every_violation_code_has_a_golden_case() -> None:
    shown: dict[str, set[str]] = {}
    for _, case in CASES:
        for code in case["expect"].get("codes", []):
            shown.setdefault(case["ruleset"], set()).add(code)
    for ruleset in REGISTRY:
        missing = set(ruleset.codes) - shown.get(ruleset.id, set())
        assert not missing, f"{ruleset.id}: codes without a golden case: {sorted(missing)}"

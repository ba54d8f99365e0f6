"""Every golden case through the engine alone (REST and GraphQL: tests/api/test_golden_api.py)."""

from __future__ import annotations

import os
from typing import Any

import pytest

import golden
from arbiter.rulesets import builtin_registry
from golden import load_cases

# ARBITER_RULESETS narrows a local run to some rulesets, as it narrows the service.
REGISTRY = builtin_registry(os.environ.get("ARBITER_RULESETS", ""))
CASES = [(n, c) for n, c in load_cases() if REGISTRY.get(c["ruleset"]) is not None]


def run_engine(case: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Run a case in-process; returns (status, body) as the REST API would answer."""
    ruleset = REGISTRY.get(case["ruleset"])
    assert ruleset is not None, f"unknown ruleset {case['ruleset']}"
    return golden.run_engine(ruleset, case)


@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_golden_case_through_engine(name: str, case: dict[str, Any]) -> None:
    assert golden.expectation_misses(case, *run_engine(case)) == []


def test_every_violation_code_has_a_golden_case() -> None:
    shown: dict[str, set[str]] = {}
    for _, case in CASES:
        for code in case["expect"].get("codes", []):
            shown.setdefault(case["ruleset"], set()).add(code)
    for ruleset in REGISTRY:
        missing = set(ruleset.codes) - shown.get(ruleset.id, set())
        assert not missing, f"{ruleset.id}: codes without a golden case: {sorted(missing)}"

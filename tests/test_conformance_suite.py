"""conformance/ is generated from tests/cases/ by `arbiter export-conformance` and
committed: it must match the golden cases (so it never falls behind them), every case must
meet the suite's own JSON Schema, and its version must move by semver with what changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from arbiter.cli.export_conformance import export, stale
from golden import CASES, load_cases

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
SCHEMA = json.loads((SUITE / "schema.json").read_text())
NOT_ADJACENT = SUITE / "cases" / "region_conquest" / "following_conquest_not_adjacent.json"


def suite_cases() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((SUITE / "cases").rglob("*.json"))]


def test_committed_suite_matches_the_golden_cases() -> None:
    """The cases, the manifest, and the contents table of the README."""
    assert stale(CASES, SUITE) == [], \
        "conformance/ is stale: run `make conformance` (arbiter export-conformance) and commit"


def test_every_golden_case_is_in_the_suite_once_and_the_manifest_lists_it() -> None:
    golden = sorted(name for name, _ in load_cases())
    ids = sorted(case["id"] for case in suite_cases())
    assert ids == golden
    manifest = json.loads((SUITE / "manifest.json").read_text())
    listed = sorted(i for r in manifest["rulesets"].values() for g in r["groups"]
                    for i in g["cases"])
    assert listed == ids and manifest["cases"] == len(ids)
    for ruleset, entry in manifest["rulesets"].items():
        assert entry["cases"] == sum(1 for i in ids if i.startswith(ruleset + "/"))


def test_every_case_meets_the_case_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    validator = Draft202012Validator(SCHEMA)
    problems = [f"{case['id']}: {error.message[:200]}" for case in suite_cases()
                for error in validator.iter_errors(case)]
    assert problems == []


@pytest.mark.parametrize(("broken", "where"), [
    ({"expect": {"status": 200, "outcome": {"legal": "yes"}}}, "legal"),
    ({"expect": {"status": 200, "outcome": {"violations": [{"code": "x"}]}}}, "rule"),
    ({"expect": {"status": 422, "pointers": []}}, "pointers"),
    ({"request": {"method": "GET", "path": "/v1/rulesets/x/validate", "body": {}}}, "GET"),
    ({"group": "region_conquest/somewhere"}, "group"),
])
def test_the_case_schema_refuses_a_broken_case(broken: dict[str, Any], where: str) -> None:
    case = json.loads(NOT_ADJACENT.read_text())
    errors = list(Draft202012Validator(SCHEMA).iter_errors(case | broken))
    assert errors, where


def test_a_case_asserts_the_rule_of_each_violation_and_event() -> None:
    case = json.loads(NOT_ADJACENT.read_text())
    assert case["request"]["path"] == "/v1/rulesets/region_conquest/validate"
    assert case["expect"]["outcome"]["violations"] == [
        {"code": "not_adjacent", "rule": "region_conquest/adjacent.1"}]
    assert case["group"] == "region_conquest/adjacent.1"


def _version(folder: Path) -> str:
    return str(json.loads((folder / "manifest.json").read_text())["version"])


def test_the_version_moves_by_semver_with_what_changed(tmp_path: Path) -> None:
    """Same cases: same version; a description changed: patch; a case added: minor; an
    expectation changed or a case removed: major (an engine that passed may now fail)."""
    cases, out = tmp_path / "cases", tmp_path / "suite"
    shutil.copytree(CASES / "region_conquest", cases / "region_conquest")
    out.mkdir()
    shutil.copy(SUITE / "README.md", out / "README.md")
    export(cases, out)
    assert _version(out) == "1.0.0"
    n = len(list((cases / "region_conquest").rglob("*.json")))
    assert f"Version **1.0.0**: {n} cases over 1 ruleset." in (out / "README.md").read_text()
    assert export(cases, out) == [] and _version(out) == "1.0.0"
    one = cases / "region_conquest" / "following_conquest_not_adjacent.json"
    case = json.loads(one.read_text())
    one.write_text(json.dumps(case | {"description": "Reworded."}))
    export(cases, out)
    assert _version(out) == "1.0.1"
    (cases / "region_conquest" / "again.json").write_text(json.dumps(case))
    export(cases, out)
    assert _version(out) == "1.1.0"
    assert (out / "cases" / "region_conquest" / "again.json").is_file()
    (cases / "region_conquest" / "again.json").unlink()
    export(cases, out)
    assert _version(out) == "2.0.0"
    assert not (out / "cases" / "region_conquest" / "again.json").exists()
    one.write_text(json.dumps(case | {"expect": {**case["expect"], "codes": []}}))
    changed = {"cases/region_conquest/following_conquest_not_adjacent.json", "manifest.json"}
    assert changed <= set(stale(cases, out))
    export(cases, out)
    assert _version(out) == "3.0.0"
    assert "Version **3.0.0**" in (out / "README.md").read_text()
    assert "## Numbering and grouping" in (out / "README.md").read_text()



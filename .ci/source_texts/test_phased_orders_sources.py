"""phased_orders' catalogue and golden cases against its rules text (moved here from
tests/rulesets/test_phased_orders.py: they read ../shared/rules/phased_orders.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from arbiter.rulesets.phased_orders import RULESET

CASES = Path(__file__).resolve().parents[2] / "tests" / "cases" / "phased_orders"


def test_every_rule_id_the_rules_file_names_is_in_the_catalogue(shared: Path) -> None:
    text = (shared / "rules" / "phased_orders.md").read_text()
    named = set(re.findall(r"`([a-z_]+\.\d+)`", text.split("## Rule ids")[1]))
    named |= {f"movement.{n}" for n in range(1, 7)}
    listed = {r.id.split("/", 1)[1] for r in RULESET.rules}
    assert named <= listed, sorted(named - listed)


def test_every_case_cites_the_rules_text(shared: Path) -> None:
    text = (shared / "rules" / "phased_orders.md").read_text()
    for path in sorted(CASES.glob("*.json")):
        case = json.loads(path.read_text())
        if not case["source"].startswith("Reading"):
            fragment = case["source"].split(": ", 1)[-1][:40]
            assert fragment in text or fragment.replace("\u2019", "'") in text, case["source"]

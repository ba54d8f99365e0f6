"""docs/rules/ documents every registered ruleset in the checkout's own words, generated
from its catalogue (`make docs`): the committed pages must be what the catalogues make
now, like schema/ (tests/test_schema_drift.py)."""

from __future__ import annotations

import json
from pathlib import Path

from arbiter.cli.export_docs import render, stale
from arbiter.rulesets import builtin_registry

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"


def test_docs_rules_match_the_catalogues() -> None:
    diffs = stale(DOCS)
    assert not diffs, f"docs/rules/ is stale, run `make docs`; differs: {diffs}"


def test_every_ruleset_page_lists_its_rules_codes_events_options_and_data() -> None:
    pages = render()
    for ruleset in builtin_registry():
        page = pages[f"{ruleset.id}.md"].decode()
        for rule in ruleset.rules:
            assert f"`{rule.id}`" in page
        for code in ruleset.codes.values():
            assert f"| `{code.code}` | `{code.rule}` |" in page
        for event in ruleset.event_kinds.values():
            assert f"| `{event.kind}` | `{event.rule}` |" in page
        for option in ruleset.options_model.model_fields:
            assert f"| `{option}` |" in page
        data = page.split("```json\n", 1)[1].split("```", 1)[0] if "```json" in page else "{}"
        assert json.loads(data) == json.loads(json.dumps(dict(ruleset.catalogue.data)))
        assert f"[`{ruleset.id}`]({ruleset.id}.md)" in pages["README.md"].decode()

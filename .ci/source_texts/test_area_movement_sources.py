"""area_movement's golden cases against its rules text (moved here from
tests/rulesets/test_area_movement.py: they read ../shared/rules/area_movement.md)."""

from __future__ import annotations

import re
from pathlib import Path

from rulesets.area_movement_cases import all_cases


def _plain_text(markdown: str) -> str:
    return re.sub(r"\s+", " ", markdown.replace("*", ""))


def test_every_case_quotes_the_rules_file(shared: Path) -> None:
    text = _plain_text((shared / "rules" / "area_movement.md").read_text())
    for name, body in all_cases():
        assert _plain_text(body["source"]) in text, name


def test_every_sentence_of_the_source_text_has_a_case(shared: Path) -> None:
    raw = (shared / "rules" / "area_movement.md").read_text()
    source = raw.split("## Source text (verbatim)")[1].split("## Reading to implement")[0]
    lines = [line for line in source.splitlines() if line.strip()]
    headings = {"3. MOVEMENT", "Ship construction", "Ship maintenance", "Ship movement",
                "End of movement", "City building", "Causing a conflict situation"}
    prose = _plain_text(" ".join(line for line in lines if line.strip() not in headings))
    sentences = [s.strip() for s in re.split(r"(?<=[.:]) (?=[A-Z'0-9])", prose) if s.strip()]
    quoted = [_plain_text(body["source"]) for _, body in all_cases()]
    missing = [s for s in sentences if not any(q in s or s in q for q in quoted)]
    # "There are 3 ways to build a ship:" introduces the three ways, each a case of its own.
    assert missing == ["There are 3 ways to build a ship:"]

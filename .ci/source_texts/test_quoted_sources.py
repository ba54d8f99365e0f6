"""Golden cases that quote their source (`"source"` in tests/cases/<ruleset>/**.json)
against the rules texts in ../shared/rules/<ruleset>.md. Whitespace is normalised (a
quote may be re-wrapped). ``REQUIRED`` lists the cases whose quotes must be verbatim (the
checks the test suite used to make); any other quoting case that is not verbatim is
printed as a note for its ruleset's owners (run with -s), without failing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"

# Cases (globs under tests/cases) whose quotes must be verbatim, and where: "source" is
# the verbatim source text only, "anywhere" the whole rules file (source text and the
# readings the project adopted).
REQUIRED: dict[str, str] = {
    "territory_conquest/*.json": "source",
    "territory_conquest/combos/*.json": "anywhere",
    "region_conquest/*.json": "anywhere",
    "region_conquest/combos/*.json": "anywhere",
}


def words(text: str) -> str:
    return " ".join(text.split())


def source_section(text: str) -> str:
    """The verbatim source text of a rules file: from "## Source text" to the next
    heading of the same level (what follows is the project's reading of it)."""
    start = text.find("## Source text")
    if start < 0:
        return text
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def required() -> dict[Path, str]:
    return {path: where for pattern, where in REQUIRED.items() for path in CASES.glob(pattern)}


def check(shared: Path) -> tuple[int, list[str], list[str]]:
    """(quotes checked, failures, notes)."""
    must = required()
    checked, failures, notes = 0, [], []
    for path in sorted(CASES.rglob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        if not case.get("source"):
            continue
        ruleset = path.relative_to(CASES).parts[0]
        rules = shared / "rules" / f"{ruleset}.md"
        where = must.get(path)
        if not rules.is_file():
            (failures if where else notes).append(f"{path.relative_to(ROOT)}: no {rules}")
            continue
        text = rules.read_text(encoding="utf-8")
        quote = words(case["source"])
        checked += 1
        if quote in words(source_section(text) if where == "source" else text):
            continue
        place = "the source text of" if where == "source" else ""
        line = f"{path.relative_to(ROOT)}: its source is not verbatim in {place} {rules.name}"
        (failures if where else notes).append(" ".join(line.split()))
    return checked, failures, notes



def test_the_required_quotes_are_verbatim(shared: Path) -> None:
    checked, failures, notes = check(shared)
    for note in notes:
        print(f"note: {note}")
    assert checked >= len(required()) > 0
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("pattern", sorted(REQUIRED))
def test_every_required_glob_names_cases(pattern: str) -> None:
    assert list(CASES.glob(pattern)), pattern

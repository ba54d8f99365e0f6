"""docs/adding-a-ruleset.md quotes the toy ruleset: each Python block that starts with a
``# <path>`` line must be, chunk by chunk (chunks split by a ``...`` line), a run of
consecutive lines of that file as it is now, so the guide cannot drift from the code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-ruleset.md"


def quotes() -> list[tuple[str, list[str]]]:
    out = []
    for block in re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.S):
        first, *rest = block.rstrip("\n").split("\n")
        if first.startswith("# ") and first.endswith(".py"):
            out.append((first[2:], rest))
    return out


def chunks(lines: list[str]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for line in lines:
        if line == "...":
            out.append([])
        else:
            out[-1].append(line)
    return [c for c in out if c]


def contains_run(lines: list[str], run: list[str]) -> bool:
    return any(lines[i:i + len(run)] == run for i in range(len(lines) - len(run) + 1))


QUOTES = quotes()


def test_the_guide_quotes_the_toy() -> None:
    assert len(QUOTES) >= 8


@pytest.mark.parametrize(("path", "block"), QUOTES, ids=[f"{p}#{i}" for i, (p, _) in
                                                         enumerate(QUOTES)])
def test_each_quote_is_the_code_as_it_is(path: str, block: list[str]) -> None:
    source = (ROOT / path).read_text().split("\n")
    for chunk in chunks(block):
        assert contains_run(source, chunk), f"{path} no longer has:\n" + "\n".join(chunk)


def test_the_guides_golden_case_is_one_of_the_toys() -> None:
    shown = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", GUIDE.read_text(), re.S)]
    cases = [json.loads(p.read_text()) for p in (ROOT / "tests/toy/cases").glob("*.json")]
    assert shown and all(case in cases for case in shown)

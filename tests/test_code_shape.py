"""The shape the code promises a reader (docs/design.md, "Conventions"): no function longer
than a screen, and no ``# type: ignore`` without the reason written beside it. Ruff's
complexity check (C901, pyproject.toml) and ``mypy --strict`` (make lint) cover the rest."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "service" / "arbiter"
MAX_FUNCTION_LINES = 60
# "# type: ignore[code]" must be followed by "  # why".
IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?(?P<rest>.*)$")


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_function_is_longer_than_a_screen() -> None:
    long = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} "
                                f"({lines} lines)")
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_every_type_ignore_says_why() -> None:
    bare = []
    for path in sources():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            found = IGNORE.search(line)
            if found and not found.group("rest").strip().startswith("#"):
                bare.append(f"{path.relative_to(PACKAGE)}:{number}")
    assert not bare, f"type: ignore without a reason beside it: {bare}"


def test_the_shape_checks_can_fail() -> None:
    assert IGNORE.search("x = 1  # type: ignore[misc]").group("rest").strip() == ""
    assert IGNORE.search("x = 1  # type: ignore[misc]  # why").group("rest").strip() \
        .startswith("#")

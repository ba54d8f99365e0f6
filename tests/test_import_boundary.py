"""The engine, the rulesets and the pictures are pure: they import no web, cache, I/O or
transport module, and the engine imports no ruleset."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "service" / "arbiter"
FORBIDDEN = ("starlette", "strawberry", "redis", "uvicorn", "httpx", "prometheus_client",
             "socket", "requests", "arbiter.api", "arbiter.cache", "arbiter.app",
             "arbiter.settings", "random", "time", "datetime", "os", "subprocess")


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _offending(folder: str, extra: tuple[str, ...] = ()) -> list[str]:
    bad = []
    for path in (SERVICE / folder).rglob("*.py"):
        for name in imports(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN + extra):
                bad.append(f"{path.relative_to(SERVICE)} imports {name}")
    return bad


def test_engine_is_pure() -> None:
    assert _offending("engine", ("arbiter.rulesets",)) == []


def test_rulesets_are_pure() -> None:
    assert _offending("rulesets") == []


def test_pictures_are_pure() -> None:
    """Drawing is a pure function of a scene: no web, cache or I/O, and no ruleset (each
    ruleset's scene module imports the pictures, never the other way round)."""
    assert _offending("pictures", ("arbiter.rulesets",)) == []

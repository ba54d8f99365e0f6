"""The layers of the package and the directions they may import in (docs/design.md, "Layout"):
the engine, the rulesets and the pictures are pure (no web, cache, I/O, clock or transport
module, and the engine imports no ruleset); the service's lifecycle knows no transport;
each transport (HTTP, GraphQL, the CLI) reaches the rules through the service."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "service" / "arbiter"
IMPURE = ("starlette", "strawberry", "graphql", "redis", "uvicorn", "httpx", "prometheus_client",
          "socket", "requests", "random", "time", "datetime", "os", "subprocess", "asyncio")
# Each layer (a folder, or a module of the package's top level) and the layers of the
# package it may import; anything of the package not listed is refused.
ALLOWED = {
    "engine": {"engine"},
    "rulesets": {"engine", "pictures", "rulesets"},
    "pictures": {"engine", "pictures"},
    "cache": {"cache"},
    "settings": {"rulesets"},
    "telemetry": {"cache", "telemetry"},
    "service": {"engine", "rulesets", "pictures", "cache", "settings", "telemetry",
                "service"},
    "graphql": {"engine", "service", "settings", "graphql"},
    "http": {"engine", "rulesets", "cache", "settings", "telemetry", "service", "graphql",
             "http"},
    "cli": {"engine", "rulesets", "settings", "telemetry", "service", "http", "graphql",
            "cli"},
}


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def layer(path: Path) -> str:
    relative = path.relative_to(SERVICE)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def _offending(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for path in (SERVICE / folder).rglob("*.py"):
        for name in imports(path):
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                bad.append(f"{path.relative_to(SERVICE)} imports {name}")
    return bad


def test_engine_rulesets_and_pictures_are_pure() -> None:
    for folder in ("engine", "rulesets", "pictures"):
        assert _offending(folder, IMPURE) == [], folder


def test_the_service_knows_no_transport() -> None:
    assert _offending("service", ("starlette", "strawberry", "graphql", "uvicorn")) == []


def test_each_layer_imports_only_the_layers_it_may() -> None:
    bad = []
    for path in sorted(SERVICE.rglob("*.py")):
        own = layer(path)
        if own not in ALLOWED:
            continue  # the package's __init__ and __main__
        for name in imports(path):
            parts = name.split(".")
            if parts[0] != "arbiter" or len(parts) < 2 or parts[1] in ("__version__",):
                continue
            if parts[1] not in ALLOWED[own]:
                bad.append(f"{path.relative_to(SERVICE)} ({own}) imports {name}")
    assert bad == []


def test_every_folder_of_the_package_is_a_known_layer() -> None:
    folders = {p.name for p in SERVICE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in SERVICE.glob("*.py")} - {"__init__", "__main__"}
    assert folders | modules <= set(ALLOWED), (folders | modules) - set(ALLOWED)


def test_the_boundary_check_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import arbiter.http.app\nfrom arbiter.service import lifecycle\n")
    assert imports(module) == {"arbiter.http.app", "arbiter.service"}


def test_the_conformance_runner_imports_the_standard_library_alone() -> None:
    """`arbiter conformance` judges a server's answers from the suite's files, never by
    asking the engine, so it runs against any engine; and it runs where the service's
    dependencies alone are installed (no httpx)."""
    found = imports(SERVICE / "cli" / "conformance.py")
    outside = sorted(name for name in found
                     if name.split(".")[0] not in sys.stdlib_module_names)
    assert outside == []

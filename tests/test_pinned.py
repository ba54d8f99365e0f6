"""The packages whose private parts the service extends run at exactly the version it was
written for (pyproject.toml pins them with ``==``, and says why): graphql-core and
strawberry (graphql/cost.py, graphql/plain.py), uvicorn (http/connections.py). An upgrade
that changed them would otherwise install cleanly and break the service at run time."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
# The packages the service extends beyond their public APIs.
EXTENDED = {"strawberry-graphql", "graphql-core", "uvicorn"}


def pinned() -> dict[str, str]:
    """Each dependency pinned with ``==``: its name (extras dropped) and version."""
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    found = {}
    for requirement in dependencies:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)(\[[^\]]*\])?==([^,;\s]+)", requirement.strip())
        if match:
            found[match.group(1).lower()] = match.group(3)
    return found


def test_what_the_service_extends_is_pinned_exactly() -> None:
    assert set(pinned()) >= EXTENDED, EXTENDED - set(pinned())


def test_the_installed_versions_are_the_pinned_ones() -> None:
    wrong = {name: (version(name), wanted) for name, wanted in pinned().items()
             if version(name) != wanted}
    assert wrong == {}, f"installed vs pinned: {wrong}; re-check the extensions and re-pin"


def test_the_pin_check_can_fail() -> None:
    assert re.fullmatch(r"([A-Za-z0-9_.-]+)(\[[^\]]*\])?==([^,;\s]+)", "uvicorn[standard]==9.9")
    assert version("graphql-core") != "0.0.1"

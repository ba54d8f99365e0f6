"""The client's generated modules are what clients/python/generate.py makes from the
committed schema/openapi.json: regenerated into a temporary folder and compared."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

from arbiter_client import SCHEMA_SHA256

# The checkout: the first folder up holding the service (its pyproject and service/).
ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file()
            and (p / "service").is_dir())
CLIENT = ROOT / "clients" / "python"


def test_the_generated_code_is_from_the_committed_schema() -> None:
    schema = (ROOT / "schema" / "openapi.json").read_bytes()
    assert hashlib.sha256(schema).hexdigest() == SCHEMA_SHA256, (
        "schema/openapi.json changed: run .venv/bin/python clients/python/generate.py")


def test_regenerating_changes_nothing(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("generate", CLIENT / "generate.py")
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    for made in generate.generate(ROOT / "schema" / "openapi.json", tmp_path):
        committed = CLIENT / "arbiter_client" / made.name
        assert made.read_text() == committed.read_text(), (
            f"{committed} is stale: run .venv/bin/python clients/python/generate.py")

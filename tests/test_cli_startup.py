"""The ``arbiter`` command imports what the command it runs needs and nothing else: its
start-up is most of a command's time at the table (it was 1.1-1.6 s on a busy 2-core
machine when every command built every ruleset's models and every query's JSON Schemas).

Checked by the modules a fresh interpreter holds after ``main(argv)``, not by the clock,
so a busy machine cannot fail it; docs/testing.md has the times measured."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.rulesets import names
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE

SERVICE = Path(__file__).resolve().parents[1] / "service"
# What only the HTTP service uses (or the engine, for a command that judges nothing).
SERVING = {"uvicorn", "starlette", "strawberry", "graphql", "redis", "httpx",
           "prometheus_client"}
ENGINE = {"pydantic", "pydantic_core", "arbiter.engine.ruleset", "arbiter.rulesets"}

LOADED = """
import json, os, sys
from arbiter.cli.main import main
sys.stdout = open(os.devnull, "w")
code = main(json.loads(sys.argv[1]))
print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)
"""


def loaded(argv: list[str], cwd: Path) -> tuple[int, set[str]]:
    """The exit status of ``arbiter ARGV`` and the modules it imported."""
    done = subprocess.run([sys.executable, "-c", LOADED, json.dumps(argv)], cwd=cwd,
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(SERVICE), "PATH": "/usr/bin:/bin"})
    code, modules = json.loads(done.stderr.strip().splitlines()[-1])
    return code, set(modules)


def rulesets_in(modules: set[str]) -> set[str]:
    return {name for name in names() if f"arbiter.rulesets.{name}" in modules}


@pytest.mark.parametrize("argv", [["--version"], ["serve", "--help"],
                                  ["export-schema", "--help"], ["export-docs", "--help"]])
def test_the_services_own_commands_load_no_engine(argv: list[str], tmp_path: Path) -> None:
    code, modules = loaded(argv, tmp_path)
    assert code == 0
    assert not modules & (SERVING | ENGINE), sorted(modules & (SERVING | ENGINE))


@pytest.mark.parametrize("argv", [
    ["check", "hex_maneuver", "state.json", "action.json"],
    ["check", "hex_maneuver", "state.json", "action.json", "--format", "text"],
    ["legal-actions", "hex_maneuver", "state.json", "--player", "red", "--limit", "3"],
    ["reachable", "hex_maneuver", "state.json", "--army", "red-1"],
    ["new-game", "hex_maneuver", "state.json"],
    ["render", "hex_maneuver", "state.json", "-o", "board.svg"],
])
def test_a_command_at_the_table_loads_its_ruleset_alone(argv: list[str],
                                                       tmp_path: Path) -> None:
    (tmp_path / "state.json").write_text(json.dumps(EXAMPLE_STATE))
    (tmp_path / "action.json").write_text(json.dumps(EXAMPLE_ACTION))
    code, modules = loaded(argv, tmp_path)
    assert code == 0
    assert rulesets_in(modules) == {"hex_maneuver"}
    assert not modules & SERVING, sorted(modules & SERVING)


def test_help_and_a_query_no_named_ruleset_answers_load_them_all(tmp_path: Path) -> None:
    """``--help`` lists every ruleset's queries; a query the named ruleset does not answer
    is refused as the whole registry refuses it, naming those that do."""
    code, modules = loaded(["--help"], tmp_path)
    assert code == 0 and rulesets_in(modules) == set(names())
    (tmp_path / "state.json").write_text(json.dumps(EXAMPLE_STATE))
    code, modules = loaded(["resolve", "hex_maneuver", "state.json"], tmp_path)
    assert code == 2 and rulesets_in(modules) == set(names())

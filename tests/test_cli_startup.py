"""The ``arbiter`` command imports what the command it runs needs and nothing else: its
start-up is most of a command's time at the table (it was 1.1-1.6 s on a busy 2-core
machine when every command built every ruleset's models and every query's JSON Schemas,
and ``--help`` 0.6-0.8 s while it built them all to list their queries).

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
# What answers a request: the service's lifecycle and its settings (pydantic-settings).
ANSWERING = {"arbiter.service", "arbiter.settings", "pydantic_settings", "asyncio"}
# What only the conformance runner (``arbiter conformance``) uses: HTTP and threads.
RUNNER = {"urllib.request", "concurrent.futures"}
# What a help page or a refused command line needs none of.
UNNEEDED = ENGINE - {"arbiter.rulesets"} | ANSWERING | RUNNER | SERVING

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
    """The rulesets built (their ``RULESET``: models, judge, queries), by name."""
    return {name for name in names() if f"arbiter.rulesets.{name}.ruleset" in modules}


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


@pytest.mark.parametrize("argv", [
    ["--help"], ["check", "--help"], ["check", "hex_maneuver", "--help"],
    ["new-game", "--help"], ["render", "--help"],
])
def test_help_that_lists_the_rulesets_builds_none(argv: list[str], tmp_path: Path) -> None:
    """``arbiter --help`` lists every query with the rulesets that answer it, and ``check``
    every ruleset, from what their packages declare: no model is built, nor the service
    that would answer a request."""
    code, modules = loaded(argv, tmp_path)
    assert code == 0
    assert rulesets_in(modules) == set()
    assert not modules & UNNEEDED, sorted(modules & UNNEEDED)


@pytest.mark.parametrize("argv", [
    ["chek", "hex_maneuver", "state.json", "action.json"],
    ["check", "hex_maneuver", "state.json"],
    ["check", "no_such", "state.json", "action.json"],
    ["resolve", "hex_maneuver", "state.json"],
])
def test_a_usage_error_builds_no_ruleset(argv: list[str], tmp_path: Path) -> None:
    """A command line argparse refuses (an unknown command or ruleset, a missing operand,
    a query the named ruleset does not answer) is refused before anything is built; the
    refusal still names every choice."""
    (tmp_path / "state.json").write_text(json.dumps(EXAMPLE_STATE))
    code, modules = loaded(argv, tmp_path)
    assert code == 2
    assert rulesets_in(modules) == set()
    assert not modules & UNNEEDED, sorted(modules & UNNEEDED)


@pytest.mark.parametrize(("argv", "built"), [
    (["reachable", "hex_maneuver", "--help"], {"hex_maneuver"}),
    (["legal-actions", "region_conquest", "--help"], {"region_conquest"}),
    (["conquest-cost", "--help"], {"region_conquest", "territory_conquest"}),
    (["resolve", "--help"], {"phased_orders"}),
])
def test_a_querys_help_builds_the_rulesets_whose_options_it_lists(
        argv: list[str], built: set[str], tmp_path: Path) -> None:
    """A query's options are its request models' fields: ``arbiter QUERY RULESET --help``
    builds RULESET alone, ``arbiter QUERY --help`` every ruleset that answers QUERY; neither
    the service."""
    code, modules = loaded(argv, tmp_path)
    assert code == 0
    assert rulesets_in(modules) == built
    assert not modules & (ANSWERING | SERVING), sorted(modules & (ANSWERING | SERVING))

"""`arbiter check`: exit 0 legal, 1 illegal, 2 malformed, printing the API's texts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from arbiter.cli import main
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE


def write(tmp: Path, state: object, action: object) -> tuple[str, str]:
    (tmp / "s.json").write_text(json.dumps(state))
    (tmp / "a.json").write_text(json.dumps(action))
    return str(tmp / "s.json"), str(tmp / "a.json")


def test_legal_exits_0(tmp_path: Path, capsys: object) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, EXAMPLE_ACTION)
    assert main(["check", "--ruleset", "hex_maneuver", s, a]) == 0


def test_illegal_exits_1_with_violations(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    s, a = write(tmp_path, EXAMPLE_STATE, {**EXAMPLE_ACTION, "player": "blue"})
    assert main(["check", "--ruleset", "hex_maneuver", s, a]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [v["code"] for v in out["violations"]] == ["not_your_army"]


def test_malformed_exits_2_with_the_problem_pointers(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    s, a = write(tmp_path, EXAMPLE_STATE, {**EXAMPLE_ACTION, "army": 7})
    assert main(["check", "--ruleset", "hex_maneuver", s, a]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == 422 and out["errors"][0]["pointer"] == "/action/army"
    bad_state = {**EXAMPLE_STATE, "hexes": "none"}
    s, a = write(tmp_path, bad_state, EXAMPLE_ACTION)
    assert main(["check", "--ruleset", "hex_maneuver", s, a]) == 2
    assert json.loads(capsys.readouterr().out)["errors"][0]["pointer"] == "/state/hexes"


def test_semantic_problem_exits_2(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    s, a = write(tmp_path, EXAMPLE_STATE, {**EXAMPLE_ACTION, "army": "ghost"})
    assert main(["check", "--ruleset", "hex_maneuver", s, a]) == 2
    assert json.loads(capsys.readouterr().out)["errors"][0]["pointer"] == "/action/army"


def test_installed_command_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "arbiter", "--version"], capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip()

"""`arbiter check RULESET STATE ACTION`: exit 0 legal, 1 illegal, 2 not judged, the Outcome
on stdout and the problem on stderr, each error naming the file (and the pointer inside
it) it comes from; `-` is standard input; `--format text` is the verdict for a person."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE

# The installed entry point, beside the interpreter running the suite (.venv/bin).
ARBITER = str(Path(sys.executable).with_name("arbiter"))


def write(tmp: Path, state: object, action: object) -> tuple[str, str]:
    (tmp / "s.json").write_text(json.dumps(state))
    (tmp / "a.json").write_text(json.dumps(action))
    return str(tmp / "s.json"), str(tmp / "a.json")


def test_legal_exits_0_with_the_outcome(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, EXAMPLE_ACTION)
    assert main(["check", "hex_maneuver", s, a]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is True and out["state"]["armies"] and out["state_hash"]


def test_the_older_ruleset_option_is_still_read(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, {**EXAMPLE_ACTION, "player": "blue"})
    assert main(["check", "--ruleset", "hex_maneuver", s, a]) == 1
    assert main(["check", s, "--ruleset=hex_maneuver", a]) == 1
    assert main(["check", s, a, "--ruleset", "hex_maneuver", "--mode", "advisory"]) == 1


def test_illegal_exits_1_with_violations(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, {**EXAMPLE_ACTION, "player": "blue"})
    assert main(["check", "hex_maneuver", s, a]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [v["code"] for v in out["violations"]] == ["not_your_army"]


def test_text_format_lists_each_violation_with_its_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, {**EXAMPLE_ACTION, "player": "blue"})
    assert main(["check", "hex_maneuver", s, a, "--format", "text"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "illegal: 1 violation, 0 events"
    assert lines[1].startswith("  not_your_army (hex_maneuver/") and ": " in lines[1]
    s, a = write(tmp_path, EXAMPLE_STATE, EXAMPLE_ACTION)
    assert main(["check", "hex_maneuver", s, a, "--format", "text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("legal: 0 violations, ") and lines[-1].startswith("state_hash: ")
    assert any(line.startswith("  event army_moved (hex_maneuver/") for line in lines)


def test_malformed_exits_2_with_the_problem_on_stderr_naming_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, {**EXAMPLE_ACTION, "army": 7})
    assert main(["check", "hex_maneuver", s, a]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    problem = json.loads(captured.err)
    assert problem["status"] == 422
    assert problem["errors"][0] == {"pointer": "/action/army", "detail": "Input should be a "
                                    "valid string", "source": a, "source_pointer": "/army"}
    bad_units = json.loads(json.dumps(EXAMPLE_STATE))
    bad_units["armies"][0]["hex"] = "north"
    s, a = write(tmp_path, bad_units, EXAMPLE_ACTION)
    assert main(["check", "hex_maneuver", s, a, "--format", "text"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "arbiter check: the request does not match its schema",
        f"{s}: /armies/0/hex: Input should be an object"]


def test_semantic_problem_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, {**EXAMPLE_ACTION, "army": "ghost"})
    assert main(["check", "hex_maneuver", s, a]) == 2
    error = json.loads(capsys.readouterr().err)["errors"][0]
    assert (error["pointer"], error["source"], error["source_pointer"]) == ("/action/army", a,
                                                                            "/army")


def test_unreadable_or_non_json_input_is_named(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, EXAMPLE_ACTION)
    missing = str(tmp_path / "missing.json")
    assert main(["check", "hex_maneuver", missing, a, "--format", "text"]) == 2
    assert capsys.readouterr().err.splitlines()[1] == (
        f"{missing}: cannot read it: No such file or directory")
    Path(a).write_text('{"type": ')
    assert main(["check", "hex_maneuver", s, a, "--format", "text"]) == 2
    assert capsys.readouterr().err.splitlines()[1].startswith(f"{a}: not JSON: ")


def test_an_unknown_ruleset_is_a_usage_error(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, EXAMPLE_ACTION)
    assert main(["check", "no_such", s, a]) == 2
    assert "invalid choice: 'no_such'" in capsys.readouterr().err


def test_standard_input_is_read_for_one_argument(tmp_path: Path) -> None:
    s, a = write(tmp_path, EXAMPLE_STATE, {**EXAMPLE_ACTION, "player": "blue"})
    done = subprocess.run([ARBITER, "check", "hex_maneuver", "-", a], capture_output=True,
                          input=json.dumps(EXAMPLE_STATE), text=True, check=False)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["violations"][0]["code"] == "not_your_army"
    done = subprocess.run([ARBITER, "check", "hex_maneuver", s, "-", "--format", "text"],
                          capture_output=True, input='{"type": "maneuver"}', text=True,
                          check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert "<stdin>: /player: Field required" in done.stderr.splitlines()
    done = subprocess.run([ARBITER, "check", "hex_maneuver", "-", "-"], capture_output=True,
                          input="{}", text=True, check=False)
    assert done.returncode == 2
    assert "only one input can be standard input" in json.loads(done.stderr)["detail"]


def test_installed_command_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "arbiter", "--version"], capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip()

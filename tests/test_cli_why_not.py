"""`arbiter why-not RULESET STATE --<target>`: the in-process answer is the REST answer's
(the same service function), and a target the state does not hold names the option."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbiter.cli.main import main
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_STATE


def test_why_not_a_hex_one_mp_too_far(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state.json"
    state.write_text(json.dumps(EXAMPLE_STATE))
    assert main(["why-not", "hex_maneuver", str(state), "--army", "red-1",
                 "--hex", '{"q": 0, "r": -2}', "--march", "false"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["possible"] is False
    assert [(v["code"], v["rule"]) for v in answer["violations"]] == [
        ("over_movement_points", "hex_maneuver/movement.1")]
    assert answer["changes"][0]["message"] == (
        "the cheapest path costs 3 MP, the column has 2; with a march 3")


def test_a_hex_off_the_map_names_the_option(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state.json"
    state.write_text(json.dumps(EXAMPLE_STATE))
    assert main(["why-not", "hex_maneuver", str(state), "--army", "red-1",
                 "--hex", '{"q": 9, "r": 9}']) == 2
    problem = json.loads(capsys.readouterr().err)
    assert [(e["pointer"], e["source"]) for e in problem["errors"]] == [("/hex", "--hex")]

"""``arbiter render``: the picture of a state (and of an action) offline, the SVG on
stdout; malformed input is exit 2 with the problem, pointers as in the REST body."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_STATE


def write(folder: Path, name: str, value: object) -> str:
    path = folder / name
    path.write_text(json.dumps(value))
    return str(path)


def test_render_writes_the_picture_with_the_actions_violations(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = write(tmp_path, "state.json", EXAMPLE_STATE)
    action = write(tmp_path, "action.json", {
        "type": "maneuver", "player": "red", "army": "red-1",
        "path": [{"q": 1, "r": -1}, {"q": 2, "r": -1}, {"q": 2, "r": 0}]})
    assert main(["render", "hex_maneuver", state, action]) == 0
    out = capsys.readouterr().out
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')
    root = ET.fromstring(out.encode())
    codes = {e.get("data-code") for e in root.iter() if e.get("class") == "mark"}
    assert codes == {"enemy_at_destination", "over_movement_points"}


def test_render_takes_an_overlay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = write(tmp_path, "state.json", EXAMPLE_STATE)
    overlay = write(tmp_path, "overlay.json", {"reachable": {"army": "red-1"}})
    assert main(["render", "--ruleset", "hex_maneuver", "--overlay", overlay, state]) == 0
    assert 'class="shade"' in capsys.readouterr().out


def test_malformed_input_is_exit_2_with_pointers(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    state = write(tmp_path, "state.json", {**EXAMPLE_STATE, "hexes": 3})
    assert main(["render", "--ruleset", "hex_maneuver", state]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    errors = json.loads(captured.err)["errors"]
    assert [(e["pointer"], e["source"], e["source_pointer"]) for e in errors] == [
        ("/state/hexes", state, "/hexes")]
    action = write(tmp_path, "action.json", {"type": "maneuver", "player": "red",
                                             "army": "nobody"})
    good = write(tmp_path, "good.json", EXAMPLE_STATE)
    assert main(["render", "hex_maneuver", good, action, "--format", "text"]) == 2
    assert f"{action}: /army: unknown army nobody" in capsys.readouterr().err.splitlines()
    assert main(["render", "--ruleset", "no_such", good]) == 2


def test_render_writes_the_output_file(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    state = write(tmp_path, "state.json", EXAMPLE_STATE)
    picture = tmp_path / "board.svg"
    assert main(["render", "hex_maneuver", state, "-o", str(picture)]) == 0
    assert capsys.readouterr().out == ""
    root = ET.fromstring(picture.read_bytes())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"

"""The CLI answers as the REST API does (the same request models and engine, in-process):
for each ruleset, its example action judged (strict, advisory, with its state as a patch),
every example of every query and of its picture, and a malformed state's problems, asked
of the CLI and of a real `arbiter serve`, give the same answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from arbiter.cli import main
from arbiter.cli.render import XML_DECLARATION
from arbiter.engine.registry import AnyRuleset
from arbiter.rulesets import builtin_registry
from test_cli_queries import argv_for

RULESETS = list(builtin_registry())
pytestmark = pytest.mark.server


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def dump(folder: Path, name: str, value: Any) -> str:
    path = folder / name
    path.write_text(json.dumps(value))
    return str(path)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_check_answers_as_validate(ruleset: AnyRuleset, http: httpx.Client, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    state = dump(tmp_path, "state.json", ruleset.examples.state)
    action = dump(tmp_path, "action.json", ruleset.examples.action)
    for mode, returns in (("strict", "state"), ("advisory", "patch"), ("strict", "omit")):
        rest = http.post(f"/v1/rulesets/{ruleset.id}/validate", json={
            "state": ruleset.examples.state, "action": ruleset.examples.action,
            "mode": mode, "return": returns})
        assert rest.status_code == 200
        code, out, _ = cli(["check", ruleset.id, state, action, "--mode", mode,
                            "--return", returns], capsys)
        assert json.loads(out) == rest.json()
        assert code == (0 if rest.json()["legal"] else 1)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_the_queries_answer_as_rest(ruleset: AnyRuleset, http: httpx.Client, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    asked = 0
    for name, query in ruleset.queries.items():
        for example in query.examples:
            rest = http.post(f"/v1/rulesets/{ruleset.id}/{name}", json=example)
            assert rest.status_code == 200, rest.text
            state = dump(tmp_path, "state.json", example["state"])
            if name == "render":
                overlay = dump(tmp_path, "overlay.json", example.get("overlay") or {})
                code, out, _ = cli(["render", ruleset.id, state, "--overlay", overlay],
                                   capsys)
                assert out == XML_DECLARATION + rest.json()["svg"] + "\n"
            else:
                code, out, _ = cli([name, ruleset.id, state,
                                    *argv_for(ruleset, name, dict(example))], capsys)
                assert json.loads(out) == rest.json()
            assert code == 0
            asked += 1
    assert asked >= 3


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_a_malformed_state_has_the_rest_problems(
        ruleset: AnyRuleset, http: httpx.Client, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    bad = {**ruleset.examples.state, "bogus": 1}
    state = dump(tmp_path, "state.json", bad)
    action = dump(tmp_path, "action.json", ruleset.examples.action)
    rest = http.post(f"/v1/rulesets/{ruleset.id}/validate",
                     json={"state": bad, "action": ruleset.examples.action})
    assert rest.status_code == 422
    code, out, err = cli(["check", ruleset.id, state, action], capsys)
    assert code == 2 and out == ""
    problem = json.loads(err)
    assert [(e["pointer"], e["detail"]) for e in problem["errors"]] == [
        (e["pointer"], e["detail"]) for e in rest.json()["errors"]]
    assert {e["source"] for e in problem["errors"]} == {state}
    assert (problem["status"], problem["type"]) == (422, rest.json()["type"])

"""`arbiter QUERY RULESET STATE [--FIELD VALUE] [--params FILE]`: a subcommand for every
query the registry's rulesets answer (a new ruleset's included, with no CLI change), its
options the request's fields, its answer the query's own; problems name the file or the
option they come from."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from arbiter.cli.main import main, parser
from arbiter.cli.queries import options
from arbiter.engine.registry import AnyRuleset, Registry
from arbiter.rulesets import builtin_registry

REGISTRY = builtin_registry()
ASKED = [(r, name, i) for r in REGISTRY for name, q in r.queries.items() if name != "render"
         for i in range(len(q.examples))]


def subcommands(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in top._actions:  # argparse keeps its subcommands on this action only
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def choices(command: argparse.ArgumentParser, dest: str) -> list[str]:
    return next(list(a.choices or ()) for a in command._actions if a.dest == dest)


def test_every_registered_query_is_a_subcommand_for_its_rulesets() -> None:
    commands = subcommands(parser())
    for name in {n for r in REGISTRY for n in r.queries}:
        answering = sorted(r.id for r in REGISTRY if name in r.queries)
        assert sorted(choices(commands[name], "ruleset")) == answering, name


def test_a_new_rulesets_queries_appear_with_no_cli_change(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from toy.tic_tac_toe.ruleset import RULESET as TOY

    registry = Registry()
    registry.register(TOY)
    assert choices(subcommands(parser(registry))["legal-actions"], "ruleset") == ["tic_tac_toe"]
    example = TOY.queries["legal-actions"].examples[0]
    state = tmp_path / "state.json"
    state.write_text(json.dumps(example["state"]))
    assert main(["legal-actions", "tic_tac_toe", str(state), "--player", example["player"]],
                registry) == 0
    request = TOY.queries["legal-actions"].request.model_validate(example)
    assert json.loads(capsys.readouterr().out) == json.loads(
        TOY.queries["legal-actions"].run(request).model_dump_json())


def argv_for(ruleset: AnyRuleset, name: str, example: dict[str, Any]) -> list[str]:
    """The example's fields as options: text as it is, anything else as its JSON."""
    fields = options(name, [ruleset])
    out = []
    for key, value in example.items():
        if key != "state":
            as_text = fields[key].text[ruleset.id]
            out += ["--" + key.replace("_", "-"), value if as_text else json.dumps(value)]
    return out


@pytest.mark.parametrize(("ruleset", "name", "index"), ASKED,
                         ids=[f"{r.id}-{n}-{i}" for r, n, i in ASKED])
def test_each_example_is_answered_as_the_query_answers_it(
        ruleset: AnyRuleset, name: str, index: int, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    query = ruleset.queries[name]
    example = dict(query.examples[index])
    expected = json.loads(query.run(query.request.model_validate(example)).model_dump_json())
    state, params = tmp_path / "state.json", tmp_path / "params.json"
    state.write_text(json.dumps(example["state"]))
    params.write_text(json.dumps({k: v for k, v in example.items() if k != "state"}))
    assert main([name, ruleset.id, str(state), *argv_for(ruleset, name, example)]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    assert main([name, ruleset.id, str(state), "--params", str(params), "--pretty"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("{\n  ") and json.loads(out) == expected
    assert main([name, ruleset.id, str(state), "--params", str(params), "--format",
                 "text"]) == 0
    assert_text_of(capsys.readouterr().out, expected)


def assert_text_of(out: str, answer: dict[str, Any]) -> None:
    """``out`` is the text format of ``answer``: not JSON, a line per field with anything
    in it (nested fields indented under theirs), each scalar's value on its line."""
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)
    top = [line for line in out.splitlines() if not line.startswith(" ")]
    shown = [key for key, value in answer.items() if value not in (None, [], {})]
    assert [line.split(":")[0] for line in top] == shown, out
    for key in shown:
        value = answer[key]
        if isinstance(value, bool):
            assert f"{key}: {str(value).lower()}" in top, (key, out)
        elif isinstance(value, str | int | float):
            assert f"{key}: {value}" in top, (key, out)


def hex_files(tmp_path: Path) -> str:
    ruleset = REGISTRY.get("hex_maneuver")
    assert ruleset is not None
    example = ruleset.queries["reachable"].examples[0]
    state = tmp_path / "state.json"
    state.write_text(json.dumps(example["state"]))
    return str(state)


def test_an_option_wins_over_the_params_file(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    state = hex_files(tmp_path)
    params = tmp_path / "params.json"
    params.write_text(json.dumps({"army": "nobody", "march": False}))
    assert main(["reachable", "hex_maneuver", state, "--params", str(params),
                 "--army", "red-1"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["army"] == "red-1" and not any(d["march"] for d in answer["destinations"])


def test_problems_name_the_option_or_the_params_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = hex_files(tmp_path)
    assert main(["reachable", "hex_maneuver", state, "--format", "text"]) == 2
    assert capsys.readouterr().err.splitlines()[1:] == ["--army: Field required"]
    # A field of another ruleset's request: not an option of the ruleset named (only its
    # models are built), so a usage error naming it.
    assert main(["reachable", "hex_maneuver", state, "--army", "red-1", "--player", "red"]) == 2
    assert "unrecognized arguments: --player red" in capsys.readouterr().err
    # Given in the params file, it reaches the model, which refuses it by pointer.
    params = tmp_path / "params.json"
    params.write_text(json.dumps({"player": "red"}))
    assert main(["reachable", "hex_maneuver", state, "--army", "red-1", "--params",
                 str(params)]) == 2
    errors = json.loads(capsys.readouterr().err)["errors"]
    assert [(e["pointer"], e["source"]) for e in errors] == [("/player", str(params))]
    assert main(["reachable", "hex_maneuver", state, "--army", "ghost", "--format",
                 "text"]) == 2
    assert capsys.readouterr().err.splitlines()[1:] == ["--army: unknown army ghost"]
    params.write_text(json.dumps({"army": "red-1", "units": {"archers": "two"}}))
    assert main(["reachable", "hex_maneuver", state, "--params", str(params)]) == 2
    error = json.loads(capsys.readouterr().err)["errors"][0]
    assert (error["pointer"], error["source"], error["source_pointer"]) == (
        "/units/archers", str(params), "/units/archers")
    params.write_text("[1]")
    assert main(["reachable", "hex_maneuver", state, "--params", str(params)]) == 2
    assert json.loads(capsys.readouterr().err)["errors"][0]["source"] == str(params)


def test_json_options_and_text_options(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = REGISTRY.get("region_conquest")
    assert ruleset is not None
    state = tmp_path / "state.json"
    state.write_text(json.dumps(ruleset.examples.state))
    assert main(["conquest-cost", "region_conquest", str(state), "--player", "orcs",
                 "--targets", '["hills", "forest"]']) == 0
    costs = json.loads(capsys.readouterr().out)["costs"]
    assert [c["region"] for c in costs] == ["hills", "forest"]
    # A JSON option's value that is no JSON reaches the model as text, which it refuses.
    assert main(["conquest-cost", "region_conquest", str(state), "--player", "orcs",
                 "--targets", "hills", "--format", "text"]) == 2
    assert capsys.readouterr().err.splitlines()[1].startswith("--targets: ")

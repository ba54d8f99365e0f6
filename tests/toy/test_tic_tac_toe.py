"""The toy ruleset, tic-tac-toe: it registers the way every ruleset does, its golden cases
(tests/toy/cases) give the same answers through the engine and over REST from an app
whose registry holds it, GraphQL types it like the others, and it stays as pure as a
built-in ruleset must be. (What every ruleset owes, the toy included: tests/contract.)"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import golden
from api import golden_over_http
from arbiter.engine.errors import InvalidInput
from arbiter.engine.registry import Registry
from arbiter.engine.ruleset import describe
from arbiter.graphql.types import to_graphql
from arbiter.http.app import create_app
from arbiter.settings import Settings
from golden import expectation_misses
from toy.tic_tac_toe import RULESET
from toy.tic_tac_toe.examples import EXAMPLE_ACTION, EXAMPLE_STATE

CASES_DIR = Path(__file__).parent / "cases"
CASES = [(p.relative_to(CASES_DIR).with_suffix("").as_posix(), json.loads(p.read_text()))
         for p in sorted(CASES_DIR.glob("**/*.json"))]
PACKAGE = Path(__file__).parent / "tic_tac_toe"
TRANSPORT = ("starlette", "strawberry", "redis", "uvicorn", "httpx", "socket", "random",
             "time", "datetime", "os", "arbiter.service", "arbiter.http", "arbiter.graphql",
             "arbiter.cli", "arbiter.cache")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    registry = Registry()
    registry.register(RULESET)
    app = create_app(Settings.from_env({}), registry)
    with TestClient(app) as c:
        yield c


def run_engine(case: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return golden.run_engine(RULESET, case)


def via_rest(client: TestClient, case: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return golden_over_http.via_rest(client, {**case, "ruleset": RULESET.id})


@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_golden_case_through_engine(name: str, case: dict[str, Any]) -> None:
    status, body = run_engine(case)
    assert expectation_misses(case, status, body) == []


@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_golden_case_over_rest_gives_the_engines_answer(client: TestClient, name: str,
                                                        case: dict[str, Any]) -> None:
    status, body = via_rest(client, case)
    assert expectation_misses(case, status, body) == []
    assert (status, body) == run_engine(case)


def test_the_toy_registers_like_a_built_in_ruleset() -> None:
    registry = Registry()
    registry.register(RULESET)
    assert registry.ids() == ["tic_tac_toe"] and registry.get("tic_tac_toe") is RULESET
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(RULESET)
    shown = describe(RULESET)
    assert shown["action_types"] == ["place", "resign"]
    assert shown["queries"] == ["legal-actions", "why-not"]
    assert {c["code"] for c in shown["violation_codes"]} == {
        "not_your_turn", "cell_taken", "game_over"}
    assert len(shown["catalogues"]["lines"]) == 8


def test_rest_lists_describes_and_validates_the_toy(client: TestClient) -> None:
    listed = client.get("/v1/rulesets").json()
    assert "tic_tac_toe" in json.dumps(listed)
    shown = client.get("/v1/rulesets/tic_tac_toe")
    assert shown.status_code == 200
    assert "tic_tac_toe/place.1" in shown.text
    r = client.post("/v1/rulesets/tic_tac_toe/validate",
                    json={"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION})
    assert r.status_code == 200
    answer = r.json()
    assert answer["legal"] and answer["state"]["turn"] == "bob"
    assert answer["state_hash"] == RULESET.validate(EXAMPLE_STATE, EXAMPLE_ACTION).state_hash


def test_graphql_types_the_toys_actions(client: TestClient) -> None:
    text = ("query($state: TicTacToeState!, $action: TicTacToeActionInput!) "
            "{ ticTacToe(state: $state) { validate(action: $action) { legal stateHash "
            "violations { code } } legalActions(player: \"alice\") { actions { "
            "... on TicTacToePlaceAction { place { player cell } } "
            "... on TicTacToeResignAction { resign { player } } } } } }")
    variables = {"state": EXAMPLE_STATE,
                 "action": to_graphql(RULESET.action_model, EXAMPLE_ACTION)}
    r = client.post("/graphql", json={"query": text, "variables": variables})
    assert r.status_code == 200 and "errors" not in r.json(), r.text
    asked = r.json()["data"]["ticTacToe"]
    assert asked["validate"]["legal"]
    assert asked["validate"]["stateHash"] == RULESET.validate(EXAMPLE_STATE,
                                                              EXAMPLE_ACTION).state_hash
    # Each listed action is the action input, as validate takes it.
    assert asked["legalActions"]["actions"][-1] == {"resign": {"player": "alice"}}


def _won_top_row(misere: bool) -> dict[str, Any]:
    outcome = RULESET.validate(
        {"options": {"misere": misere}, "players": EXAMPLE_STATE["players"],
         "board": ["X", "X", None, "O", "O", None, None, None, None], "turn": "alice"},
        {"type": "place", "player": "alice", "cell": 2})
    return outcome.events[-1].model_dump(mode="json")


def test_three_in_a_row_names_the_winner_and_the_line() -> None:
    won = _won_top_row(misere=False)
    assert won["kind"] == "game_won"
    assert won["params"] == {"winner": "alice", "mark": "X", "line": [0, 1, 2]}
    assert won["message"] == "alice wins: X has three in a row on cells 0, 1, 2"


def test_in_misere_the_line_makes_the_other_player_win() -> None:
    assert _won_top_row(misere=True)["params"]["winner"] == "bob"


def test_a_malformed_state_reports_every_problem_at_its_pointer() -> None:
    state = {"players": [{"id": "alice", "mark": "X"}, {"id": "alice", "mark": "X"}],
             "board": [None] * 9, "turn": "carol", "resigned": "dave"}
    with pytest.raises(InvalidInput) as caught:
        RULESET.validate(state, EXAMPLE_ACTION)
    assert sorted(p.pointer for p in caught.value.problems) == [
        "/state/players/1/id", "/state/players/1/mark", "/state/resigned", "/state/turn"]


def test_the_toy_imports_no_transport_clock_or_randomness() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and node.level == 0 else [])
            for name in names:
                assert not any(name == f or name.startswith(f + ".") for f in TRANSPORT), (
                    f"{path.name} imports {name}")

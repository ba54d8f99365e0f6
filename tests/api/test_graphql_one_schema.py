"""One GraphQL schema for every app of a process that serves the same rulesets
(``graphql.schema.build_schema``), each app's service and limits reaching it through the
request's context (``graphql.served``): the schema is shared, what an app is configured
with is not."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from starlette.testclient import TestClient

from arbiter.engine.boards import board_id
from arbiter.graphql import cost
from arbiter.graphql.schema import build_schema
from arbiter.http.app import create_app
from arbiter.rulesets import builtin_registry
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_STATE
from arbiter.settings import Settings

REGISTRY = builtin_registry()


def post(client: TestClient, query: str, variables: dict[str, Any] | None = None
         ) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query, "variables": variables or {}})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_apps_differing_in_behaviour_share_one_schema() -> None:
    plain = build_schema(REGISTRY, Settings())
    assert build_schema(REGISTRY, Settings(graphql_max_depth=2, graphql_max_tokens=10,
                                           compute_budget_ms=1, max_batch=3)) is plain
    assert build_schema(builtin_registry(), Settings()) is plain  # the same rulesets


def test_the_public_url_shapes_the_schema() -> None:
    # The one setting in the SDL: the scalars' @specifiedBy links.
    elsewhere = build_schema(REGISTRY, Settings(public_url="https://rules.example.org"))
    assert elsewhere is not build_schema(REGISTRY, Settings())
    assert ('"https://rules.example.org/v1/rulesets/hex_maneuver/schema/state.json"'
            in elsewhere.as_str())


def test_fewer_rulesets_have_their_own_schema() -> None:
    one = build_schema(builtin_registry("hex_maneuver"), Settings())
    assert "hexManeuver" in one.as_str() and "areaMovement" not in one.as_str()


# 12 tokens, depth 1; and 9 tokens, depth 2 (``rules`` under ``rulesets``).
LONG = "{ rulesets { id version title actionTypes queries id version } }"
DEEP = "{ rulesets { rules { id } } }"


def test_each_app_keeps_its_own_graphql_limits() -> None:
    # The roomy app asks first, so the parser's and the validation's caches (the
    # process's) hold both documents before the tight one reads them.
    with TestClient(create_app(Settings())) as roomy, \
            TestClient(create_app(Settings(graphql_max_tokens=10,
                                           graphql_max_depth=1))) as tight:
        for document in (LONG, DEEP):
            assert "errors" not in post(roomy, document)
        long, deep = post(tight, LONG), post(tight, DEEP)
        assert "token" in long["errors"][0]["message"].lower(), long
        assert deep["errors"][0]["extensions"]["limit"] == "ARBITER_GRAPHQL_MAX_DEPTH", deep
        for document in (LONG, DEEP):  # and the tight app's limits did not stick
            assert "errors" not in post(roomy, document)


def test_each_app_answers_from_its_own_service() -> None:
    # A board stored through one app is held by its service alone.
    board = {"hexes": EXAMPLE_STATE["hexes"]}
    bid = board_id(board)
    held = "query($id: String!) { hexManeuverBoard(id: $id) { board } }"
    with TestClient(create_app(Settings())) as one, TestClient(create_app(Settings())) as two:
        put = post(one, "mutation($id: String!, $board: HexManeuverBoard!) { "
                   "hexManeuverPutBoard(id: $id, board: $board) { board } }",
                   {"id": bid, "board": board})
        assert put["data"]["hexManeuverPutBoard"]["board"] == bid, put
        assert post(one, held, {"id": bid})["data"]["hexManeuverBoard"]["board"] == bid
        other = post(two, held, {"id": bid})
        assert other["errors"][0]["extensions"]["code"] == "BOARD_NOT_FOUND", other


def test_each_app_keeps_its_own_compute_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every request reads as having spent a second already: resolving the rulesets' rules
    # (hundreds of fields) is then past a budget of 50 ms and within one of 5 s.
    monkeypatch.setattr(cost, "spent_now", lambda: SimpleNamespace(seconds=1.0))
    rules = "{ rulesets { id rules { id paraphrase } } }"
    with TestClient(create_app(Settings(compute_budget_ms=50))) as short, \
            TestClient(create_app(Settings(compute_budget_ms=5000))) as long:
        over = post(short, rules)
        assert over["errors"][0]["extensions"]["limit"] == "ARBITER_COMPUTE_BUDGET_MS", over
        assert "errors" not in post(long, rules)

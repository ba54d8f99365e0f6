"""Every limit, over REST and GraphQL: exceeding it gets 413 or 422 with a problem naming
the limit (``limit``) and the JSON pointer of what is too large; the compute budget stops
a request that judges too long, in process (worker thread) and in a real server
(SIGALRM in the main thread), and the server keeps answering."""

from __future__ import annotations

import copy
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from arbiter.graphql.cost import document_cost
from arbiter.graphql.types import to_graphql
from arbiter.http.app import create_app
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.rulesets.hex_maneuver.models import HexManeuverAction
from arbiter.service.compute import Compute
from arbiter.service.limits import Limits
from arbiter.settings import Settings
from support import serve

URL = "/v1/rulesets/hex_maneuver"
BODY = {"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION}
LONG_MOVE = {**EXAMPLE_ACTION, "units": None, "path": [{"q": 1, "r": -1}, {"q": 2, "r": -2}]}
GQL = """query($state: HexManeuverState!, $move: HexManeuverActionInput!) {
  hexManeuver(state: $state) { validate(action: $move) { legal } } }"""


@pytest.fixture
def app_with() -> Iterator[Any]:
    clients: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        client = TestClient(create_app(Settings(**settings)))
        clients.append(client.__enter__())
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def limit_problem(response: httpx.Response, status: int, limit: str) -> list[str]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["limit"] == limit and body["type"].endswith("limit-exceeded"), body
    assert limit in body["detail"]
    return [e["pointer"] for e in body.get("errors", [])]


def gql_limit(response: httpx.Response, limit: str) -> list[str]:
    assert response.status_code == 200, response.text
    errors = response.json()["errors"]
    ext = errors[0]["extensions"]
    assert ext["code"] == "LIMIT_EXCEEDED" and ext["limit"] == limit, errors
    return [p["pointer"] for p in ext["problems"]]


def test_body_over_the_limit_is_413_naming_it(app_with: Any) -> None:
    client = app_with(max_body_bytes=1000)
    response = client.post(f"{URL}/validate", json=BODY)
    assert limit_problem(response, 413, "ARBITER_MAX_BODY_BYTES") == []
    assert response.json()["maximum"] == 1000


def test_board_over_the_cell_limit_is_413_naming_the_list(app_with: Any) -> None:
    client = app_with(max_cells=len(EXAMPLE_STATE["hexes"]) - 1)
    for route, body in (("validate", BODY),
                        ("validate-batch", {"state": EXAMPLE_STATE, "actions": [EXAMPLE_ACTION]}),
                        ("reachable", {"state": EXAMPLE_STATE, "army": "red-1"})):
        pointers = limit_problem(client.post(f"{URL}/{route}", json=body), 413,
                                 "ARBITER_MAX_CELLS")
        assert pointers == ["/state/hexes"], route
    move = to_graphql(HexManeuverAction, EXAMPLE_ACTION)
    response = client.post("/graphql", json={"query": GQL, "variables": {
        "state": EXAMPLE_STATE, "move": move}})
    assert gql_limit(response, "ARBITER_MAX_CELLS") == ["/state/hexes"]


def test_action_over_the_step_limit_is_422_naming_the_list(app_with: Any) -> None:
    client = app_with(max_action_steps=1)
    response = client.post(f"{URL}/validate", json={"state": EXAMPLE_STATE, "action": LONG_MOVE})
    assert limit_problem(response, 422, "ARBITER_MAX_ACTION_STEPS") == ["/action/path"]
    response = client.post(f"{URL}/validate-batch", json={
        "state": EXAMPLE_STATE, "actions": [EXAMPLE_ACTION, LONG_MOVE]})
    assert limit_problem(response, 422, "ARBITER_MAX_ACTION_STEPS") == ["/actions/1/path"]
    response = client.post("/graphql", json={"query": GQL, "variables": {
        "state": EXAMPLE_STATE, "move": to_graphql(HexManeuverAction, LONG_MOVE)}})
    assert gql_limit(response, "ARBITER_MAX_ACTION_STEPS") == ["/action/path"]


def test_batch_over_the_limit_is_422_naming_it(app_with: Any) -> None:
    client = app_with(max_batch=2)
    response = client.post(f"{URL}/validate-batch", json={
        "state": EXAMPLE_STATE, "actions": [EXAMPLE_ACTION] * 3})
    assert limit_problem(response, 422, "ARBITER_MAX_BATCH") == ["/actions"]
    query = """query($state: HexManeuverState!, $moves: [HexManeuverActionInput!]!) {
      hexManeuver(state: $state) { validateBatch(actions: $moves) { outcomes { legal } } } }"""
    moves = [to_graphql(HexManeuverAction, EXAMPLE_ACTION)] * 3
    response = client.post("/graphql", json={"query": query, "variables": {
        "state": EXAMPLE_STATE, "moves": moves}})
    assert gql_limit(response, "ARBITER_MAX_BATCH") == ["/actions"]


def test_graphql_fields_are_counted_with_fragments_expanded(app_with: Any) -> None:
    client = app_with(graphql_max_fields=10)
    small = client.post("/graphql", json={"query": "{ rulesets { id version } }"}).json()
    assert "errors" not in small
    # Four fields in the fragment, spread three times: 1 + 12 fields.
    query = """fragment f on RulesetSummary { id version title queries }
               { rulesets { ...f ...f ...f } }"""
    body = client.post("/graphql", json={"query": query}).json()
    assert "ARBITER_GRAPHQL_MAX_FIELDS" in body["errors"][0]["message"]


def test_the_cost_survives_fragment_cycles() -> None:
    from graphql import parse

    document = parse("fragment a on RulesetSummary { id ...b } "
                     "fragment b on RulesetSummary { title ...a } { rulesets { ...a } }")
    [(_, cost)] = document_cost(document)  # the cycle is another rule's to report
    assert (cost.fields, cost.spreads, cost.depth) == (3, 3, 1)


def test_limits_read_their_settings() -> None:
    limits = Limits.from_settings(Settings(max_cells=7, max_action_steps=8, max_batch=9))
    assert (limits.max_cells, limits.max_action_steps, limits.max_batch) == (7, 8, 9)
    compute = Compute.from_settings(Settings(compute_budget_ms=123))
    assert compute.budget_ms == 123


# -- the compute budget --------------------------------------------------------------------

@pytest.fixture
def slow_validate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Judging an action takes 0.6 s, with no checkpoint on the way (what the service
    calls: ``Position.ruling``)."""
    from arbiter.engine.ruleset import Position

    original = Position.ruling

    def slow(self: Any, *args: Any, **kwargs: Any) -> Any:
        time.sleep(0.6)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Position, "ruling", slow)


@pytest.mark.usefixtures("slow_validate")
def test_over_budget_in_process_is_422_then_fine(app_with: Any) -> None:
    client = app_with(compute_budget_ms=100)
    pointers = limit_problem(client.post(f"{URL}/validate", json=BODY), 422,
                             "ARBITER_COMPUTE_BUDGET_MS")
    assert pointers == [""]
    assert client.get("/healthz").status_code == 200
    reachable = client.post(f"{URL}/reachable", json={"state": EXAMPLE_STATE, "army": "red-1"})
    assert reachable.status_code == 200


@pytest.mark.usefixtures("slow_validate")
def test_over_budget_in_graphql_is_an_error_naming_the_limit(app_with: Any) -> None:
    client = app_with(compute_budget_ms=100)
    move = to_graphql(HexManeuverAction, EXAMPLE_ACTION)
    response = client.post("/graphql", json={"query": GQL, "variables": {
        "state": EXAMPLE_STATE, "move": move}})
    assert gql_limit(response, "ARBITER_COMPUTE_BUDGET_MS") == [""]


def hexagon(radius: int) -> dict[str, Any]:
    """A plains hexagon of the given radius with one army of red in the middle."""
    hexes = [{"q": q, "r": r, "terrain": "plains", "province": "p"}
             for q in range(-radius, radius + 1)
             for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)]
    return {"hexes": hexes, "players": [{"id": "red"}, {"id": "blue"}],
            "armies": [{"id": "a", "owner": "red", "hex": {"q": 0, "r": 0},
                        "units": {"cavalrymen": 3}}]}


@pytest.mark.server
def test_over_budget_in_a_server_is_stopped_and_the_server_answers_on() -> None:
    big = {"state": hexagon(45), "player": "red", "limit": 10_000}
    with serve({"ARBITER_COMPUTE_BUDGET_MS": "5", "ARBITER_CACHE_SIZE": "0"}) as base, \
            httpx.Client(base_url=base, timeout=30) as http:
        response = http.post(f"{URL}/legal-actions", json=big)
        assert limit_problem(response, 422, "ARBITER_COMPUTE_BUDGET_MS") == [""]
        assert http.get("/healthz").status_code == 200
        again = http.post(f"{URL}/legal-actions", json=copy.deepcopy(big))
        assert again.status_code == 422  # same question, same answer: nothing was cached
        assert http.get("/readyz").status_code == 200


def test_graphql_batch_problems_point_at_the_action(app_with: Any) -> None:
    client = app_with()
    query = """query($state: HexManeuverState!, $moves: [HexManeuverActionInput!]!) {
      hexManeuver(state: $state) { validateBatch(actions: $moves) { outcomes { legal } } } }"""
    bad = to_graphql(HexManeuverAction, {**EXAMPLE_ACTION, "player": ""})
    moves = [to_graphql(HexManeuverAction, EXAMPLE_ACTION), bad]
    body = client.post("/graphql", json={"query": query, "variables": {
        "state": EXAMPLE_STATE, "moves": moves}}).json()
    pointers = [p["pointer"] for p in body["errors"][0]["extensions"]["problems"]]
    assert pointers == ["/actions/1/player"]

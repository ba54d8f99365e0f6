"""GraphQL: one state, many questions; typed actions; errors with the REST pointers;
depth and alias limits; GraphiQL on GET."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from arbiter.graphql.types import to_graphql
from arbiter.http.app import create_app
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.rulesets.hex_maneuver.models import HexManeuverAction
from arbiter.settings import Settings

MANY = """
query($state: HexManeuverState!, $move: HexManeuverActionInput!) {
  hexManeuver(state: $state) {
    validate(action: $move) { legal violations { code rule message } stateHash }
    reachable(army: "red-1") { movementPoints destinations { hex { q r } cost path { q r } } }
    legalActions(player: "red", limit: 3) { truncated actions {
      ... on HexManeuverManeuverAction { maneuver { army path { q r } march } } } }
  }
}"""


def gql(client: TestClient, query: str, variables: dict | None = None) -> dict:  # type: ignore[type-arg]
    r = client.post("/graphql", json={"query": query, "variables": variables or {}})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_one_state_many_questions_same_as_rest(client: TestClient) -> None:
    move = to_graphql(HexManeuverAction, EXAMPLE_ACTION)
    body = gql(client, MANY, {"state": EXAMPLE_STATE, "move": move})
    assert "errors" not in body, body
    answer = body["data"]["hexManeuver"]
    rest = client.post("/v1/rulesets/hex_maneuver/validate",
                       json={"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION}).json()
    assert answer["validate"]["legal"] is rest["legal"] is True
    assert answer["validate"]["stateHash"] == rest["state_hash"]
    assert answer["reachable"]["movementPoints"] == 2  # archers ride with the cavalry
    assert answer["legalActions"]["truncated"] is True
    assert len(answer["legalActions"]["actions"]) == 3


def test_bad_state_errors_carry_the_rest_pointers(client: TestClient) -> None:
    state = {**EXAMPLE_STATE, "armies": [{**EXAMPLE_STATE["armies"][0], "hex": {"q": "x"}}]}
    body = gql(client, MANY, {"state": state, "move": to_graphql(HexManeuverAction,
                                                                 EXAMPLE_ACTION)})
    problems = body["errors"][0]["extensions"]["problems"]
    assert {p["pointer"] for p in problems} == {"/state/armies/0/hex/q", "/state/armies/0/hex/r"}


def test_unknown_army_in_an_action_points_at_it(client: TestClient) -> None:
    move = to_graphql(HexManeuverAction, {**EXAMPLE_ACTION, "army": "ghost"})
    body = gql(client, MANY, {"state": EXAMPLE_STATE, "move": move})
    pointers = [p["pointer"] for e in body["errors"] for p in e["extensions"]["problems"]]
    assert pointers == ["/action/army"]


def test_one_of_action_input_refuses_two_actions(client: TestClient) -> None:
    move = to_graphql(HexManeuverAction, EXAMPLE_ACTION)
    move["explore"] = {"player": "red", "army": "red-1", "path": [{"q": 1, "r": 0}]}
    body = gql(client, MANY, {"state": EXAMPLE_STATE, "move": move})
    assert body["errors"] and body.get("data") is None


def test_depth_limit() -> None:
    with TestClient(create_app(Settings(graphql_max_depth=3))) as shallow:
        body = gql(shallow, MANY, {"state": EXAMPLE_STATE,
                                   "move": to_graphql(HexManeuverAction, EXAMPLE_ACTION)})
    assert "exceeds maximum operation depth" in body["errors"][0]["message"]


def test_token_limit() -> None:
    with TestClient(create_app(Settings(graphql_max_tokens=50))) as small:
        body = gql(small, MANY, {"state": EXAMPLE_STATE,
                                 "move": to_graphql(HexManeuverAction, EXAMPLE_ACTION)})
    assert "token" in body["errors"][0]["message"].lower()


def test_alias_limit(client: TestClient) -> None:
    many = "{ " + " ".join(f"a{i}: rulesets {{ id }}" for i in range(40)) + " }"
    body = gql(client, many)
    assert "aliases" in body["errors"][0]["message"]


def test_rulesets_field_and_graphiql(client: TestClient) -> None:
    body = gql(client, "{ rulesets { id version actionTypes queries rules { id paraphrase } } }")
    ids = [r["id"] for r in body["data"]["rulesets"]]
    assert "hex_maneuver" in ids
    rules = client.get("/v1/rulesets/hex_maneuver").json()["rules"]
    assert next(r["rules"] for r in body["data"]["rulesets"]
                if r["id"] == "hex_maneuver") == rules
    page = client.get("/graphql", headers={"accept": "text/html"})
    assert page.status_code == 200 and "graphiql" in page.text.lower()


def test_state_scalar_is_specified_by_its_json_schema(client: TestClient) -> None:
    body = gql(client, '{ __type(name: "HexManeuverState") { kind specifiedByURL } }')
    assert body["data"]["__type"] == {
        "kind": "SCALAR",
        "specifiedByURL": "http://127.0.0.1:8000/v1/rulesets/hex_maneuver/schema/state.json"}


def test_the_order_of_a_map_is_kept_and_keyed_as_the_client_wrote_it(client: TestClient
                                                                      ) -> None:
    # area_movement lists a player's areas in the order of their token map: two states
    # that differ only in that order get different answers, over GraphQL as over REST,
    # and the cache never hands one the other's.
    from arbiter.rulesets.area_movement.examples import EXAMPLE_STATE as AREA

    query = ('query($state: AreaMovementState!) { areaMovement(state: $state) { '
             'reachable(player: "red") { land { area } } } }')
    red = next(p for p in AREA["players"] if p["id"] == "red")
    assert len(red["tokens"]) > 1
    for tokens in (red["tokens"], dict(reversed(list(red["tokens"].items())))):
        state = {**AREA, "players": [{**p, "tokens": tokens} if p["id"] == "red" else p
                                     for p in AREA["players"]]}
        rest = client.post("/v1/rulesets/area_movement/reachable",
                           json={"state": state, "player": "red"}).json()
        body = gql(client, query, {"state": state})
        assert "errors" not in body, body
        areas = [x["area"] for x in body["data"]["areaMovement"]["reachable"]["land"]]
        assert areas == [x["area"] for x in rest["land"]] == list(tokens)


def test_the_body_is_parsed_once_by_the_strict_reading(client: TestClient,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """strawberry's decode_json takes the document the strict JSON reading parsed: the
    endpoint's own parse runs only for a body that reading did not keep."""
    import orjson

    from arbiter.http import graphql_endpoint as graphql_http

    parsed: list[object] = []

    class Counted:
        JSONDecodeError = orjson.JSONDecodeError
        JSONEncodeError = orjson.JSONEncodeError
        dumps = staticmethod(orjson.dumps)

        @staticmethod
        def loads(data: bytes | str) -> object:
            parsed.append(data)
            return orjson.loads(data)

    monkeypatch.setattr(graphql_http, "orjson", Counted)
    answer = gql(client, "query($s: HexManeuverState!) { hexManeuver(state: $s) { "
                 'reachable(army: "red-1") { army } } }', {"s": EXAMPLE_STATE})
    assert answer["data"]["hexManeuver"]["reachable"]["army"] == "red-1"
    assert parsed == []
    # Escapes send the strict reading down its slow path, which keeps no document.
    escaped = b'{"query": "{ rulesets { id } }", "variables": {"x": "\\u00e9"}}'
    r = client.post("/graphql", content=escaped, headers={"content-type": "application/json"})
    assert r.status_code == 200 and "errors" not in r.json(), r.text
    assert parsed == [escaped]

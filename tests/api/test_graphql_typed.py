"""GraphQL as a GraphQL client wants it (issue 23), against a real server: refused inputs
located both ways (the GraphQL path and the REST pointer), counts as strict as REST,
catalogue enums, listed actions that go back to ``validate`` unchanged, and questions
about the resulting state in the same request, answering what two REST requests answer."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest

from arbiter.graphql.types import from_graphql, to_graphql
from arbiter.rulesets import builtin_registry
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.rulesets.hex_maneuver.models import HexManeuverAction
from golden import TYPES_QUERY, pascal, selection

REGISTRY = builtin_registry()
HEX_VALIDATE = """query($state: HexManeuverState!, $action: HexManeuverActionInput!) {
  hexManeuver(state: $state) { validate(action: $action) { legal } } }"""


def gql(http: httpx.Client, query: str, variables: dict[str, Any] | None = None
        ) -> dict[str, Any]:
    r = http.post("/graphql", json={"query": query, "variables": variables or {}})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def problems(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for e in body.get("errors") or [] for p in e["extensions"]["problems"]]


def rest_pointers(http: httpx.Client, ruleset: str, body: dict[str, Any]) -> list[str]:
    r = http.post(f"/v1/rulesets/{ruleset}/validate", json=body)
    assert r.status_code == 422, r.text
    return sorted(e["pointer"] for e in r.json()["errors"])


_TYPES: dict[str, dict[str, Any]] = {}


def types(http: httpx.Client) -> dict[str, dict[str, Any]]:
    if not _TYPES:
        data = gql(http, TYPES_QUERY)["data"]
        _TYPES.update({t["name"]: t for t in data["__schema"]["types"]})
    return _TYPES


# -- problems located both ways ---------------------------------------------------------

@pytest.mark.server
def test_a_refused_action_names_its_graphql_path_and_its_rest_pointer(http: httpx.Client
                                                                       ) -> None:
    action = to_graphql(HexManeuverAction, {**EXAMPLE_ACTION, "army": "ghost"})
    found = problems(gql(http, HEX_VALIDATE, {"state": EXAMPLE_STATE, "action": action}))
    assert found == [{"pointer": "/action/army", "detail": found[0]["detail"],
                      "path": ["validate", "action", "maneuver", "army"]}]
    assert rest_pointers(http, "hex_maneuver", {"state": EXAMPLE_STATE, "action": {
        **EXAMPLE_ACTION, "army": "ghost"}}) == ["/action/army"]


@pytest.mark.server
def test_what_graphql_refuses_itself_carries_the_rest_pointer(http: httpx.Client) -> None:
    rest_action = copy.deepcopy(EXAMPLE_ACTION)
    del rest_action["player"]
    rest_action["path"][0]["r"] = "x"
    expected = rest_pointers(http, "hex_maneuver", {"state": EXAMPLE_STATE,
                                                    "action": rest_action})
    assert expected == ["/action/path/0/r", "/action/player"]
    # As variables ...
    action = to_graphql(HexManeuverAction, EXAMPLE_ACTION)
    del action["maneuver"]["player"]
    action["maneuver"]["path"][0]["r"] = "x"
    found = problems(gql(http, HEX_VALIDATE, {"state": EXAMPLE_STATE, "action": action}))
    assert sorted(p["pointer"] for p in found) == expected
    assert sorted(p["path"] for p in found) == [
        ["validate", "action", "maneuver", "path", 0, "r"],
        ["validate", "action", "maneuver", "player"]]
    # ... and written in the query.
    literal = ('query($state: HexManeuverState!) { hexManeuver(state: $state) { validate('
               'action: {maneuver: {army: "red-1", path: [{q: 1, r: "x"}]}}) { legal } } }')
    body = gql(http, literal, {"state": EXAMPLE_STATE})
    assert body.get("data") is None
    assert sorted(p["pointer"] for p in problems(body)) == expected
    assert ["validate", "action", "maneuver", "path", 0, "r"] in [
        p["path"] for p in problems(body)]


@pytest.mark.server
@pytest.mark.parametrize(("action", "pointer", "path"), [
    # A @oneOf member no action type has, and a field no member has.
    ('{teleport: {army: "red-1"}}', "/action", ["validate", "action", "teleport"]),
    ('{maneuver: {player: "red", army: "red-1", path: [], warp: 9}}', "/action/warp",
     ["validate", "action", "maneuver", "warp"]),
])
def test_an_unknown_field_written_in_the_query_is_located_both_ways(
        http: httpx.Client, action: str, pointer: str, path: list[Any]) -> None:
    literal = ("query($state: HexManeuverState!) { hexManeuver(state: $state) { validate("
               f"action: {action}) {{ legal }} }} }}")
    body = gql(http, literal, {"state": EXAMPLE_STATE})
    assert body.get("data") is None
    assert [e["extensions"]["code"] for e in body["errors"]] == ["INVALID_INPUT"]
    assert [(p["pointer"], p["path"]) for p in problems(body)] == [(pointer, path)]


@pytest.mark.server
@pytest.mark.parametrize(("ruleset_id", "action", "path"), [
    # The issue's example: through the @oneOf member, camelCase.
    ("region_conquest", {"type": "redeploy", "player": "orcs", "moves": [
        {"from_region": "", "to_region": "hills", "tokens": 1}]},
     ["validate", "action", "redeploy", "moves", 0, "fromRegion"]),
    # A step of a plan is itself a one-of: its member is in the path, not the pointer.
    ("area_movement", {"type": "movement", "player": "red", "steps": [
        {"type": "move_tokens", "from_area": "corinth", "to_area": "thebes", "count": 0}]},
     ["validate", "action", "movement", "steps", 0, "moveTokens", "count"]),
])
def test_nested_inputs_are_located_both_ways(http: httpx.Client, ruleset_id: str,
                                             action: dict[str, Any], path: list[Any]) -> None:
    ruleset = REGISTRY.get(ruleset_id)
    assert ruleset is not None
    expected = rest_pointers(http, ruleset_id, {"state": ruleset.examples.state,
                                                "action": action})
    prefix = pascal(ruleset_id)
    field = prefix[0].lower() + prefix[1:]
    query = (f"query($state: {prefix}State!, $action: {prefix}ActionInput!) {{ {field}("
             "state: $state) { validate(action: $action) { legal } } }")
    found = problems(gql(http, query, {"state": ruleset.examples.state,
                                       "action": to_graphql(ruleset.action_model, action)}))
    assert sorted(p["pointer"] for p in found) == expected
    assert [p["path"] for p in found] == [path]


@pytest.mark.server
@pytest.mark.parametrize("count", ["2", True, 1.0, -1, 2**40])
def test_a_count_is_as_strict_as_rest(http: httpx.Client, count: Any) -> None:
    rest = rest_pointers(http, "hex_maneuver", {"state": EXAMPLE_STATE, "action": {
        **EXAMPLE_ACTION, "units": {"cavalrymen": count}}})
    action = to_graphql(HexManeuverAction, {**EXAMPLE_ACTION, "units": {"cavalrymen": count}})
    found = problems(gql(http, HEX_VALIDATE, {"state": EXAMPLE_STATE, "action": action}))
    assert found, f"{count!r} was taken as a count"
    assert sorted({p["pointer"] for p in found}) == rest == ["/action/units/cavalrymen"]
    assert {tuple(p["path"]) for p in found} == {
        ("validate", "action", "maneuver", "units", 0, "count")}


@pytest.mark.server
def test_a_unit_listed_twice_is_refused(http: httpx.Client) -> None:
    action = to_graphql(HexManeuverAction, EXAMPLE_ACTION)
    action["maneuver"]["units"] = [{"unit": "cavalrymen", "count": 1},
                                   {"unit": "cavalrymen", "count": 1}]
    found = problems(gql(http, HEX_VALIDATE, {"state": EXAMPLE_STATE, "action": action}))
    assert [p["pointer"] for p in found] == ["/action/units/cavalrymen"]


@pytest.mark.server
def test_a_number_beyond_a_double_never_becomes_null(http: httpx.Client) -> None:
    # Read as infinity and written back, 1e400 would be null: a seed turned into table mode.
    from arbiter.rulesets.phased_orders.examples import EXAMPLE_STATE as PHASED

    state = "{" + ", ".join(f"{k}: $s{k}" for k in PHASED if k != "rng") + ", rng: 1e400}"
    decl = ", ".join(f"$s{k}: JSON" for k in PHASED if k != "rng")
    query = (f"query({decl}) {{ phasedOrders(state: {state}) {{ "
             "validate(action: {resolve: {orders: []}}) { legal } } }")
    body = gql(http, query, {f"s{k}": v for k, v in PHASED.items() if k != "rng"})
    assert body.get("data") is None and body["errors"], body


# -- typed outputs ----------------------------------------------------------------------

@pytest.mark.server
def test_codes_and_kinds_are_the_catalogues_enums(http: httpx.Client) -> None:
    known = types(http)
    for ruleset in REGISTRY:
        prefix = pascal(ruleset.id)
        for enum_name, names in ((f"{prefix}ViolationCode", ruleset.codes),
                                 (f"{prefix}EventKind", ruleset.event_kinds)):
            values = gql(http, f'{{ __type(name: "{enum_name}") {{ enumValues {{ name }} }} }}')
            assert [v["name"] for v in values["data"]["__type"]["enumValues"]] == list(names)
        outcome = {f["name"]: f for f in known[f"{prefix}Outcome"]["fields"]}
        assert "next" in outcome
    severity = gql(http, '{ __type(name: "Severity") { enumValues { name } } }')
    assert [v["name"] for v in severity["data"]["__type"]["enumValues"]] == ["error", "warning"]


# -- legal actions round-trip -----------------------------------------------------------

def _listing(http: httpx.Client, ruleset_id: str, player: str, limit: int
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    ruleset = REGISTRY.get(ruleset_id)
    assert ruleset is not None
    prefix = pascal(ruleset_id)
    field = prefix[0].lower() + prefix[1:]
    answer = f"{prefix}LegalActionsResponse"
    query = (f"query($state: {prefix}State!, $player: String!, $limit: Int) {{ {field}("
             f"state: $state) {{ legalActions(player: $player, limit: $limit) {{ "
             f"{selection(types(http), answer)} }} }} }}")
    body = gql(http, query, {"state": ruleset.examples.state, "player": player, "limit": limit})
    assert "errors" not in body, body
    rest = http.post(f"/v1/rulesets/{ruleset_id}/legal-actions", json={
        "state": ruleset.examples.state, "player": player, "limit": limit})
    assert rest.status_code == 200, rest.text
    return body["data"][field]["legalActions"], rest.json()


@pytest.mark.server
@pytest.mark.parametrize("ruleset_id", REGISTRY.ids())
def test_every_listed_action_sent_back_unchanged_is_legal(http: httpx.Client,
                                                          ruleset_id: str) -> None:
    ruleset = REGISTRY.get(ruleset_id)
    assert ruleset is not None
    prefix = pascal(ruleset_id)
    field = prefix[0].lower() + prefix[1:]
    validate = (f"query($state: {prefix}State!, $actions: [{prefix}ActionInput!]!) {{ "
                f"{field}(state: $state) {{ validateBatch(actions: $actions) {{ outcomes {{ legal "
                "violations { code message } } } } }")
    listed_any = False
    for player in [p["id"] for p in ruleset.examples.state["players"]]:
        listing, rest = _listing(http, ruleset_id, player, 40)
        # The same list as REST's, in the same order.
        response = ruleset.queries["legal-actions"].response
        assert from_graphql(response, listing)["actions"] == rest["actions"]
        assert listing["truncated"] == rest["truncated"]
        actions = listing["actions"]
        if not actions:
            continue
        listed_any = True
        body = gql(http, validate, {"state": ruleset.examples.state, "actions": actions})
        assert "errors" not in body, body
        verdicts = body["data"][field]["validateBatch"]["outcomes"]
        assert [v for v in verdicts if not v["legal"]] == []
    assert listed_any


# -- questions about the resulting state ------------------------------------------------

@pytest.mark.server
def test_validate_then_reachable_in_one_request_equals_two_rest_requests(
        http: httpx.Client) -> None:
    reach = ("reachable(army: \"red-1\") { "
             f"{selection(types(http), 'HexManeuverReachableResponse')} }}")
    query = ("query($state: HexManeuverState!, $action: HexManeuverActionInput!, "
             "$then: HexManeuverActionInput!) { "
             "hexManeuver(state: $state) { validate(action: $action) { legal stateHash "
             f"next {{ {reach} standing: validate(action: $then) {{ legal violations "
             "{ code } stateHash } } } } }")
    action = to_graphql(HexManeuverAction, EXAMPLE_ACTION)
    # The cavalry moved: the army's other units stay and move on (whichever is legal).
    then_rest = {"type": "maneuver", "player": "red", "army": "red-1", "path": []}
    body = gql(http, query, {"state": EXAMPLE_STATE, "action": action,
                             "then": to_graphql(HexManeuverAction, then_rest)})
    assert "errors" not in body, body
    judged = body["data"]["hexManeuver"]["validate"]

    first = http.post("/v1/rulesets/hex_maneuver/validate",
                      json={"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION}).json()
    assert judged["legal"] is first["legal"] is True
    assert judged["stateHash"] == first["state_hash"]
    then = http.post("/v1/rulesets/hex_maneuver/reachable",
                     json={"state": first["state"], "army": "red-1"})
    assert then.status_code == 200, then.text
    from arbiter.rulesets.hex_maneuver.queries import HexManeuverReachableResponse

    assert from_graphql(HexManeuverReachableResponse, judged["next"]["reachable"]) == \
        then.json()
    again = http.post("/v1/rulesets/hex_maneuver/validate",
                      json={"state": first["state"], "action": then_rest}).json()
    assert judged["next"]["standing"]["legal"] is again["legal"]
    assert judged["next"]["standing"]["stateHash"] == again["state_hash"]
    assert [v["code"] for v in judged["next"]["standing"]["violations"]] == \
        [v["code"] for v in again["violations"]]


@pytest.mark.server
def test_next_is_null_when_no_state_results(http: httpx.Client) -> None:
    query = ("query($state: HexManeuverState!, $action: HexManeuverActionInput!) { "
             "hexManeuver(state: $state) { validate(action: $action) { legal next { "
             "reachable(army: \"red-1\") { movementPoints } } } } }")
    action = to_graphql(HexManeuverAction, {**EXAMPLE_ACTION, "player": "blue"})
    body = gql(http, query, {"state": EXAMPLE_STATE, "action": action})
    assert body["data"]["hexManeuver"]["validate"] == {"legal": False, "next": None}


def test_a_chain_of_next_is_bounded_by_the_depth_limit() -> None:
    from starlette.testclient import TestClient

    from arbiter.http.app import create_app
    from arbiter.settings import Settings

    inner = "legal"
    for _ in range(6):
        inner = f"legal next {{ validate(action: $action) {{ {inner} }} }}"
    query = ("query($state: HexManeuverState!, $action: HexManeuverActionInput!) { "
             f"hexManeuver(state: $state) {{ validate(action: $action) {{ {inner} }} }} }}")
    variables = {"state": EXAMPLE_STATE, "action": to_graphql(HexManeuverAction,
                                                              EXAMPLE_ACTION)}
    with TestClient(create_app(Settings(graphql_max_depth=8))) as client:
        body = client.post("/graphql", json={"query": query, "variables": variables}).json()
    assert "exceeds maximum operation depth" in body["errors"][0]["message"]


@pytest.mark.server
def test_next_over_a_board_by_reference_answers_as_rest_does(http: httpx.Client) -> None:
    # The resulting state of a state that named its board names it too: questions asked of
    # it through `next` answer what REST answers for that lean state.
    from arbiter.engine.boards import board_id
    from arbiter.rulesets.hex_maneuver.queries import HexManeuverReachableResponse

    ruleset = REGISTRY.get("hex_maneuver")
    assert ruleset is not None and ruleset.boards is not None
    board = {f: EXAMPLE_STATE[f] for f in ruleset.boards.fields if f in EXAMPLE_STATE}
    bid = board_id(board)
    assert http.put(f"/v1/rulesets/hex_maneuver/boards/{bid}", json=board).status_code in (
        200, 201)
    lean = {"board": bid, **{k: v for k, v in EXAMPLE_STATE.items() if k not in board}}
    reach = selection(types(http), "HexManeuverReachableResponse")
    query = ("query($state: HexManeuverState!, $action: HexManeuverActionInput!) { "
             "hexManeuver(state: $state) { validate(action: $action) { legal state "
             f"next {{ reachable(army: \"red-1\") {{ {reach} }} }} }} }} }}")
    body = gql(http, query, {"state": lean, "action": to_graphql(HexManeuverAction,
                                                                 EXAMPLE_ACTION)})
    assert "errors" not in body, body
    judged = body["data"]["hexManeuver"]["validate"]
    first = http.post("/v1/rulesets/hex_maneuver/validate",
                      json={"state": lean, "action": EXAMPLE_ACTION}).json()
    assert judged["legal"] is first["legal"] is True
    assert judged["state"] == first["state"] and first["state"]["board"] == bid
    then = http.post("/v1/rulesets/hex_maneuver/reachable",
                     json={"state": first["state"], "army": "red-1"})
    assert then.status_code == 200, then.text
    assert from_graphql(HexManeuverReachableResponse, judged["next"]["reachable"]) == \
        then.json()

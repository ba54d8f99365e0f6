"""The fields GraphQL has for parity with REST answer what REST answers for the same
request: a new game (with a seed fixed here, the same first state, signed alike, and the
signed state then judged by REST), a resulting state as a patch or left out (the patch
applied to the state sent is the state REST returns, in a sequence and in ``next``
too), ``validateBatch``'s ``{outcomes}``, a board stored over GraphQL then named by a
state, whether a board is held, each ruleset's catalogue, and an argument that is an
enum (phased_orders' ``unansweredCommuniques``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

from arbiter.engine.boards import board_id
from arbiter.graphql.types import from_graphql, to_graphql
from arbiter.http.app import create_app
from arbiter.http.problems import BOARD_NOT_FOUND, STATE_SIGNATURE
from arbiter.rulesets import builtin_registry
from arbiter.service.contract import NewGame, contract
from arbiter.settings import Settings
from golden import TYPES_QUERY, load_cases, pascal, selection
from service.test_patch import apply

REGISTRY = builtin_registry()
BOARDED = [r.id for r in REGISTRY if r.boards is not None]
SEED = 2**64 - 2  # past GraphQL's Int: the state scalar carries it as JSON does
KEY = "parity-" + "k" * 32
# Every fourth legal case with an action, each ruleset's among them: a patch or nothing
# in place of the state for every kind of action (board changed or not, advisory mode).
LEGAL = [(n, c) for n, c in load_cases() if REGISTRY.get(c["ruleset"]) is not None
         and "action" in c and c.get("expect", {}).get("legal") is True
         and "status" not in c["expect"]
         # a phased_orders turn waiting for decisions is legal and not applied
         and c["expect"].get("derived", {}).get("status") != "pending"][::4]


def lower(ruleset_id: str) -> str:
    return pascal(ruleset_id)[:1].lower() + pascal(ruleset_id)[1:]


def ruleset_of(ruleset_id: str) -> Any:
    ruleset = REGISTRY.get(ruleset_id)
    assert ruleset is not None
    return ruleset


def gql(client: TestClient, query: str, variables: dict[str, Any] | None = None
        ) -> dict[str, Any]:
    r = client.post("/graphql", json={"query": query, "variables": variables or {}})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def data(client: TestClient, query: str, variables: dict[str, Any] | None = None
         ) -> dict[str, Any]:
    body = gql(client, query, variables)
    assert "errors" not in body, body
    answer: dict[str, Any] = body["data"]
    return answer


def rest(client: TestClient, path: str, body: Any, status: int = 200) -> Any:
    r = client.post(path, content=orjson.dumps(body),
                    headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    return r.json()


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """new-game's seed, fixed: the same request then has the same answer either way."""
    monkeypatch.setattr("arbiter.service.lifecycle.draw_seed", lambda: SEED)


@pytest.fixture(scope="module")
def signing() -> Iterator[TestClient]:
    """A service that signs states and requires them signed, asked by the game server
    (its issuer key: only an issuer may start a game there)."""
    issuer = "issuer-" + "i" * 32
    with TestClient(create_app(Settings(state_keys=f"k1:{KEY}", require_signed_states=True,
                                        issuer_keys=issuer)),
                    headers={"x-api-key": issuer}) as client:
        yield client


def new_game(client: TestClient, ruleset_id: str, state: Any) -> dict[str, Any]:
    """GraphQL's new game, as REST writes it."""
    prefix = pascal(ruleset_id)
    query = (f"mutation($state: {prefix}State!) {{ {lower(ruleset_id)}NewGame(state: $state) "
             "{ ruleset rulesetVersion state stateHash signature { key mac } } }")
    answer = data(client, query, {"state": state})[f"{lower(ruleset_id)}NewGame"]
    started: dict[str, Any] = from_graphql(NewGame, answer)
    return started


def public(game: dict[str, Any]) -> Any:
    """A new game's answer as anybody may read it: its hash and signature out (they
    follow the seals and the shuffle), each sealed field as its count."""
    def shown(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"sealed", "count"}:
                return ("sealed", value["count"])
            return {k: shown(v) for k, v in value.items()}
        return [shown(v) for v in value] if isinstance(value, list) else value
    return shown({k: v for k, v in game.items() if k not in ("state_hash", "signature")})


# -- new-game ------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset_id", REGISTRY.ids())
def test_new_game_answers_as_rest(client: TestClient, fixed_seed: None,
                                  ruleset_id: str) -> None:
    state = ruleset_of(ruleset_id).examples.state
    expected = rest(client, f"/v1/rulesets/{ruleset_id}/new-game", {"state": state})
    assert new_game(client, ruleset_id, state) == expected
    assert expected["signature"] is None  # this service signs no states


@pytest.mark.parametrize("ruleset_id", REGISTRY.ids())
def test_a_new_game_signed_over_graphql_is_a_state_rest_accepts(
        signing: TestClient, fixed_seed: None, ruleset_id: str) -> None:
    ruleset = ruleset_of(ruleset_id)
    state = ruleset.examples.state
    started = new_game(signing, ruleset_id, state)
    # Alike but for the seals of its hidden fields (a fresh nonce each, and a deck or stack
    # shuffled afresh: tests/api/test_sealing.py).
    assert public(started) == public(rest(signing, f"/v1/rulesets/{ruleset_id}/new-game",
                                          {"state": state}))
    assert started["signature"]["key"] == "k1"
    action = ruleset.examples.action
    judged = rest(signing, f"/v1/rulesets/{ruleset_id}/validate", {
        "state": started["state"], "signature": started["signature"], "action": action})
    assert judged["legal"] is (judged["signature"] is not None)
    # The same state unsigned is refused: the signature is what REST accepted.
    refused = rest(signing, f"/v1/rulesets/{ruleset_id}/validate", {
        "state": started["state"], "action": action}, 422)
    assert refused["type"] == STATE_SIGNATURE


def test_a_new_game_refused_names_the_rest_pointer_and_the_graphql_path(
        client: TestClient) -> None:
    state = {**ruleset_of("hex_maneuver").examples.state, "rng": "x"}
    refused = rest(client, "/v1/rulesets/hex_maneuver/new-game", {"state": state}, 422)
    body = gql(client, "mutation($state: HexManeuverState!) { hexManeuverNewGame("
               "state: $state) { stateHash } }", {"state": state})
    problems = body["errors"][0]["extensions"]["problems"]
    assert [p["pointer"] for p in problems] == [e["pointer"] for e in refused["errors"]]
    assert problems[0]["path"] == ["hexManeuverNewGame", "state", "rng"]


# -- return: patch and omit --------------------------------------------------------------

@pytest.mark.parametrize(("name", "case"), LEGAL, ids=[n for n, _ in LEGAL])
def test_a_patch_applied_to_the_state_sent_is_the_state_rest_returns(
        client: TestClient, name: str, case: dict[str, Any]) -> None:
    ruleset = ruleset_of(case["ruleset"])
    prefix, mode = pascal(ruleset.id), case.get("mode", "strict")
    query = (f"query($state: {prefix}State!, $action: {prefix}ActionInput!, $mode: Mode) {{ "
             f"{lower(ruleset.id)}(state: $state) {{ "
             "patched: validate(action: $action, mode: $mode, return: patch) { state "
             "stateHash patch { op path value } } "
             "omitted: validate(action: $action, mode: $mode, return: omit) { state "
             "stateHash patch { op } } } }")
    asked = data(client, query, {"state": case["state"], "mode": mode, "action": to_graphql(
        ruleset.action_model, case["action"])})[lower(ruleset.id)]
    whole = rest(client, f"/v1/rulesets/{ruleset.id}/validate", {
        "state": case["state"], "action": case["action"], "mode": mode})
    patched, omitted = asked["patched"], asked["omitted"]
    assert patched["state"] is None and omitted["state"] is omitted["patch"] is None
    # Defaults the state sent left out, and the action kept, stay out of the patch: read
    # as the service reads a state, the patched copy is the state REST returns.
    read = ruleset.state_model.model_validate
    assert read(apply(case["state"], patched["patch"])) == read(whole["state"])
    assert all(op["path"] for op in patched["patch"])  # what changed, not the whole state
    assert patched["stateHash"] == omitted["stateHash"] == whole["state_hash"]


def legal(client: TestClient, ruleset: Any, state: Any, limit: int = 1
          ) -> list[dict[str, Any]]:
    """The first legal actions of each player in ``state`` (REST's listing)."""
    listed: list[dict[str, Any]] = []
    for player in [p["id"] for p in ruleset.examples.state["players"]]:
        listed += rest(client, f"/v1/rulesets/{ruleset.id}/legal-actions", {
            "state": state, "player": player, "limit": limit})["actions"]
    return listed


def first_legal(client: TestClient, ruleset: Any, state: Any) -> dict[str, Any] | None:
    """The first legal action of any player in ``state``."""
    listed = legal(client, ruleset, state)
    return listed[0] if listed else None


def two_moves(client: TestClient, ruleset: Any) -> list[dict[str, Any]]:
    """Two legal actions of the example state, one after the other: the first of the
    listed actions that leaves a second one (area_movement's first, ending the player's
    movement, leaves none)."""
    for first in legal(client, ruleset, ruleset.examples.state, limit=20):
        after = rest(client, f"/v1/rulesets/{ruleset.id}/validate", {
            "state": ruleset.examples.state, "action": first})["state"]
        second = first_legal(client, ruleset, after)
        if second is not None:
            return [first, second]
    raise AssertionError(f"no two moves in a row from {ruleset.id}'s example state")


@pytest.mark.parametrize("ruleset_id", REGISTRY.ids())
def test_a_sequence_answers_outcomes_whose_patches_apply_in_order(
        client: TestClient, ruleset_id: str) -> None:
    ruleset = ruleset_of(ruleset_id)
    prefix, state = pascal(ruleset_id), ruleset.examples.state
    moves = two_moves(client, ruleset)
    query = (f"query($state: {prefix}State!, $actions: [{prefix}ActionInput!]!) {{ "
             f"{lower(ruleset_id)}(state: $state) {{ validateBatch(actions: $actions, "
             "mode: sequence, return: patch) { outcomes { legal applied stateHash violations "
             "{ code } events { kind } patch { op path value } } } } }")
    batch = data(client, query, {"state": state, "actions": [
        to_graphql(ruleset.action_model, m) for m in moves]})[lower(ruleset_id)]
    expected = rest(client, f"/v1/rulesets/{ruleset_id}/validate-batch", {
        "state": state, "actions": moves, "mode": "sequence"})["outcomes"]
    outcomes = batch["validateBatch"]["outcomes"]
    assert len(outcomes) == len(expected) == len(moves)
    for outcome, whole in zip(outcomes, expected, strict=True):
        assert (outcome["legal"], outcome["applied"], outcome["stateHash"]) == \
            (whole["legal"], whole["applied"], whole["state_hash"])
        assert [v["code"] for v in outcome["violations"]] == \
            [v["code"] for v in whole["violations"]]
        assert [e["kind"] for e in outcome["events"]] == [e["kind"] for e in whole["events"]]
        state = apply(state, outcome["patch"])  # (the client's copy, defaults left out)
        assert ruleset.state_model.model_validate(state) == \
            ruleset.state_model.model_validate(whole["state"])


@pytest.mark.parametrize("ruleset_id", REGISTRY.ids())
def test_a_patch_asked_of_the_next_state_is_against_the_state_before_it(
        client: TestClient, ruleset_id: str) -> None:
    ruleset = ruleset_of(ruleset_id)
    moves = two_moves(client, ruleset)
    prefix, state = pascal(ruleset_id), ruleset.examples.state
    query = (f"query($state: {prefix}State!, $a: {prefix}ActionInput!, "
             f"$b: {prefix}ActionInput!) {{ {lower(ruleset_id)}(state: $state) {{ "
             "validate(action: $a) { state next { validate(action: $b, return: patch) { "
             "stateHash patch { op path value } } } } } }")
    first = data(client, query, {"state": state, "a": to_graphql(ruleset.action_model, moves[0]),
                                 "b": to_graphql(ruleset.action_model, moves[1])})
    outer = first[lower(ruleset_id)]["validate"]
    inner = outer["next"]["validate"]
    whole = rest(client, f"/v1/rulesets/{ruleset_id}/validate", {
        "state": outer["state"], "action": moves[1]})
    assert apply(outer["state"], inner["patch"]) == whole["state"]
    assert all(op["path"] for op in inner["patch"])  # what changed, not the whole state
    assert inner["stateHash"] == whole["state_hash"]


# -- boards ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fresh() -> Iterator[TestClient]:
    """A service no test here sends an example state to: it holds a board only once
    GraphQL has stored it."""
    with TestClient(create_app(Settings())) as client:
        yield client


def split(ruleset: Any, state: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The board's id, the board, and the state naming it in its place."""
    fields = ruleset.boards.fields
    board = {f: state[f] for f in fields if f in state}
    lean = {k: v for k, v in state.items() if k not in fields}
    return board_id(board), board, {**lean, "board": board_id(board)}


def held(client: TestClient, ruleset_id: str, board: str) -> dict[str, Any]:
    query = f"query($id: String!) {{ {lower(ruleset_id)}Board(id: $id) {{ board fields }} }}"
    return gql(client, query, {"id": board})


@pytest.mark.parametrize("ruleset_id", BOARDED)
def test_a_board_stored_over_graphql_is_named_by_a_state(fresh: TestClient,
                                                         ruleset_id: str) -> None:
    ruleset = ruleset_of(ruleset_id)
    state, action = ruleset.examples.state, ruleset.examples.action
    bid, board, lean = split(ruleset, state)
    path = f"/v1/rulesets/{ruleset_id}/boards/{bid}"
    # Not held yet: the same answer both ways.
    unknown = held(fresh, ruleset_id, bid)["errors"][0]["extensions"]
    missing = fresh.get(path)
    assert missing.status_code == 422 and missing.json()["type"] == BOARD_NOT_FOUND
    assert (unknown["code"], unknown["board"]) == ("BOARD_NOT_FOUND", missing.json()["board"])
    put = (f"mutation($id: String!, $board: {pascal(ruleset_id)}Board!) {{ "
           f"{lower(ruleset_id)}PutBoard(id: $id, board: $board) {{ board fields }} }}")
    stored = data(fresh, put, {"id": bid, "board": board})[f"{lower(ruleset_id)}PutBoard"]
    assert stored == fresh.get(path).json()
    assert held(fresh, ruleset_id, bid)["data"][f"{lower(ruleset_id)}Board"] == stored
    prefix = pascal(ruleset_id)
    query = (f"query($state: {prefix}State!, $action: {prefix}ActionInput!) {{ "
             f"{lower(ruleset_id)}(state: $state) {{ validate(action: $action) {{ legal "
             "stateHash violations { code } } } }")
    by_reference = data(fresh, query, {"state": lean, "action": to_graphql(
        ruleset.action_model, action)})[lower(ruleset_id)]["validate"]
    inline = rest(fresh, f"/v1/rulesets/{ruleset_id}/validate", {"state": state,
                                                                  "action": action})
    assert (by_reference["legal"], by_reference["stateHash"]) == \
        (inline["legal"], inline["state_hash"])
    assert [v["code"] for v in by_reference["violations"]] == \
        [v["code"] for v in inline["violations"]]


def test_a_board_refused_names_the_rest_pointer_and_the_graphql_path(
        client: TestClient) -> None:
    board = {"hexes": [{"q": "x", "r": 0, "terrain": "plains", "province": "home"}]}
    bid = "sha256:" + "0" * 64
    refused = client.put(f"/v1/rulesets/hex_maneuver/boards/{bid}", content=orjson.dumps(board))
    assert refused.status_code == 422
    body = gql(client, "mutation($id: String!, $board: HexManeuverBoard!) { "
               "hexManeuverPutBoard(id: $id, board: $board) { board } }",
               {"id": bid, "board": board})
    problems = body["errors"][0]["extensions"]["problems"]
    assert [p["pointer"] for p in problems] == [e["pointer"] for e in refused.json()["errors"]]
    assert problems[0]["path"] == ["hexManeuverPutBoard", "board", "hexes", 0, "q"]


# -- the catalogue, and an enum argument ---------------------------------------------------

@pytest.mark.parametrize("ruleset_id", REGISTRY.ids())
def test_the_catalogue_is_rests(client: TestClient, ruleset_id: str) -> None:
    ruleset = ruleset_of(ruleset_id)
    types = {t["name"]: t for t in data(client, TYPES_QUERY)["__schema"]["types"]}
    query = (f"{{ {lower(ruleset_id)}Catalogue {{ "
             f"{selection(types, pascal(ruleset_id) + 'Description')} }} }}")
    answer = data(client, query)[f"{lower(ruleset_id)}Catalogue"]
    described = client.get(f"/v1/rulesets/{ruleset_id}").json()
    assert from_graphql(contract(ruleset).description, answer) == described


@pytest.mark.parametrize("unanswered", ["pending", "follow_orders"])
def test_resolve_takes_unanswered_communiques_as_an_enum(client: TestClient,
                                                         unanswered: str) -> None:
    case = next(c for n, c in load_cases()
                if n == "phased_orders/communique_players_unreachable_follow_orders")
    ruleset = ruleset_of("phased_orders")
    request = {"state": case["state"], "orders": case["action"]["orders"],
               "unanswered_communiques": unanswered}
    arguments = to_graphql(ruleset.queries["resolve"].request, request)
    query = ("query($state: PhasedOrdersState!, $orders: [PhasedOrdersResolveOrderInput!]) {"
             " phasedOrders(state: $state) { resolve(orders: $orders, unansweredCommuniques: "
             f"{unanswered}) {{ resolved legal stateHash unordered }} }} }}")
    answer = data(client, query, {"state": case["state"], "orders": arguments["orders"]})
    expected = rest(client, "/v1/rulesets/phased_orders/resolve", request)
    resolved = answer["phasedOrders"]["resolve"]
    assert (resolved["resolved"], resolved["legal"], resolved["stateHash"],
            resolved["unordered"]) == (expected["resolved"], expected["legal"],
                                       expected["state_hash"], expected["unordered"])
    assert resolved["resolved"] is (unanswered == "follow_orders")

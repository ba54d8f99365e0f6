"""Boards by reference (engine/boards.py, service/boards.py): a state names its board by id
in place of sending it; the answers are the same as inline, byte for byte but for the
board itself; an unknown or evicted board is a board-not-found problem that the client
answers by sending the board inline once more; an id that is not its board's is refused;
lean answers (a JSON Patch, or no state) give back exactly the state an inline answer
would."""

from __future__ import annotations

import asyncio
import copy
import uuid
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import redis
from starlette.testclient import TestClient

from arbiter.engine.boards import board_id
from arbiter.http.app import create_app
from arbiter.http.problems import BOARD_NOT_FOUND
from arbiter.rulesets import builtin_registry
from arbiter.settings import Settings
from golden import load_cases
from service.test_patch import apply
from test_golden_engine import REGISTRY

CASES = [(n, c) for n, c in load_cases()
         if REGISTRY.get(c["ruleset"]) is not None and "expect" in c
         and "status" not in c["expect"]]


def split(ruleset_id: str, state: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The board's id, the board, and the state naming it instead."""
    ruleset = REGISTRY.get(ruleset_id)
    assert ruleset is not None and ruleset.boards is not None
    fields = ruleset.boards.fields
    board = {f: state[f] for f in fields if f in state}
    return board_id(board), board, {"board": board_id(board),
                                    **{k: v for k, v in state.items() if k not in fields}}


def post(client: TestClient, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    r = client.post(path, content=orjson.dumps(body),
                    headers={"content-type": "application/json"})
    return r.status_code, r.json()


def with_state(case: dict[str, Any], state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    rid = case["ruleset"]
    if "query" in case:
        return f"/v1/rulesets/{rid}/{case['query']}", {**case["request"], "state": state}
    return f"/v1/rulesets/{rid}/validate", {"state": state, "action": case["action"],
                                            "mode": case.get("mode", "strict")}


def state_of(case: dict[str, Any]) -> dict[str, Any]:
    return case["request"]["state"] if "query" in case else case["state"]


@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_a_board_by_reference_answers_as_the_board_inline(client: TestClient, name: str,
                                                          case: dict[str, Any]) -> None:
    ruleset = REGISTRY.get(case["ruleset"])
    assert ruleset is not None
    if ruleset.boards is None:
        pytest.skip("a ruleset without a board")  # the toy's, outside this registry
    state = state_of(case)
    bid, board, lean = split(case["ruleset"], state)
    put = client.put(f"/v1/rulesets/{case['ruleset']}/boards/{bid}",
                     content=orjson.dumps(board))
    assert put.status_code == 201, put.text
    inline = post(client, *with_state(case, state))
    by_reference = post(client, *with_state(case, lean))
    assert by_reference[0] == inline[0]
    if "query" in case or inline[0] != 200:
        assert by_reference == inline
        return
    answer, expected = by_reference[1], inline[1]
    assert answer["state_hash"] == expected["state_hash"]
    if expected["state"] is not None and answer["state"].get("board") == bid:
        # The board went back by reference: everything else as inline.
        _, _, expected_lean = split(case["ruleset"], expected["state"])
        assert answer["state"] == {**expected_lean, "board": bid}
        answer = {**answer, "state": None}
        expected = {**expected, "state": None}
    assert answer == expected


EVERY_CASE = [(n, c) for n, c in load_cases()
              if REGISTRY.get(c["ruleset"]) is not None and "expect" in c]


@pytest.fixture(scope="module")
def keeps_nothing() -> Any:
    """A service that keeps no board: every board sent inline is parsed as it came."""
    with TestClient(create_app(Settings.from_env({"ARBITER_BOARD_CACHE_BYTES": "0"}))) as c:
        yield c


@pytest.mark.parametrize(("name", "case"), EVERY_CASE, ids=[n for n, _ in EVERY_CASE])
def test_a_board_sent_inline_is_kept_and_answers_the_same_once_known(
        client: TestClient, keeps_nothing: TestClient, name: str, case: dict[str, Any]) -> None:
    """The first inline request keeps its board (unless it is refused); later ones are
    parsed without it: the same answer, byte for byte, as from a service that keeps no
    board, problems (and their pointers) included."""
    path, body = with_state(case, state_of(case))
    raw = orjson.dumps(body)
    headers = {"content-type": "application/json"}
    answers = [c.post(path, content=raw, headers=headers) for c in (client, client,
                                                                    keeps_nothing)]
    assert len({(a.status_code, a.content) for a in answers}) == 1, name


def test_the_first_request_that_sends_a_board_inline_stores_it(client: TestClient) -> None:
    case = next(c for n, c in CASES if c["ruleset"] == "hex_maneuver" and "action" in c)
    state = copy.deepcopy(case["state"])
    state["hexes"][0]["province"] = "inline-" + uuid.uuid4().hex[:8]  # a board new to all
    bid, _, lean = split("hex_maneuver", state)
    assert client.get(f"/v1/rulesets/hex_maneuver/boards/{bid}").status_code == 422
    path, body = with_state(case, state)
    inline = post(client, path, body)
    assert client.get(f"/v1/rulesets/hex_maneuver/boards/{bid}").status_code == 200
    by_reference = post(client, *with_state(case, lean))
    assert by_reference[0] == inline[0] == 200
    assert by_reference[1]["state_hash"] == inline[1]["state_hash"]


def test_a_refused_state_stores_no_board(client: TestClient) -> None:
    case = next(c for n, c in CASES if c["ruleset"] == "hex_maneuver" and "action" in c)
    state = copy.deepcopy(case["state"])
    state["hexes"][0]["province"] = "refused-" + uuid.uuid4().hex[:8]
    state["armies"][0]["owner"] = 7  # not a string: the request is refused
    bid, _, _ = split("hex_maneuver", state)
    status, problem = post(client, *with_state(case, state))
    assert status == 422 and problem["errors"][0]["pointer"] == "/state/armies/0/owner"
    assert client.get(f"/v1/rulesets/hex_maneuver/boards/{bid}").status_code == 422


def test_an_unknown_board_is_its_own_problem_and_the_inline_retry_stores_it(
        client: TestClient) -> None:
    case = next(c for n, c in CASES if c["ruleset"] == "region_conquest" and "action" in c)
    state = copy.deepcopy(case["state"])
    state["regions"][0]["id"] = "never-seen-" + uuid.uuid4().hex[:8]  # a board new to all
    for region in state["regions"]:
        region["adjacent"] = [state["regions"][0]["id"] if a == case["state"]["regions"][0]["id"]
                              else a for a in region["adjacent"]]
    bid, board, lean = split("region_conquest", state)
    path, body = with_state(case, lean)
    status, problem = post(client, path, body)
    assert status == 422 and problem["type"] == BOARD_NOT_FOUND
    assert problem["board"] == bid and problem["errors"][0]["pointer"] == "/state/board"
    # The client's retry: the board inline, with its id, which stores it.
    status, answer = post(client, path, {**body, "state": {**lean, **board}})
    assert status == 200, answer
    assert post(client, path, body)[0] == 200


def test_an_id_that_is_not_its_boards_is_refused(client: TestClient) -> None:
    case = next(c for n, c in CASES if c["ruleset"] == "hex_maneuver" and "action" in c)
    bid, board, lean = split("hex_maneuver", case["state"])
    wrong = "sha256:" + "0" * 64
    r = client.put(f"/v1/rulesets/hex_maneuver/boards/{wrong}", content=orjson.dumps(board))
    assert r.status_code == 422 and "is not the id" in r.json()["errors"][0]["detail"]
    path, body = with_state(case, {**lean, **board, "board": wrong})
    status, problem = post(client, path, body)
    assert status == 422 and problem["errors"][0]["pointer"] == "/state/board"
    assert client.put(f"/v1/rulesets/hex_maneuver/boards/{bid}",
                      content=orjson.dumps(board)).status_code == 201
    assert client.get(f"/v1/rulesets/hex_maneuver/boards/{bid}").status_code == 200
    assert client.get(f"/v1/rulesets/hex_maneuver/boards/{wrong}").json()["type"] == \
        BOARD_NOT_FOUND


def test_an_evicted_board_is_recovered_by_the_retry() -> None:
    first = next(c for n, c in CASES if c["ruleset"] == "hex_maneuver" and "action" in c)
    bid, board, lean = split("hex_maneuver", first["state"])
    size = len(orjson.dumps(board, option=orjson.OPT_SORT_KEYS))
    # Room for about four such boards (one may take a quarter at most): eight more push
    # the first out, oldest first.
    small = create_app(Settings.from_env({"ARBITER_BOARD_CACHE_BYTES": str(4 * size + 8)}))
    with TestClient(small) as client:
        client.put(f"/v1/rulesets/hex_maneuver/boards/{bid}", content=orjson.dumps(board))
        path, body = with_state(first, lean)
        assert post(client, path, body)[0] == 200
        for i in range(8):
            other = copy.deepcopy(first["state"])
            other["hexes"][0]["province"] = f"e{i}"
            obid, oboard, _ = split("hex_maneuver", other)
            client.put(f"/v1/rulesets/hex_maneuver/boards/{obid}",
                       content=orjson.dumps(oboard))
        status, problem = post(client, path, body)
        assert status == 422 and problem["type"] == BOARD_NOT_FOUND
        status, _ = post(client, path, {**body, "state": {**lean, **board}})
        assert status == 200
        assert post(client, path, body)[0] == 200


@pytest.mark.redis
def test_a_board_stored_by_one_replica_serves_another_through_redis(env: dict[str, str]) -> None:
    case = next(c for n, c in CASES if c["ruleset"] == "territory_conquest" and "action" in c)
    bid, board, lean = split("territory_conquest", case["state"])
    path, body = with_state(case, lean)
    with TestClient(create_app(Settings.from_env(env))) as one:
        assert one.put(f"/v1/rulesets/territory_conquest/boards/{bid}",
                       content=orjson.dumps(board)).status_code == 201
        asyncio.run(asyncio.sleep(0.2))  # the background write
    with TestClient(create_app(Settings.from_env(env))) as other:
        status, answer = post(other, path, body)
        assert status == 200, answer


@pytest.mark.redis
def test_a_board_from_another_replica_is_held_to_this_replicas_cell_limit(
        env: dict[str, str]) -> None:
    """A board kept by a replica with a higher ``ARBITER_MAX_CELLS`` reaches this one
    through Redis; here it is counted against this replica's limit, by reference and
    inline alike (an inline request is parsed without a board it knows)."""
    case = next(c for n, c in CASES if c["ruleset"] == "hex_maneuver" and "action" in c)
    bid, board, lean = split("hex_maneuver", case["state"])
    cells = {**env, "ARBITER_MAX_CELLS": str(len(board["hexes"]) - 1)}
    with TestClient(create_app(Settings.from_env(env))) as one:
        assert one.put(f"/v1/rulesets/hex_maneuver/boards/{bid}",
                       content=orjson.dumps(board)).status_code == 201
        asyncio.run(asyncio.sleep(0.2))  # the background write
    with TestClient(create_app(Settings.from_env(cells))) as other:
        for state in (lean, case["state"]):  # fetched from Redis, then known here
            status, problem = post(other, *with_state(case, state))
            assert status == 413, problem
            assert problem["errors"][0]["pointer"] == "/state/hexes"


@pytest.fixture
def env() -> Iterator[dict[str, str]]:
    """The settings of replicas sharing the local Redis under a prefix of their own (its
    keys deleted afterwards); skipped without Redis, except in CI."""
    url = "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379") if not _in_ci() else pytest.fail("no Redis")
    prefix = f"test-boards-{uuid.uuid4().hex[:8]}:"
    yield {"ARBITER_REDIS_URL": url, "ARBITER_REDIS_KEY_PREFIX": prefix}
    client = redis.Redis.from_url(url)
    for key in client.scan_iter(match=prefix + "*"):
        client.delete(key)


REGISTRY = builtin_registry()


def _in_ci() -> bool:
    import os

    return os.environ.get("CI") == "true"


def test_lean_answers_give_back_the_state_an_inline_answer_would(client: TestClient) -> None:
    for name, case in CASES:
        if "action" not in case or not case["expect"].get("legal"):
            continue
        path, body = with_state(case, case["state"])
        whole = post(client, path, body)[1]
        patched = post(client, path, {**body, "return": "patch"})[1]
        omitted = post(client, path, {**body, "return": "omit"})[1]
        assert patched["state"] is None and omitted["state"] is None, name
        if whole["state"] is None:  # legal, nothing applied yet: a turn awaiting decisions
            assert whole["applied"] is False and patched["patch"] is None, name
            continue
        # The patch leaves out defaults the state as sent left out and the action kept:
        # read as the service reads a state, the two are one.
        ruleset = REGISTRY.get(path.split("/")[3])
        assert ruleset is not None
        read = ruleset.state_model.model_validate
        assert read(apply(case["state"], patched["patch"])) == read(whole["state"]), name
        assert patched["state_hash"] == omitted["state_hash"] == whole["state_hash"], name


def test_a_sequence_of_patches_applies_in_order(client: TestClient) -> None:
    # The rulebook's worked example: the second conquest starts from the first's result.
    first = next(c for n, c in CASES if n.endswith("worked_example_1_lost_tribe_hills"))
    second = next(c for n, c in CASES if n.endswith("worked_example_2_elves_farmland"))
    body = {"state": first["state"], "actions": [first["action"], second["action"]],
            "mode": "sequence"}
    whole = post(client, "/v1/rulesets/region_conquest/validate-batch", body)[1]["outcomes"]
    patched = post(client, "/v1/rulesets/region_conquest/validate-batch",
                   {**body, "return": "patch"})[1]["outcomes"]
    assert [o["legal"] for o in whole] == [True, True]
    state = first["state"]
    read = REGISTRY.get("region_conquest").state_model.model_validate  # type: ignore[union-attr]
    for step, outcome in zip(whole, patched, strict=True):
        state = apply(state, outcome["patch"])  # (the client's copy, defaults left out)
        assert read(state) == read(step["state"])


def test_graphql_takes_a_board_by_reference_and_sends_it_back_so(client: TestClient) -> None:
    case = next(c for n, c in CASES if c["ruleset"] == "region_conquest" and "action" in c
                and c["expect"].get("legal"))
    bid, board, lean = split("region_conquest", case["state"])
    client.put(f"/v1/rulesets/region_conquest/boards/{bid}", content=orjson.dumps(board))
    from arbiter.graphql.types import to_graphql
    from arbiter.rulesets.region_conquest.models import RegionConquestAction

    query = ("query($state: RegionConquestState!, $action: RegionConquestActionInput!) { "
             "regionConquest(state: $state) { validate(action: $action) { legal state "
             "stateHash } } }")
    action = to_graphql(RegionConquestAction, case["action"])
    by_reference = client.post("/graphql", json={"query": query, "variables": {
        "state": lean, "action": action}}).json()["data"]["regionConquest"]["validate"]
    inline = client.post("/graphql", json={"query": query, "variables": {
        "state": case["state"], "action": action}}).json()["data"]["regionConquest"]["validate"]
    assert by_reference["stateHash"] == inline["stateHash"]
    if by_reference["state"].get("board") == bid:
        # The id is the board's as the client sent it (the answer's board, filled with
        # defaults, would hash otherwise).
        assert by_reference["state"] == {**split("region_conquest", inline["state"])[2],
                                         "board": bid}
    else:
        assert by_reference["state"] == inline["state"]


def _graphql_validate(client: TestClient, ruleset_id: str, state: Any,
                      action: dict[str, Any]) -> bytes:
    from arbiter.graphql.types import to_graphql

    ruleset = REGISTRY.get(ruleset_id)
    assert ruleset is not None
    camel = "".join(p.title() for p in ruleset_id.split("_"))
    field = camel[:1].lower() + camel[1:]
    query = (f"query($state: {camel}State!, $action: {camel}ActionInput!) {{ {field}(state: "
             "$state) { validate(action: $action) { legal state stateHash violations { code "
             "message } events { kind message } } } }")
    return client.post("/graphql", json={"query": query, "variables": {
        "state": state, "action": to_graphql(ruleset.action_model, action)}}).content


GRAPHQL_CASES = [(n, c) for n, c in CASES if "action" in c
                 and (r := REGISTRY.get(c["ruleset"])) is not None and r.boards is not None]


@pytest.mark.parametrize(("name", "case"), GRAPHQL_CASES, ids=[n for n, _ in GRAPHQL_CASES])
def test_graphql_keeps_a_board_sent_inline_and_answers_the_same_once_known(
        client: TestClient, keeps_nothing: TestClient, name: str, case: dict[str, Any]) -> None:
    answers = [_graphql_validate(c, case["ruleset"], case["state"], case["action"])
               for c in (client, client, keeps_nothing)]
    assert len(set(answers)) == 1, (name, answers[0][:300])
    bid, _, _ = split(case["ruleset"], case["state"])
    assert client.get(f"/v1/rulesets/{case['ruleset']}/boards/{bid}").status_code == 200


def test_graphql_refuses_a_state_as_before_once_its_board_is_known(
        client: TestClient, keeps_nothing: TestClient) -> None:
    case = next(c for n, c in CASES if c["ruleset"] == "hex_maneuver" and "action" in c)
    bid, board, _ = split("hex_maneuver", case["state"])
    client.put(f"/v1/rulesets/hex_maneuver/boards/{bid}", content=orjson.dumps(board))
    broken = copy.deepcopy(case["state"])
    broken["armies"][0]["units"] = {"cavalrymen": -1}
    answers = [_graphql_validate(c, "hex_maneuver", broken, case["action"])
               for c in (client, keeps_nothing)]
    assert answers[0] == answers[1]
    assert b"/state/armies/0/units/cavalrymen" in answers[0]


@pytest.mark.redis
def test_a_board_graphql_was_sent_inline_reaches_other_replicas_through_redis(
        env: dict[str, str]) -> None:
    """GraphQL keeps an inline board as REST does, and sends it to Redis from the service's
    loop (which owns the client), for every replica."""
    case = next(c for n, c in GRAPHQL_CASES if c["ruleset"] == "region_conquest")
    state = case["state"]
    _, _, lean = split("region_conquest", state)
    with TestClient(create_app(Settings.from_env(env))) as one:
        assert b'"errors"' not in _graphql_validate(one, "region_conquest", state,
                                                    case["action"])
        asyncio.run(asyncio.sleep(0.3))  # the background write
    with TestClient(create_app(Settings.from_env(env))) as other:
        status, answer = post(other, *with_state(case, lean))
        assert status == 200, answer

"""A phased_orders turn as a game master or a game server calls it, over a real server
(REST and GraphQL) and the CLI (issue 30): a turn waiting for decisions is its own outcome
(``status: "pending"``, legal, nothing applied), never a list of violations; every
question knowable where it stops is asked at once, under ids a client can build, and an
answer no question takes is refused at its id."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from arbiter.graphql.types import to_graphql
from arbiter.rulesets.phased_orders import RULESET

CASES = Path(__file__).resolve().parents[1] / "cases" / "phased_orders"
# The source's example: Red's flying cavalry and Green's archers, neither allied nor at
# war, end their paths on (4,0) in 3e: an emergency communique, a question to each.
RED_GREEN = json.loads((CASES / "communique_red_and_green_pending.json").read_text())
STATE: dict[str, Any] = RED_GREEN["state"]
ORDERS: list[dict[str, Any]] = RED_GREEN["action"]["orders"]
BOTH_HALT = [{"id": "communique:4,0:red", "choice": "halt"},
             {"id": "communique:4,0:green", "choice": "halt"}]

RESOLVE_GQL = """query($state: PhasedOrdersState!, $orders: [PhasedOrdersResolveOrderInput!])
  { phasedOrders(state: $state) { resolve(orders: $orders) { status resolved legal
    violations { code } pendingDecisions { id kind player question options { choice } } } } }"""


def resolve(http: httpx.Client, **more: Any) -> dict[str, Any]:
    answer = http.post("/v1/rulesets/phased_orders/resolve",
                       json={"state": STATE, "orders": ORDERS, **more})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_turn_waiting_for_decisions_is_pending_not_illegal(http: httpx.Client) -> None:
    turn = resolve(http)
    assert (turn["status"], turn["legal"], turn["resolved"]) == ("pending", True, False)
    assert turn["violations"] == [] and turn["state"] is None
    asked = turn["pending_decisions"]
    assert [d["id"] for d in asked] == ["communique:4,0:red", "communique:4,0:green"]
    assert all(d["rule"] == "phased_orders/communique.1" and "beside it or proceed" in
               d["question"] for d in asked)


def test_the_same_turn_answered_is_resolved(http: httpx.Client) -> None:
    turn = resolve(http, decisions=BOTH_HALT)
    assert (turn["status"], turn["legal"], turn["resolved"]) == ("resolved", True, True)
    assert turn["pending_decisions"] == [] and turn["state"] is not None


def test_an_answer_that_is_not_an_option_is_illegal(http: httpx.Client) -> None:
    turn = resolve(http, decisions=[{"id": "communique:4,0:red", "choice": "attack"}])
    assert (turn["status"], turn["legal"], turn["resolved"]) == ("illegal", False, False)
    assert [v["code"] for v in turn["violations"]] == ["decision_not_an_option"]
    assert [d["id"] for d in turn["pending_decisions"]] == ["communique:4,0:green"]


def test_validate_tells_a_pending_turn_from_an_illegal_one(http: httpx.Client) -> None:
    """validate's Outcome is every ruleset's: a pending turn is legal, not applied, with
    derived.status pending - an illegal one is legal: false."""
    def validate(decisions: list[dict[str, Any]]) -> dict[str, Any]:
        answer = http.post("/v1/rulesets/phased_orders/validate", json={
            "state": STATE, "action": {"type": "resolve", "orders": ORDERS,
                                       "decisions": decisions}})
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        return body

    pending = validate([])
    assert (pending["legal"], pending["applied"], pending["violations"]) == (True, False, [])
    assert pending["derived"]["status"] == "pending"
    assert len(pending["derived"]["pending_decisions"]) == 2
    illegal = validate([{"id": "communique:4,0:red", "choice": "attack"}])
    assert (illegal["legal"], illegal["derived"]["status"]) == (False, "illegal")
    resolved = validate(BOTH_HALT)
    assert (resolved["legal"], resolved["applied"], resolved["derived"]["status"]) == (
        True, True, "resolved")


def test_graphql_answers_the_same_status(http: httpx.Client) -> None:
    request = to_graphql(RULESET.queries["resolve"].request, {"state": STATE, "orders": ORDERS})
    answer = http.post("/graphql", json={"query": RESOLVE_GQL, "variables": {
        "state": STATE, "orders": request["orders"]}})
    assert answer.status_code == 200, answer.text
    turn = answer.json()["data"]["phasedOrders"]["resolve"]
    assert (turn["status"], turn["legal"], turn["resolved"], turn["violations"]) == (
        "pending", True, False, [])
    assert [d["player"] for d in turn["pendingDecisions"]] == ["red", "green"]


def test_the_cli_exits_3_for_a_pending_turn(tmp_path: Path) -> None:
    (tmp_path / "state.json").write_text(json.dumps(STATE))
    (tmp_path / "action.json").write_text(json.dumps({"type": "resolve", "orders": ORDERS}))
    done = subprocess.run([sys.executable, "-m", "arbiter", "check", "phased_orders",
                           "state.json", "action.json", "--format", "text"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "pending: 2 decisions to answer, nothing applied: 0 violations, 0 events"
    assert lines[1].startswith("  decision communique:4,0:red (phased_orders/communique.1)")
    assert lines[1].endswith('[{"choice":"halt"} | {"choice":"proceed"}]')
    (tmp_path / "action.json").write_text(json.dumps(
        {"type": "resolve", "orders": ORDERS, "decisions": BOTH_HALT}))
    done = subprocess.run([sys.executable, "-m", "arbiter", "check", "phased_orders",
                           "state.json", "action.json", "--format", "text"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("legal:"), done.stdout


# The closing note's two-round turn: the communique on (4,0) in 3e, and Red's b1 and b2
# meeting on (1,1), an ejection in phase 11 whatever the communique's answers.
TWO_ROUNDS = json.loads((CASES / "decisions_knowable_now_are_asked_at_once.json").read_text())


def test_every_question_knowable_now_is_asked_in_one_round(http: httpx.Client) -> None:
    turn = http.post("/v1/rulesets/phased_orders/resolve", json={
        "state": TWO_ROUNDS["state"], "orders": TWO_ROUNDS["action"]["orders"]}).json()
    assert turn["status"] == "pending" and turn["stopped_at"] == {"phase": 0, "subphase": "3e"}
    assert [(d["id"], d["phase"]) for d in turn["pending_decisions"]] == [
        ("communique:4,0:red", 0), ("communique:4,0:green", 0), ("ejection:1,1:1", 11)]
    communique = turn["pending_decisions"][0]
    assert communique["players"] == ["red", "green"] and communique["unit"] is None


def test_a_game_master_resolves_the_two_round_turn_in_one(http: httpx.Client) -> None:
    """The fallback answers the communique (the original orders: both proceed); the
    ejection's id is built from the orders, not copied from a pending answer."""
    turn = http.post("/v1/rulesets/phased_orders/resolve", json={
        "state": TWO_ROUNDS["state"], "orders": TWO_ROUNDS["action"]["orders"],
        "unanswered_communiques": "follow_orders",
        "decisions": [{"id": "ejection:1,1:1", "choice": "eject", "unit": "b2"}]}).json()
    assert (turn["status"], turn["resolved"]) == ("resolved", True)
    where = {u["id"]: u["hex"] for u in turn["state"]["units"]}
    assert where["b1"] == {"q": 1, "r": 1} and where["b2"] == {"q": 2, "r": 1}


def test_an_answer_no_question_takes_is_a_422_at_its_id(http: httpx.Client) -> None:
    for typo in ("communique:4,0:rde", "communique:red-cavalry", "ejection:9,9:1"):
        answer = http.post("/v1/rulesets/phased_orders/validate", json={
            "state": STATE, "action": {"type": "resolve", "orders": ORDERS, "decisions": [
                {"id": typo, "choice": "halt"}]}})
        assert answer.status_code == 422, answer.text
        assert [e["pointer"] for e in answer.json()["errors"]] == ["/action/decisions/0/id"]


# -- pointers into the body of the route, the same over GraphQL; one trace shape ----------

OWN = {"state": STATE, "orders": [{**ORDERS[0], "player": "green"}]}  # green orders red's
RESOLVE_ONLY_STATUS = """query($state: PhasedOrdersState!,
  $orders: [PhasedOrdersResolveOrderInput!])
  { phasedOrders(state: $state) { resolve(orders: $orders) { status } } }"""


def refused(answer: httpx.Response) -> list[str]:
    assert answer.status_code == 422, answer.text
    return [e["pointer"] for e in answer.json()["errors"]]


def test_resolve_points_into_its_own_body(http: httpx.Client) -> None:
    assert refused(http.post("/v1/rulesets/phased_orders/resolve", json=OWN)) == [
        "/orders/0/unit"]
    assert refused(http.post("/v1/rulesets/phased_orders/validate", json={
        "state": STATE, "action": {"type": "resolve", "orders": OWN["orders"]}})) == [
        "/action/orders/0/unit"]
    arguments = to_graphql(RULESET.queries["resolve"].request, OWN)
    body = http.post("/graphql", json={"query": RESOLVE_ONLY_STATUS, "variables": {
        "state": STATE, "orders": arguments["orders"]}}).json()
    [problem] = body["errors"][0]["extensions"]["problems"]
    assert problem["pointer"] == "/orders/0/unit"
    assert problem["path"] == ["resolve", "orders", 0, "move", "unit"]


def test_an_order_without_its_player_is_pointed_at_without_the_tag(
        http: httpx.Client) -> None:
    order = {k: v for k, v in ORDERS[0].items() if k != "player"}
    assert refused(http.post("/v1/rulesets/phased_orders/resolve", json={
        "state": STATE, "orders": [order]})) == ["/orders/0/player"]
    assert refused(http.post("/v1/rulesets/phased_orders/validate", json={
        "state": STATE, "action": {"type": "resolve", "orders": [order]}})) == [
        "/action/orders/0/player"]
    body = http.post("/graphql", json={"query": RESOLVE_ONLY_STATUS, "variables": {
        "state": STATE, "orders": [{"move": {"unit": order["unit"], "path": order["path"]}}]}}
    ).json()
    [problem] = body["errors"][0]["extensions"]["problems"]
    assert (problem["pointer"], problem["path"]) == (
        "/orders/0/player", ["resolve", "orders", 0, "move", "player"])


def test_every_tagged_union_of_the_contract_is_skipped_in_pointers() -> None:
    from arbiter.service.problems import TAG_KEYS

    document = (Path(__file__).resolve().parents[2] / "schema" / "openapi.json").read_text()
    assert set(re.findall(r'"propertyName": "(\w+)"', document)) <= set(TAG_KEYS)


def test_resolve_and_validate_answer_the_trace_in_one_shape(http: httpx.Client) -> None:
    turn = resolve(http, decisions=BOTH_HALT)
    outcome = http.post("/v1/rulesets/phased_orders/validate", json={
        "state": STATE, "action": {"type": "resolve", "orders": ORDERS,
                                   "decisions": BOTH_HALT}}).json()
    assert turn["events"] == outcome["events"] and turn["events"]
    assert turn["phases"] == outcome["derived"]["phases"]
    # the communique (phase 0) counts in the movement it interrupts: one run of phase 10
    assert [run["phase"] for run in turn["phases"]].count(10) == 1
    assert any(e["params"]["phase"] == 0 for e in turn["events"])

"""The REST contract, in process: verdicts, problems with pointers, limits, metadata."""

from __future__ import annotations

import copy

import pytest
from starlette.testclient import TestClient

from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE

BODY = {"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION}
URL = "/v1/rulesets/hex_maneuver"


def test_legal_action_returns_the_new_state_and_its_hash(client: TestClient) -> None:
    r = client.post(f"{URL}/validate", json=BODY)
    assert r.status_code == 200
    out = r.json()
    assert out["legal"] and out["applied"] and out["violations"] == []
    assert out["ruleset"] == "hex_maneuver" and out["ruleset_version"] == "1.0.0"
    assert len(out["state_hash"]) == 64 and out["reversible"] is True


def test_illegal_action_is_a_200_verdict_with_every_violation(client: TestClient) -> None:
    action = {**EXAMPLE_ACTION, "player": "blue",
              "path": [{"q": 1, "r": -1}, {"q": 2, "r": -2}, {"q": 2, "r": -1}, {"q": 2, "r": 0}]}
    r = client.post(f"{URL}/validate", json={"state": EXAMPLE_STATE, "action": action})
    assert r.status_code == 200
    out = r.json()
    assert not out["legal"] and out["state"] is None
    codes = sorted(v["code"] for v in out["violations"])
    assert codes == ["enemy_at_destination", "not_your_army", "over_movement_points"]
    for v in out["violations"]:
        assert v["rule"].startswith("hex_maneuver/") and v["message"] and "params" in v


def test_malformed_body_names_each_bad_field(client: TestClient) -> None:
    state = copy.deepcopy(EXAMPLE_STATE)
    state["armies"][0]["hex"] = {"q": "north"}
    r = client.post(f"{URL}/validate", json={"state": state, "action": {"type": "maneuver"}})
    assert r.status_code == 422
    assert r.headers["content-type"] == "application/problem+json"
    pointers = {e["pointer"] for e in r.json()["errors"]}
    assert {"/state/armies/0/hex/q", "/state/armies/0/hex/r", "/action/player",
            "/action/army"} <= pointers


@pytest.mark.parametrize("raw", [b"", b"{", b"[]", b"null", b'{"state": 1}', b"\xff\xfe",
                                 b'{"state": {"hexes": NaN}}', b"9" * 5000, b"[" * 5000])
def test_garbage_gets_a_problem_never_a_5xx(client: TestClient, raw: bytes) -> None:
    r = client.post(f"{URL}/validate", content=raw,
                    headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["status"] == 422


def test_semantic_problems_are_422_with_pointers(client: TestClient) -> None:
    state = copy.deepcopy(EXAMPLE_STATE)
    state["armies"].append(dict(state["armies"][0]))
    r = client.post(f"{URL}/validate", json={"state": state, "action": EXAMPLE_ACTION})
    assert r.status_code == 422
    assert [e["pointer"] for e in r.json()["errors"]] == ["/state/armies/3/id"]


def test_unknown_ruleset_and_unknown_query_are_404_problems(client: TestClient) -> None:
    r = client.post("/v1/rulesets/chess/validate", json=BODY)
    assert r.status_code == 404 and r.json()["type"].endswith("not-found")
    r = client.post(f"{URL}/conquest-cost", json=BODY)
    assert r.status_code == 404 and "reachable" in r.json()["detail"]
    assert client.get("/v1/rulesets/chess").status_code == 404
    assert client.get("/nowhere").status_code == 404


def test_oversize_body_is_413(client: TestClient) -> None:
    r = client.post(f"{URL}/validate", content=b"x" * (2 * 1024 * 1024))
    assert r.status_code == 413
    assert r.headers["content-type"] == "application/problem+json"


def test_rulesets_list_versions_and_rule_ids(client: TestClient) -> None:
    listed = {r["id"]: r for r in client.get("/v1/rulesets").json()["rulesets"]}
    hm = listed["hex_maneuver"]
    assert hm["version"] == "1.0.0" and "hex_maneuver/maneuver.2" in hm["rules"]
    detail = client.get(URL).json()
    codes = {c["code"]: c for c in detail["violation_codes"]}
    assert codes["enemy_in_path"]["rule"] == "hex_maneuver/maneuver.2"
    assert "{hex}" in codes["enemy_in_path"]["template"]
    assert detail["options"]["properties"]["march"]["default"] is True
    assert detail["catalogues"]["unit_types"]["galley"]["movement"] == 5
    schema = client.get(detail["schemas"]["state"])
    assert schema.status_code == 200 and schema.json()["title"] == "HexManeuverState"


def test_reachable_answers_costs_and_paths(client: TestClient) -> None:
    r = client.post(f"{URL}/reachable", json={"state": EXAMPLE_STATE, "army": "red-1"})
    assert r.status_code == 200
    found = {(d["hex"]["q"], d["hex"]["r"]): d for d in r.json()["destinations"]}
    assert found[(0, 0)]["cost"] == 0 and found[(0, 0)]["path"] == []
    assert found[(0, -1)]["cost"] == 2  # mountains
    assert (2, 0) not in found  # blue's army


def test_reachable_unknown_army_points_at_it(client: TestClient) -> None:
    r = client.post(f"{URL}/reachable", json={"state": EXAMPLE_STATE, "army": "nope"})
    assert r.status_code == 422 and r.json()["errors"][0]["pointer"] == "/army"


def test_validate_batch_each_and_sequence(client: TestClient) -> None:
    again = {**EXAMPLE_ACTION, "units": None, "army": "red-1", "path": []}
    body = {"state": EXAMPLE_STATE, "actions": [EXAMPLE_ACTION, again]}
    each = client.post(f"{URL}/validate-batch", json=body).json()["outcomes"]
    assert [o["legal"] for o in each] == [True, True]
    seq = client.post(f"{URL}/validate-batch", json={**body, "mode": "sequence"}).json()
    # After the split, red-1 is still undepleted, so staying put is legal again.
    assert [o["legal"] for o in seq["outcomes"]] == [True, True]
    moved_twice = {**EXAMPLE_ACTION, "units": None, "army": "red-1.1", "path": []}
    seq = client.post(f"{URL}/validate-batch",
                      json={**body, "actions": [EXAMPLE_ACTION, moved_twice],
                            "mode": "sequence"}).json()["outcomes"]
    assert [v["code"] for v in seq[1]["violations"]] == ["army_depleted"]


def test_batch_problem_points_at_the_action(client: TestClient) -> None:
    bad = {**EXAMPLE_ACTION, "army": "ghost"}
    r = client.post(f"{URL}/validate-batch",
                    json={"state": EXAMPLE_STATE, "actions": [EXAMPLE_ACTION, bad]})
    assert r.status_code == 422
    assert [e["pointer"] for e in r.json()["errors"]] == ["/actions/1/army"]


def test_advisory_mode_returns_warnings_beside_the_state(client: TestClient) -> None:
    action = {**EXAMPLE_ACTION, "path": [{"q": 1, "r": -1}, {"q": 1, "r": -2},
                                         {"q": 0, "r": -2}, {"q": -1, "r": -1}]}
    out = client.post(f"{URL}/validate", json={"state": EXAMPLE_STATE, "action": action,
                                               "mode": "advisory"}).json()
    assert not out["legal"] and out["applied"] and out["state"] is not None
    assert [v["severity"] for v in out["violations"]] == ["warning"]


def test_input_is_never_mutated(client: TestClient) -> None:
    before = copy.deepcopy(BODY)
    client.post(f"{URL}/validate", json=BODY)
    assert before == BODY


def test_health_ready_metrics_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").status_code == 200
    client.post(f"{URL}/validate", json=BODY)
    metrics = client.get("/metrics").text
    assert 'arbiter_requests_total{route="validate",ruleset="hex_maneuver",status="200"}' \
        in metrics
    assert "arbiter_request_seconds_bucket" in metrics
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    op = doc["paths"][f"{URL}/validate"]["post"]
    assert op["requestBody"]["content"]["application/json"]["example"]["action"]["type"] \
        == "maneuver"
    assert set(op["responses"]) >= {"200", "404", "413", "422"}


def test_security_headers_on_every_response(client: TestClient) -> None:
    for r in (client.get("/healthz"), client.post("/v1/rulesets/x/validate", json={})):
        assert r.headers["x-content-type-options"] == "nosniff"

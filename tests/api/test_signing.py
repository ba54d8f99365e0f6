"""Signed states (service/signing.py): a game starts signed at new-game with a seed
the service draws; a state edited, truncated, forged or signed with a retired key is
refused with a state-signature problem at /state; rotation keeps a listed key's states
valid; boards by reference, patches and sequences keep their signatures; a signed game's
draws come from its seed alone; GraphQL alike; no secret ever shows."""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

from arbiter.engine.boards import board_id
from arbiter.engine.canonical import Canonical
from arbiter.http.app import create_app
from arbiter.http.problems import STATE_SIGNATURE
from arbiter.service.problems import SignatureRefused
from arbiter.service.signing import Signer, signing_digest
from arbiter.settings import Settings, SettingsError
from golden import load_cases
from service.test_patch import apply
from test_golden_engine import REGISTRY

OLD = "S3cret-old-" + "o" * 32
NEW = "S3cret-new-" + "n" * 32
OTHER = "S3cret-other-" + "x" * 32
# The game server's key: new-game signs only for an issuer (service/issuing.py).
ISSUER = "game-server-" + "g" * 32
SECRETS = (OLD, NEW, OTHER)
HM = "/v1/rulesets/hex_maneuver"
RC = "/v1/rulesets/region_conquest"
CASES = Path(__file__).resolve().parents[1] / "cases"

HEXES = [{"q": q, "r": 0, "terrain": "plains", "province": "home"} for q in range(4)]
SETUP = {"hexes": HEXES, "players": [{"id": "red"}, {"id": "blue"}],
         "armies": [{"id": "a1", "owner": "red", "hex": {"q": 0, "r": 0},
                     "units": {"swordsmen": 2}},
                    {"id": "b1", "owner": "blue", "hex": {"q": 3, "r": 0},
                     "units": {"swordsmen": 1}}],
         "rng": 0}


def step(to: int, army: str = "a1", player: str = "red") -> dict[str, Any]:
    return {"type": "maneuver", "player": player, "army": army,
            "path": [{"q": to, "r": 0}]}


@pytest.fixture(scope="module")
def service() -> Iterator[Any]:
    clients: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        client = TestClient(create_app(Settings(**{"issuer_keys": ISSUER, **settings})))
        clients.append(client.__enter__())
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture(scope="module")
def signing(service: Any) -> TestClient:
    """Keys new then old, signatures required."""
    client: TestClient = service(state_keys=f"new:{NEW},old:{OLD}", require_signed_states=True)
    return client


def post(client: TestClient, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    r = client.post(path, content=orjson.dumps(body),
                    headers={"content-type": "application/json", "x-api-key": ISSUER})
    for secret in SECRETS:
        assert secret not in r.text
    return r.status_code, r.json()


def new_game(client: TestClient, state: dict[str, Any] | None = None,
             path: str = HM) -> dict[str, Any]:
    status, game = post(client, f"{path}/new-game", {"state": state or SETUP})
    assert status == 200, game
    return game


def refused(status: int, body: Any, pointer: str = "/state") -> str:
    assert status == 422, body
    assert body["type"] == STATE_SIGNATURE, body
    assert [e["pointer"] for e in body["errors"]] == [pointer]
    detail: str = body["detail"]
    return detail


# --- new-game ------------------------------------------------------------------------------

def test_new_game_signs_a_first_state_with_a_seed_the_service_draws(signing: TestClient) -> None:
    one, two = new_game(signing), new_game(signing)
    assert one["signature"]["key"] == "new" and len(one["signature"]["mac"]) == 64
    # The client sent 0; the service drew 64 bits, a new seed for each game.
    assert one["state"]["rng"] != 0 and one["state"]["rng"] != two["state"]["rng"]
    assert [a["units"] for a in one["state"]["armies"]] == [{"swordsmen": 2}, {"swordsmen": 1}]
    assert [(h["q"], h["terrain"]) for h in one["state"]["hexes"]] == [
        (h["q"], h["terrain"]) for h in HEXES]
    assert one["ruleset"] == "hex_maneuver" and len(one["state_hash"]) == 64
    # Table mode (no seed) stays in table mode.
    table = new_game(signing, {k: v for k, v in SETUP.items() if k != "rng"})
    assert table["state"]["rng"] is None and table["signature"] is not None


def test_new_game_checks_the_state_as_every_state_is(signing: TestClient) -> None:
    bad = copy.deepcopy(SETUP)
    bad["armies"][0]["hex"] = {"q": 9, "r": 9}
    status, problem = post(signing, f"{HM}/new-game", {"state": bad})
    assert status == 422 and problem["errors"][0]["pointer"].startswith("/state/armies/0")
    status, problem = post(signing, f"{HM}/new-game", {"state": SETUP, "signature": None})
    assert status == 422  # new-game takes no signature


def test_new_game_without_keys_answers_an_unsigned_first_state(service: Any) -> None:
    game = new_game(service())
    assert game["signature"] is None and game["state"]["rng"] != 0


# --- the chain of signed states --------------------------------------------------------------

def test_a_signed_game_goes_on_and_each_state_comes_back_signed(signing: TestClient) -> None:
    game = new_game(signing)
    status, first = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"], "action": step(1)})
    assert status == 200 and first["legal"] and first["signature"]["key"] == "new"
    status, second = post(signing, f"{HM}/validate", {
        "state": first["state"], "signature": first["signature"],
        "action": step(2, "b1", "blue")})
    assert status == 200 and second["legal"] and second["signature"] != first["signature"]


def test_an_unsigned_state_is_refused_when_signatures_are_required(signing: TestClient) -> None:
    status, body = post(signing, f"{HM}/validate", {"state": SETUP, "action": step(1)})
    assert "signed states only" in refused(status, body)
    status, body = post(signing, f"{HM}/reachable", {"state": SETUP, "army": "a1"})
    refused(status, body)
    status, body = post(signing, f"{HM}/validate-batch", {"state": SETUP, "actions": [step(1)]})
    refused(status, body)


@pytest.mark.parametrize("edit", ["units", "rng", "truncated", "added", "board"])
def test_an_edited_or_truncated_state_is_refused(signing: TestClient, edit: str) -> None:
    """The seals of a state's hidden fields are bound to the rest of it, so an edit is
    refused at the first of them (tests/api/test_sealing.py has more); another game's
    seed in its place, where the rest is the same, by the signature."""
    game = new_game(signing)
    state = copy.deepcopy(game["state"])
    if edit == "rng":
        state["rng"] = new_game(signing)["state"]["rng"]
        status, body = post(signing, f"{HM}/validate", {
            "state": state, "signature": game["signature"], "action": step(1)})
        assert "not the one its signature was made for" in refused(status, body)
        return
    if edit == "units":
        state["armies"][0]["units"]["swordsmen"] = 10_000
    elif edit == "truncated":
        state["armies"] = state["armies"][:1]
    elif edit == "added":
        state["structures"] = [{"id": "c1", "kind": "city", "owner": "red",
                                "hex": {"q": 1, "r": 0}}]
    else:
        state["hexes"][3]["terrain"] = "mountains"
    status, body = post(signing, f"{HM}/validate", {
        "state": state, "signature": game["signature"], "action": step(1)})
    assert "does not open here" in refused(status, body, "/state/tiles")


def test_a_forged_or_foreign_signature_is_refused(signing: TestClient, service: Any) -> None:
    game = new_game(signing)
    forged = {"key": "new", "mac": "0" * 64}
    status, body = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": forged, "action": step(1)})
    refused(status, body)
    # Another service's key, even under a listed id, and an id not listed.
    foreign = new_game(service(state_keys=f"new:{OTHER}"))
    status, body = post(signing, f"{HM}/validate", {
        "state": foreign["state"], "signature": foreign["signature"], "action": step(1)})
    refused(status, body, "/state/tiles")  # its seals do not open with this "new"
    stranger = new_game(service(state_keys=f"elsewhere:{OTHER}"))
    status, body = post(signing, f"{HM}/validate", {
        "state": stranger["state"], "signature": stranger["signature"], "action": step(1)})
    assert "'elsewhere'" in refused(status, body, "/state/tiles")
    # Another game's signature on this game's state.
    other = new_game(signing)
    status, body = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": other["signature"], "action": step(1)})
    refused(status, body)
    # A signature that is no signature is malformed.
    status, body = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": {"key": "new", "mac": "zz"}, "action": step(1)})
    assert status == 422 and body["errors"][0]["pointer"] == "/signature/mac"


def test_another_rulesets_signature_does_not_hold() -> None:
    """The ruleset is inside what is signed: the digest of one ruleset's state, signed, is
    refused for the same digest asked under another ruleset."""
    signer = Signer((("new", NEW.encode()),))
    hex_maneuver, region_conquest = REGISTRY.get("hex_maneuver"), REGISTRY.get("region_conquest")
    assert hex_maneuver is not None and region_conquest is not None
    canonical = Canonical({"turn": b"1"})  # the same digest under either ruleset
    signed = signer.sign(hex_maneuver, canonical)
    signer.verify(hex_maneuver, signed, canonical)
    with pytest.raises(SignatureRefused):
        signer.verify(region_conquest, signed, canonical)


def test_rotation_keeps_listed_keys_and_retires_dropped_ones(service: Any) -> None:
    old_only = service(state_keys=f"old:{OLD}", require_signed_states=True)
    game = new_game(old_only)
    assert game["signature"]["key"] == "old"
    body = {"state": game["state"], "signature": game["signature"], "action": step(1)}
    # Rotated: a new key first, the old one still listed. Old states are accepted and
    # the next state is signed with the new key.
    rotated = service(state_keys=f"new:{NEW},old:{OLD}", require_signed_states=True)
    status, outcome = post(rotated, f"{HM}/validate", body)
    assert status == 200 and outcome["signature"]["key"] == "new"
    # Retired: the old key left the list, its states are refused; the new one's go on.
    retired = service(state_keys=f"new:{NEW}", require_signed_states=True)
    status, problem = post(retired, f"{HM}/validate", body)
    assert "'old'" in refused(status, problem, "/state/tiles")  # sealed with it too
    status, later = post(retired, f"{HM}/validate", {
        "state": outcome["state"], "signature": outcome["signature"],
        "action": step(2, "b1", "blue")})
    assert status == 200 and later["signature"]["key"] == "new"


def test_signatures_are_optional_unless_required(service: Any) -> None:
    keyed = service(state_keys=f"new:{NEW}")
    status, outcome = post(keyed, f"{HM}/validate", {"state": SETUP, "action": step(1)})
    # Unsigned in, unsigned out: no state is signed that the service did not issue.
    assert status == 200 and outcome["legal"] and outcome["signature"] is None
    game = new_game(keyed)
    status, body = post(keyed, f"{HM}/validate", {
        "state": {**game["state"], "rng": 1}, "signature": game["signature"],
        "action": step(1)})
    refused(status, body)  # a signature sent is always checked
    plain = service()
    status, body = post(plain, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"], "action": step(1)})
    assert "holds no keys to open it" in refused(status, body, "/state/tiles")
    status, body = post(plain, f"{HM}/validate", {
        "state": SETUP, "signature": game["signature"], "action": step(1)})
    assert "signs no states" in refused(status, body)


def test_advisory_mode_applies_an_illegal_action_without_signing_it(signing: TestClient) -> None:
    game = new_game(signing)
    far = {"type": "maneuver", "player": "red", "army": "a1",
           "path": [{"q": 1, "r": 0}, {"q": 2, "r": 0}, {"q": 3, "r": 0}]}
    status, outcome = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"], "action": far,
        "mode": "advisory"})
    assert status == 200 and outcome["applied"] and not outcome["legal"]
    assert outcome["signature"] is None


def test_queries_take_a_signed_state(signing: TestClient) -> None:
    game = new_game(signing)
    status, answer = post(signing, f"{HM}/reachable", {
        "state": game["state"], "signature": game["signature"], "army": "a1"})
    assert status == 200 and answer["destinations"]
    # Asked again (a cache hit), the same; an edited state is refused even then.
    assert post(signing, f"{HM}/reachable", {
        "state": game["state"], "signature": game["signature"], "army": "a1"})[1] == answer
    status, body = post(signing, f"{HM}/reachable", {
        "state": {**game["state"], "rng": 5}, "signature": game["signature"], "army": "a1"})
    refused(status, body)


# --- boards by reference, patches ------------------------------------------------------------

def test_boards_by_reference_keep_one_signature_for_both_forms(signing: TestClient) -> None:
    board = {"hexes": HEXES}
    ref = board_id(board)
    game = new_game(signing, {**SETUP, "board": ref})  # stores the board, answers lean
    assert game["state"]["board"] == ref and "hexes" not in game["state"]
    whole = {**{k: v for k, v in game["state"].items() if k != "board"}, "hexes": HEXES}
    for state in (game["state"], whole):
        status, outcome = post(signing, f"{HM}/validate", {
            "state": state, "signature": game["signature"], "action": step(1)})
        assert status == 200 and outcome["legal"], outcome
        signed_as = outcome["signature"]
    # The lean answer's signature holds for the whole state too, and the other way round.
    lean_next = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"], "action": step(1)})[1]
    assert lean_next["state"]["board"] == ref and lean_next["signature"] == signed_as
    whole_next = {**{k: v for k, v in lean_next["state"].items() if k != "board"},
                  "hexes": HEXES}
    status, outcome = post(signing, f"{HM}/validate", {
        "state": whole_next, "signature": lean_next["signature"],
        "action": step(2, "b1", "blue")})
    assert status == 200 and outcome["legal"]


def test_a_patched_state_keeps_its_signature(signing: TestClient) -> None:
    game = new_game(signing)
    status, patched = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"], "action": step(1),
        "return": "patch"})
    assert status == 200 and patched["state"] is None and patched["signature"]
    state = apply(game["state"], patched["patch"])
    status, outcome = post(signing, f"{HM}/validate", {
        "state": state, "signature": patched["signature"], "action": step(2, "b1", "blue")})
    assert status == 200 and outcome["legal"]


# --- sequences -------------------------------------------------------------------------------

def test_a_sequence_signs_every_intermediate_state(signing: TestClient) -> None:
    game = new_game(signing)
    actions = [step(1), step(2, "b1", "blue")]
    status, batch = post(signing, f"{HM}/validate-batch", {
        "state": game["state"], "signature": game["signature"], "actions": actions,
        "mode": "sequence"})
    assert status == 200
    outcomes = batch["outcomes"]
    assert [o["legal"] for o in outcomes] == [True, True]
    assert all(o["signature"]["key"] == "new" for o in outcomes)
    # Each intermediate state goes on with its own signature, and with no other.
    for before, after, action in zip(outcomes, outcomes[1:], actions[1:], strict=False):
        status, again = post(signing, f"{HM}/validate", {
            "state": before["state"], "signature": before["signature"], "action": action})
        assert status == 200 and again["signature"] == after["signature"]
    status, body = post(signing, f"{HM}/validate", {
        "state": outcomes[1]["state"], "signature": outcomes[0]["signature"],
        "action": step(0, "b1", "blue")})
    refused(status, body)
    # Each alone: every resulting state signed too.
    status, each = post(signing, f"{HM}/validate-batch", {
        "state": game["state"], "signature": game["signature"],
        "actions": [step(1), step(1, "b1", "blue")], "mode": "each"})
    assert [o["signature"] is not None for o in each["outcomes"]] == [True, False]
    assert each["outcomes"][1]["legal"] is False


# --- fair randomness -------------------------------------------------------------------------

def die_case() -> dict[str, Any]:
    case = json.loads((CASES / "region_conquest" / "final_conquest_digital_roll.json")
                      .read_text())
    state: dict[str, Any] = case["state"]
    return state


FINAL = {"type": "final_conquest", "player": "orcs", "region": "meadow"}


def test_the_seed_is_the_services_and_a_repeated_request_repeats_its_draw(
        signing: TestClient) -> None:
    setup = die_case()
    game = new_game(signing, setup, RC)
    # The seed the service drew travels sealed (tests/api/test_sealing.py).
    assert set(game["state"]["rng"]) == {"sealed", "count"}
    body = {"state": game["state"], "signature": game["signature"], "action": FINAL}
    status, first = post(signing, f"{RC}/validate", body)
    assert status == 200 and first["legal"] and first["signature"]
    rolled = [e for e in first["events"] if e["kind"] == "reinforcement_die_rolled"]
    again = post(signing, f"{RC}/validate", body)[1]
    assert rolled and again["events"] == first["events"]  # no re-roll
    assert again["signature"] == first["signature"]  # the same state, sealed afresh
    # The advanced seed is inside the signed resulting state, sealed again.
    assert first["state"]["rng"]["sealed"] != game["state"]["rng"]["sealed"]
    # The client cannot choose the seed: a changed rng breaks the signature.
    status, problem = post(signing, f"{RC}/validate", {
        **body, "state": {**game["state"], "rng": setup["rng"]}})
    refused(status, problem)


def test_a_signed_digital_game_refuses_a_reported_draw(signing: TestClient) -> None:
    game = new_game(signing, die_case(), RC)
    status, problem = post(signing, f"{RC}/validate", {
        "state": game["state"], "signature": game["signature"], "action": {**FINAL, "die": 3}})
    assert "may not report 'die'" in refused(status, problem, "/action/die")
    status, problem = post(signing, f"{RC}/validate-batch", {
        "state": game["state"], "signature": game["signature"],
        "actions": [FINAL, {**FINAL, "die": 3}]})
    refused(status, problem, "/actions/1/die")
    # A table-mode game (no seed) reports its die.
    table = new_game(signing, {k: v for k, v in die_case().items() if k != "rng"}, RC)
    status, outcome = post(signing, f"{RC}/validate", {
        "state": table["state"], "signature": table["signature"], "action": {**FINAL, "die": 3}})
    assert status == 200 and outcome["signature"]


def test_an_exploration_that_changes_the_board_is_signed(signing: TestClient) -> None:
    case = json.loads((CASES / "hex_maneuver"
                       / "digital_mode_draws_from_stack_deck_and_bag.json").read_text())
    game = new_game(signing, case["state"])
    # The rotation is chosen with the tile in view: in a sealed game, the rules' default.
    explore = {k: v for k, v in case["action"].items() if k != "rotation"}
    status, problem = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"], "action": case["action"]})
    refused(status, problem, "/action/rotation")
    status, outcome = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"], "action": explore})
    assert status == 200 and outcome["legal"] and outcome["signature"]
    assert outcome["state"]["hexes"] != game["state"]["hexes"]
    status, problem = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"],
        "action": {**explore, "relic": "crown"}})
    refused(status, problem, "/action/relic")


# --- GraphQL ---------------------------------------------------------------------------------

QUERY = """query($state: HexManeuverState!, $signature: StateSignatureInput,
               $a: HexManeuverActionInput!) {
  hexManeuver(state: $state, signature: $signature) {
    validate(action: $a) { legal state signature { key mac } }
    validateBatch(actions: [$a], mode: sequence) { outcomes { legal signature { key mac } } }
    reachable(army: "a1") { destinations { cost } }
  }
}"""


def graphql(client: TestClient, state: Any, signature: Any) -> dict[str, Any]:
    r = client.post("/graphql", json={"query": QUERY, "variables": {
        "state": state, "signature": signature,
        "a": {"maneuver": {"player": "red", "army": "a1", "path": [{"q": 1, "r": 0}]}}}})
    assert r.status_code == 200
    for secret in SECRETS:
        assert secret not in r.text
    answer: dict[str, Any] = r.json()
    return answer


def test_graphql_takes_the_signature_beside_the_state(signing: TestClient) -> None:
    game = new_game(signing)
    answer = graphql(signing, game["state"], game["signature"])
    assert "errors" not in answer, answer
    asked = answer["data"]["hexManeuver"]
    rest = post(signing, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"], "action": step(1)})[1]
    assert asked["validate"]["signature"] == rest["signature"]
    assert asked["validateBatch"]["outcomes"][0]["signature"] == rest["signature"]
    for signature in (None, {"key": "new", "mac": "1" * 64}):
        error = graphql(signing, game["state"], signature)["errors"][0]
        assert error["extensions"]["code"] == "STATE_SIGNATURE"
        assert error["extensions"]["problems"][0]["pointer"] == "/state"


# --- secrets ---------------------------------------------------------------------------------

def test_secrets_never_show(service: Any, caplog: pytest.LogCaptureFixture) -> None:
    client = service(state_keys=f"new:{NEW},old:{OLD}", require_signed_states=True,
                     log_bodies=True)
    with caplog.at_level(logging.DEBUG):
        game = new_game(client)
        post(client, f"{HM}/validate", {"state": game["state"],
                                         "signature": game["signature"], "action": step(1)})
        post(client, f"{HM}/validate", {"state": SETUP, "action": step(1)})
        for path in ("/readyz", "/openapi.json", "/v1/rulesets/hex_maneuver", "/metrics"):
            assert all(s not in client.get(path).text for s in SECRETS)
    logged = " ".join(r.getMessage() + json.dumps(r.__dict__, default=str)
                      for r in caplog.records)
    assert caplog.records and all(s not in logged for s in SECRETS)
    settings = Settings(state_keys=f"new:{NEW}")
    assert NEW not in repr(settings) and NEW not in str(settings.model_dump())
    signer = Signer.from_settings(settings)
    assert NEW not in repr(signer) and "new" in repr(signer)
    with pytest.raises(SettingsError) as bad:
        Settings.from_env({"ARBITER_STATE_KEYS": f"new:{NEW},new2:short-{OLD[:8]}"})
    assert "'new2'" in str(bad.value) and all(s[:12] not in str(bad.value) for s in SECRETS)


def test_state_key_settings_are_checked() -> None:
    for raw, why in ((f"a b:{NEW}", "no id"), ("k:short", "shorter than 32"),
                     (f"k:{NEW},k:{OLD}", "listed twice"), (NEW, "no id")):
        with pytest.raises(SettingsError, match=why):
            Settings.from_env({"ARBITER_STATE_KEYS": raw})
    with pytest.raises(SettingsError, match="needs ARBITER_STATE_KEYS"):
        Settings.from_env({"ARBITER_REQUIRE_SIGNED_STATES": "true"})
    assert Signer.from_settings(Settings(state_keys=f" k2 : {NEW} , k1:{OLD}")).keys[0][0] == "k2"


# --- the engine's side: every resulting state can be sent back ----------------------------------

def applied_cases() -> list[tuple[str, dict[str, Any]]]:
    return [(name, case) for name, case in load_cases()
            if "action" in case and "state" in case and REGISTRY.get(case["ruleset"])]


def test_every_resulting_state_sent_back_verifies() -> None:
    """Through the engine, for every golden case: the digest a legal action's resulting
    state is signed with is the one the state gives when it is sent back (whole, and by
    reference), and a state's canonical JSON (its board's kept bytes included) is that of
    the state as sent, so the state judged is checked with the digest it gives on its own."""
    checked = 0
    for name, case in applied_cases():
        ruleset = REGISTRY.get(case["ruleset"])
        assert ruleset is not None
        try:
            position = ruleset.position(case["state"])
            ruling = position.ruling(case["action"], case.get("mode", "strict"))
        except Exception:  # malformed cases are other tests' business
            continue
        sent = ruleset.parse_state(case["state"]).model_dump(mode="json")
        assert position.canonical().whole() == orjson.dumps(sent, option=orjson.OPT_SORT_KEYS)
        if ruling.result is None or not ruling.outcome.legal:
            continue
        sealed = signing_digest(ruleset, ruling.result.canonical)
        back = ruleset.position(orjson.loads(orjson.dumps(ruling.outcome.state)))
        assert signing_digest(ruleset, back.canonical()) == sealed, name
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("ruleset_id", sorted(r.id for r in REGISTRY))
def test_every_ruleset_starts_and_goes_on_signed(signing: TestClient, ruleset_id: str) -> None:
    ruleset = REGISTRY.get(ruleset_id)
    assert ruleset is not None
    path = f"/v1/rulesets/{ruleset_id}"
    game = new_game(signing, dict(ruleset.examples.state), path)
    status, outcome = post(signing, f"{path}/validate", {
        "state": game["state"], "signature": game["signature"],
        "action": dict(ruleset.examples.action)})
    assert status == 200, outcome
    assert (outcome["signature"] is not None) == outcome["legal"]


def test_cached_answers_are_keyed_by_the_keys() -> None:
    """A query's answer cached under one list of keys (or one requirement) is never served
    under another: the cache key has a digest of them, never a secret."""
    salts = {Signer().salt(), Signer((("a", NEW.encode()),)).salt(),
             Signer((("a", OLD.encode()),)).salt(), Signer((("a", NEW.encode()),), True).salt(),
             Signer((("b", NEW.encode()), ("a", OLD.encode()))).salt()}
    assert len(salts) == 5 and b"" in salts
    assert all(NEW.encode() not in salt and OLD.encode() not in salt for salt in salts)

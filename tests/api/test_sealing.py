"""Hidden information without a server (service/hidden.py, service/envelopes.py): with
ARBITER_STATE_KEYS set, what the rules keep face down travels sealed, and a player's orders
for a simultaneous turn go in as an envelope. Each test tries what a player would: read a
sealed field, move it to another game or ruleset, edit a byte, learn a draw by asking,
swap, replay or edit envelopes; each is refused at its pointer or learns nothing. The
last test holds over every ruleset's golden cases: a sealed state is judged exactly as
the same state in the clear."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

from arbiter.http.app import create_app
from arbiter.http.problems import STATE_SIGNATURE
from arbiter.service.hidden import Hiding, is_handle
from arbiter.service.sealing import Sealer
from arbiter.settings import Settings
from golden import load_cases
from test_golden_engine import REGISTRY

KEY = "S3cret-seal-" + "k" * 32
ISSUER = "game-server-" + "g" * 32
HM, RC, PO = "/v1/rulesets/hex_maneuver", "/v1/rulesets/region_conquest", \
    "/v1/rulesets/phased_orders"
CASES = Path(__file__).resolve().parents[1] / "cases"
# The service's keys, as a test that must open what the service sealed holds them.
HIDING = Hiding(Sealer((("k1", KEY.encode()),)))


def case(ruleset: str, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((CASES / ruleset / f"{name}.json").read_text())
    return loaded


DIGITAL = case("hex_maneuver", "digital_mode_draws_from_stack_deck_and_bag")
EXPLORE = {k: v for k, v in DIGITAL["action"].items() if k != "rotation"}
TILE = DIGITAL["state"]["tiles"][0]
# Six tiles alike but for their ids, and six event cards: which comes first is the draw.
STACK = [{**TILE, "id": f"t-{i}"} for i in range(6)]
DECK = [f"e-{i}" for i in range(6)]
SETUP = {**DIGITAL["state"], "tiles": STACK,
         "events": {"deck": DECK, "rows": []}}
# A tile one hex short covers the province in no rotation: in the clear, an exploration
# under it is refused for that too (explore.3), which tells which tile is on top.
SHORT = {"id": "t-short", "hexes": TILE["hexes"][:-1]}
SECRETS = [*(t["id"] for t in STACK), SHORT["id"], *DECK, "crown", "chalice", "sword"]


@pytest.fixture(scope="module")
def sealing() -> Iterator[TestClient]:
    app = create_app(Settings(state_keys=f"k1:{KEY}", issuer_keys=ISSUER))
    with TestClient(app, headers={"x-api-key": ISSUER}) as client:
        yield client


@pytest.fixture(scope="module")
def keyless() -> Iterator[TestClient]:
    with TestClient(create_app(Settings())) as client:
        yield client


def post(client: TestClient, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    r = client.post(path, content=orjson.dumps(body),
                    headers={"content-type": "application/json"})
    assert KEY not in r.text
    return r.status_code, r.json()


def new_game(client: TestClient, state: dict[str, Any] = SETUP, path: str = HM
             ) -> dict[str, Any]:
    status, game = post(client, f"{path}/new-game", {"state": state})
    assert status == 200, game
    return game


def refused(status: int, body: Any, pointer: str) -> str:
    assert status == 422, body
    assert body["type"] == STATE_SIGNATURE, body
    assert [e["pointer"] for e in body["errors"]] == [pointer], body
    detail: str = body["detail"]
    return detail


def opened(state: dict[str, Any], ruleset: str = "hex_maneuver") -> dict[str, Any]:
    ruleset_ = REGISTRY.get(ruleset)
    assert ruleset_ is not None
    whole, _ = HIDING.open(ruleset_, state)
    result: dict[str, Any] = whole
    return result


# --- what a client holds ---------------------------------------------------------------------

def test_a_sealed_game_shows_counts_and_nothing_of_what_it_hides(sealing: TestClient) -> None:
    game = new_game(sealing)
    state = game["state"]
    assert state["tiles"]["count"] == 6 and state["events"]["deck"]["count"] == 6
    assert state["relics"]["bag"]["count"] == 3 and state["rng"]["count"] is None
    assert all(h["sealed"].startswith("sealed:v1:k1:")
               for h in (state["tiles"], state["events"]["deck"], state["relics"]["bag"],
                         state["rng"]))
    text = json.dumps(game)
    assert not [s for s in SECRETS if f'"{s}"' in text]
    # The seed the service drew is in no field a client reads; the hash is of the sealed
    # state, so it cannot be tried against guesses of the plain one.
    assert str(opened(state)["rng"]) not in text
    # What is sealed is the setup, shuffled: the same cards, in an order nobody chose.
    whole = opened(state)
    assert sorted(t["id"] for t in whole["tiles"]) == sorted(t["id"] for t in STACK)
    assert sorted(whole["events"]["deck"]) == DECK


def test_a_draw_cannot_be_foreseen_and_asking_twice_repeats_it(sealing: TestClient) -> None:
    """Twelve games from one setup: the tile and card an exploration turns up vary (the
    service shuffled them; the chance that a fair shuffle gave one first tile in all
    twelve is 6 x (1/6)^12), and the same request on one game turns up the same."""
    first_tiles, first_cards = set(), set()
    for _ in range(12):
        game = new_game(sealing)
        body = {"state": game["state"], "signature": game["signature"], "action": EXPLORE}
        status, outcome = post(sealing, f"{HM}/validate", body)
        assert status == 200 and outcome["legal"], outcome
        kinds = {e["kind"]: e["params"] for e in outcome["events"]}
        first_tiles.add(kinds["tile_placed"]["tile"])
        first_cards.add(kinds["event_card_flipped"]["card"])
        assert post(sealing, f"{HM}/validate", body)[1]["events"] == outcome["events"]
        # The rest stays sealed, one fewer of each.
        after = outcome["state"]
        assert after["tiles"]["count"] == 5 and after["events"]["deck"]["count"] == 5
        assert after["relics"]["bag"]["count"] == 2
        assert after["tiles"]["sealed"] != game["state"]["tiles"]["sealed"]
    assert len(first_tiles) > 1 and len(first_cards) > 1


def test_what_the_rules_reveal_and_no_more(sealing: TestClient) -> None:
    game = new_game(sealing)
    status, outcome = post(sealing, f"{HM}/validate", {
        "state": game["state"], "signature": game["signature"], "action": EXPLORE})
    assert status == 200 and outcome["legal"]
    kinds = [e["kind"] for e in outcome["events"]]
    assert {"tile_placed", "relic_placed", "event_card_flipped"} <= set(kinds)
    laid = next(e["params"]["tile"] for e in outcome["events"] if e["kind"] == "tile_placed")
    text = json.dumps(outcome)
    # The tile laid, the relic placed and the card flipped are public now; nothing else.
    unseen = [t["id"] for t in STACK if t["id"] != laid]
    assert not [s for s in unseen if f'"{s}"' in text]
    assert sum(f'"{c}"' in text for c in DECK) == 1
    assert sum(f'"{r}"' in text for r in ("crown", "chalice", "sword")) == 1


# --- moving, editing and forging seals -------------------------------------------------------

def test_a_seal_moved_to_another_game_or_ruleset_or_edited_is_refused(
        sealing: TestClient) -> None:
    game, other = new_game(sealing), new_game(sealing, {**SETUP, "armies": [
        {**SETUP["armies"][0], "units": {"swordsmen": 2}}]})
    # Another game's stack (its public rest differs: the army has two swordsmen).
    moved = {**game["state"], "tiles": other["state"]["tiles"]}
    status, body = post(sealing, f"{HM}/validate", {"state": moved, "action": EXPLORE})
    assert "does not open here" in refused(status, body, "/state/tiles")
    # Another ruleset's seed in this game's place.
    die = case("region_conquest", "final_conquest_digital_roll")["state"]
    region = new_game(sealing, die, RC)
    status, body = post(sealing, f"{HM}/validate", {
        "state": {**game["state"], "rng": region["state"]["rng"]}, "action": EXPLORE})
    refused(status, body, "/state/rng")
    # The stack where the deck goes.
    events = {**game["state"]["events"], "deck": game["state"]["tiles"]}
    status, body = post(sealing, f"{HM}/validate", {
        "state": {**game["state"], "events": events}, "action": EXPLORE})
    refused(status, body, "/state/events/deck")
    # One byte edited, in the seal or in its count.
    seal = game["state"]["relics"]["bag"]["sealed"]
    flipped = seal[:-3] + ("A" if seal[-3] != "A" else "B") + seal[-2:]
    edited = copy.deepcopy(game["state"])
    edited["relics"]["bag"]["sealed"] = flipped
    status, body = post(sealing, f"{HM}/validate", {"state": edited, "action": EXPLORE})
    refused(status, body, "/state/relics/bag")
    # Its count edited (the seal opens, and holds one more or less).
    recounted = copy.deepcopy(game["state"])
    recounted["tiles"]["count"] = 5
    status, body = post(sealing, f"{HM}/validate", {"state": recounted, "action": EXPLORE})
    refused(status, body, "/state/tiles/count")
    # A seal made up, or sealed by a key the service does not hold.
    for token, said in (("not a seal", "not a seal this service made"),
                        ("sealed:v1:k9:AAAA", "'k9'")):
        forged = {**game["state"], "tiles": {"sealed": token, "count": 6}}
        status, body = post(sealing, f"{HM}/validate", {"state": forged, "action": EXPLORE})
        assert said in refused(status, body, "/state/tiles")


@pytest.mark.parametrize("mode", ["strict", "advisory"])
def test_an_illegal_exploration_tells_nothing_of_the_draw(sealing: TestClient,
                                                          mode: str) -> None:
    """An exploration refused before its draw (the army has no movement left) answers
    the same whatever the stack, deck and bag hold: the draw never happened. The stacks
    are a tile that fits, a tile that fits nowhere, and six that fit (shuffled): in
    advisory mode a fitting tile would let the action apply, so an answer that said so
    (a warning rather than an error, not reversible) would tell which lies on top."""
    tired = {**SETUP, "armies": [{**SETUP["armies"][0], "depletion": 5}]}
    answers = []
    for stack in ([STACK[2]], [SHORT], STACK):
        game = new_game(sealing, {**tired, "tiles": stack, "events": {"deck": DECK[:2],
                                                                        "rows": []}})
        status, outcome = post(sealing, f"{HM}/validate", {
            "state": game["state"], "signature": game["signature"], "action": EXPLORE,
            "mode": mode})
        assert status == 200 and not outcome["legal"], outcome
        assert outcome["state"] is None and outcome["events"] == []
        assert not outcome["applied"] and outcome["reversible"], outcome
        assert {v["severity"] for v in outcome["violations"]} == {"error"}, outcome
        answers.append({k: v for k, v in outcome.items() if k != "signature"})
    assert answers[0] == answers[1] == answers[2]
    assert not [s for s in SECRETS if f'"{s}"' in json.dumps(answers)]


def test_a_departing_galley_tells_nothing_of_where_it_would_land(sealing: TestClient) -> None:
    """A depleted army's galley explores two hexes off, leaving its swordsmen on the sea:
    they are stranded (ferry.1) only if the flipped tile lets the galley land, so that
    reason comes after the draw and a sealed game keeps it back, all sea or all land."""
    start = case("hex_maneuver", "army_stays_when_it_cannot_land")
    sea = start["action"]["tile"]
    land = {"id": "t-land", "hexes": [{**h, "terrain": "plains"} for h in sea["hexes"]]}
    setup = {**start["state"], "rng": 7, "events": {**start["state"]["events"],
                                                      "deck": ["e2"]},
             "armies": [{"id": "x1", "owner": "alex", "hex": {"q": 3, "r": -2},
                         "units": {"galley": 1, "swordsmen": 1}, "depletion": 5}]}
    sail = {"type": "explore", "player": "alex", "army": "x1", "units": {"galley": 1},
            "path": [{"q": 3, "r": -1}, {"q": 2, "r": 0}]}
    clear = [[v["code"] for v in post(sealing, f"{HM}/validate", {
        "state": {**setup, "tiles": [tile]}, "action": sail})[1]["violations"]]
        for tile in (sea, land)]
    assert clear == [["army_depleted", "stranded_at_sea"], ["army_depleted"]]  # it would tell
    answers = []
    for tile in (sea, land):
        game = new_game(sealing, {**setup, "tiles": [tile]})
        for path in ("validate", "why-not"):
            body = {"state": game["state"], "action": sail} if path == "validate" else {
                "state": game["state"], "army": "x1", "hex": sail["path"][-1],
                "units": sail["units"]}
            status, answer = post(sealing, f"{HM}/{path}", body)
            assert status == 200, answer
            answers.append((path, [v["code"] for v in answer["violations"]]))
    assert answers == [("validate", ["army_depleted"]), ("why-not", ["army_depleted"])] * 2


def test_a_sealed_game_refuses_a_draw_or_a_choice_made_before_it(sealing: TestClient) -> None:
    game = new_game(sealing)
    # Unsigned too: a named tile would be answered with the one on top.
    for field, value in (("tile", TILE), ("relic", "crown"), ("event_card", "e-1"),
                         ("rotation", 2)):
        status, body = post(sealing, f"{HM}/validate", {
            "state": game["state"], "action": {**EXPLORE, field: value}})
        refused(status, body, f"/action/{field}")


def test_a_picture_judges_its_proposed_action_as_validate_does(
        sealing: TestClient, keyless: TestClient) -> None:
    """render's proposed action in a sealed game: a draw it names refused at its field
    under /overlay/action; a view without keys draws the board, and refuses only an
    action that draws from what it withholds."""
    game = new_game(sealing)
    for field, value in (("tile", SHORT), ("event_card", "e-1"), ("rotation", 2)):
        status, body = post(sealing, f"{HM}/render", {
            "state": game["state"], "overlay": {"action": {**EXPLORE, field: value}}})
        refused(status, body, f"/overlay/action/{field}")
    status, view = post(keyless, f"{HM}/view", {"state": SETUP})
    assert status == 200
    status, picture = post(keyless, f"{HM}/render", {"state": view["state"]})
    assert status == 200 and picture["svg"].startswith("<svg")
    status, body = post(keyless, f"{HM}/render", {"state": view["state"],
                                                  "overlay": {"action": EXPLORE}})
    assert status == 422 and "/state/tiles" in [e["pointer"] for e in body["errors"]], body


def test_legal_actions_of_a_sealed_state_list_no_choice_of_an_unseen_draw(
        sealing: TestClient) -> None:
    game = new_game(sealing)
    status, listed = post(sealing, f"{HM}/legal-actions", {
        "state": game["state"], "player": "alex", "limit": 500})
    assert status == 200
    explorations = [a for a in listed["actions"] if a["type"] == "explore"]
    assert explorations and all(a.get("rotation") is None for a in explorations)
    assert len({json.dumps(a, sort_keys=True) for a in explorations}) == len(explorations)
    # Each one validates as legal on the sealed state.
    for action in explorations[:3]:
        status, outcome = post(sealing, f"{HM}/validate", {"state": game["state"],
                                                           "action": action})
        assert status == 200 and outcome["legal"], outcome


# --- player views ----------------------------------------------------------------------------

def test_a_view_with_keys_is_judged_as_the_whole_state(sealing: TestClient) -> None:
    status, view = post(sealing, f"{HM}/view", {"state": SETUP, "player": "alex"})
    assert status == 200
    assert [(h["pointer"], h["count"], h["sealed"]) for h in view["hidden"]] == [
        ("/tiles", 6, True), ("/relics/bag", 3, True), ("/events/deck", 6, True),
        ("/rng", None, True)]
    assert not [s for s in SECRETS if f'"{s}"' in json.dumps(view)]
    status, outcome = post(sealing, f"{HM}/validate", {"state": view["state"],
                                                       "action": EXPLORE})
    clear = post(sealing, f"{HM}/validate", {"state": SETUP, "action": EXPLORE})[1]
    assert status == 200 and outcome["events"] == clear["events"]
    assert opened(outcome["state"]) == clear["state"]
    # A player the state does not seat.
    status, body = post(sealing, f"{HM}/view", {"state": SETUP, "player": "zoe"})
    assert status == 422 and body["errors"][0]["pointer"] == "/player"


def test_a_view_without_keys_withholds_and_says_what_needs_the_whole_state(
        keyless: TestClient) -> None:
    status, view = post(keyless, f"{HM}/view", {"state": SETUP})
    assert status == 200 and view["state"]["tiles"] == {"sealed": None, "count": 6}
    assert all(not h["sealed"] for h in view["hidden"])
    # An exploration draws from what is withheld; a maneuver does not.
    status, body = post(keyless, f"{HM}/validate", {"state": view["state"], "action": EXPLORE})
    assert status == 422 and "/state/tiles" in [e["pointer"] for e in body["errors"]]
    stay = {"type": "maneuver", "player": "alex", "army": "x1", "path": []}
    status, outcome = post(keyless, f"{HM}/validate", {"state": view["state"], "action": stay})
    assert status == 200 and outcome["legal"]
    assert outcome["state"]["tiles"] == {"sealed": None, "count": 6}  # withheld still
    status, body = post(keyless, f"{HM}/legal-actions", {"state": view["state"],
                                                         "player": "alex"})
    assert status == 422 and body["errors"][0]["pointer"] == "/state/tiles"
    status, answer = post(keyless, f"{HM}/reachable", {"state": view["state"], "army": "x1"})
    assert status == 200 and answer["destinations"]
    # A sealed handle where the service has no keys.
    status, body = post(keyless, f"{HM}/validate", {"state": {
        **SETUP, "tiles": {"sealed": "sealed:v1:k1:AAAA", "count": 1}}, "action": stay})
    assert "holds no keys" in refused(status, body, "/state/tiles")


def test_a_ruleset_with_nothing_hidden_shows_the_state_as_it_is(sealing: TestClient) -> None:
    for ruleset in ("area_movement", "territory_conquest"):
        r = REGISTRY.get(ruleset)
        assert r is not None and r.information.perfect
        state = dict(r.examples.state)
        status, view = post(sealing, f"/v1/rulesets/{ruleset}/view", {"state": state})
        assert status == 200 and view["hidden"] == [] and view["state"] == state


# --- sealed orders ---------------------------------------------------------------------------

MELEE = case("phased_orders", "blind2/p12_default_damage_spills_over_to_the_next_weakest")


def sealed_orders(client: TestClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player's orders sealed by a client of their own (one request each)."""
    out = []
    for order in MELEE["action"]["orders"]:
        status, sealed = post(client, f"{PO}/seal-orders", {
            "state": game["state"], "signature": game["signature"],
            "action": {"type": "submit", "player": order["player"], "orders": [order]}})
        assert status == 200 and sealed["legal"], sealed
        assert set(sealed["envelope"]) == {"player", "sealed"}  # nothing of the orders
        assert "order" not in sealed["envelope"]["sealed"]
        out.append(sealed)
    return out


def test_a_simultaneous_turn_resolves_from_three_sealed_envelopes(sealing: TestClient) -> None:
    game = new_game(sealing, MELEE["state"], PO)
    sealed = sealed_orders(sealing, game)
    envelopes = [s["envelope"] for s in sealed]
    assert [e["player"] for e in envelopes] == ["red", "blue", "green"]
    status, turn = post(sealing, f"{PO}/resolve", {
        "state": game["state"], "signature": game["signature"], "envelopes": envelopes})
    assert status == 200 and turn["status"] == "resolved", turn
    received = [e["params"]["player"] for e in turn["events"] if e["kind"] == "orders_received"]
    assert received == ["red", "blue", "green"]
    assert turn["state"]["rng"]["sealed"]  # the advanced seed sealed again
    # validate takes them too, and signs the turn.
    status, outcome = post(sealing, f"{PO}/validate", {
        "state": game["state"], "signature": game["signature"],
        "action": {"type": "resolve"}, "envelopes": envelopes})
    assert status == 200 and outcome["legal"] and outcome["signature"]
    assert [e for e in outcome["events"] if e["kind"] == "orders_received"] == [
        e for e in turn["events"] if e["kind"] == "orders_received"]


def test_envelopes_swapped_replayed_edited_or_doubled_are_refused(sealing: TestClient) -> None:
    game = new_game(sealing, MELEE["state"], PO)
    red, blue, green = (s["envelope"] for s in sealed_orders(sealing, game))
    signed = {"state": game["state"], "signature": game["signature"]}
    status, body = post(sealing, f"{PO}/resolve", {**signed, "envelopes": [
        {**red, "player": "blue"}, {**blue, "player": "red"}, green]})
    refused(status, body, "/envelopes/0/sealed")
    edited = {**green, "sealed": green["sealed"][:-4] + "AAAA"}
    status, body = post(sealing, f"{PO}/resolve", {**signed, "envelopes": [red, edited]})
    refused(status, body, "/envelopes/1/sealed")
    status, body = post(sealing, f"{PO}/resolve", {**signed, "envelopes": [red, red]})
    assert status == 422 and body["errors"][0]["pointer"] == "/envelopes/1/player"
    # The next turn: this turn's envelopes are no orders for it.
    status, outcome = post(sealing, f"{PO}/validate", {
        **signed, "action": {"type": "resolve"}, "envelopes": [red, blue, green]})
    assert status == 200 and outcome["legal"]
    status, body = post(sealing, f"{PO}/resolve", {
        "state": outcome["state"], "signature": outcome["signature"], "envelopes": [red]})
    refused(status, body, "/envelopes/0/sealed")
    # Orders that cannot be judged are not sealed either (another player's unit).
    status, body = post(sealing, f"{PO}/seal-orders", {**signed, "action": {
        "type": "submit", "player": "red", "orders": [{"order": "hold", "player": "red",
                                                       "unit": "g"}]}})
    assert status == 422 and body["errors"][0]["pointer"] == "/action/orders/0/unit"


def test_only_the_sealer_has_an_envelope_opened(sealing: TestClient, keyless: TestClient
                                                ) -> None:
    game = new_game(sealing, MELEE["state"], PO)
    red, blue, _ = sealed_orders(sealing, game)
    signed = {"state": game["state"], "signature": game["signature"]}
    status, own = post(sealing, f"{PO}/unseal-orders", {
        **signed, "envelope": red["envelope"], "receipt": red["receipt"]})
    assert status == 200 and own["player"] == "red"
    assert own["action"]["orders"] == [MELEE["action"]["orders"][0]]
    status, body = post(sealing, f"{PO}/unseal-orders", {
        **signed, "envelope": red["envelope"], "receipt": blue["receipt"]})
    refused(status, body, "/receipt")
    # A ruleset whose players give nothing in secret has no such route.
    status, body = post(sealing, f"{HM}/seal-orders", {"state": SETUP, "action": EXPLORE})
    assert status == 404
    # A service without keys seals nothing.
    status, body = post(keyless, f"{PO}/seal-orders", {"state": MELEE["state"], "action": {
        "type": "submit", "player": "red", "orders": []}})
    refused(status, body, "/action")


def _explorations() -> list[tuple[str, dict[str, Any]]]:
    """Every golden hex_maneuver exploration, its reported draws and rotation left out (a
    sealed game makes them)."""
    out = []
    for name, c in load_cases():
        action = c.get("action")
        if c["ruleset"] != "hex_maneuver" or not isinstance(action, dict) \
                or action.get("type") != "explore" or not isinstance(c.get("state"), dict):
            continue
        out.append((name, {"state": c["state"], "action": {
            k: v for k, v in action.items() if k not in ("tile", "relic", "event_card",
                                                         "rotation")}}))
    return out


def _depleted(state: dict[str, Any], army: Any) -> dict[str, Any]:
    return {**state, "armies": [{**a, "depletion": 5} if isinstance(a, dict) and
                                a.get("id") == army else a for a in state.get("armies", [])]}


@pytest.mark.parametrize(("name", "golden"), _explorations(), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_an_exploration_answers_alike_whatever_is_drawn(
        sealing: TestClient, name: str, golden: dict[str, Any]) -> None:
    """Whatever the top tile (the case's own, all sea, all plains, one hex short of
    fitting) and the seed, one answer for each question a player asks before the draw:
    the exploration validated with its army depleted (refused before its draw) in either
    mode and drawn as a picture's proposed action, the player's legal actions, and
    why-not of the hex it claims."""
    top = (golden["state"].get("tiles") or [TILE])[0]
    stacks = [[top], [{"id": "t-sea", "hexes": [{**h, "terrain": "sea"} for h in top["hexes"]]}],
              [{"id": "t-land", "hexes": [{**h, "terrain": "plains"} for h in top["hexes"]]}],
              [{"id": "t-short", "hexes": top["hexes"][:-1]}]]
    action = golden["action"]
    asked: dict[str, set[bytes]] = {}
    for stack, seed in zip(stacks, (1, 2, 3, 4), strict=True):
        games = [post(sealing, f"{HM}/new-game", {"state": {**state, "tiles": stack,
                                                             "rng": seed}})
                 for state in (golden["state"], _depleted(golden["state"], action["army"]))]
        if any(status != 200 for status, _ in games):  # no game starts here, whatever its stack
            assert stack is stacks[0], games
            return
        fresh, tired = (game["state"] for _, game in games)
        questions = [(f"validate {mode}", "validate", {"state": tired, "action": action,
                                                       "mode": mode})
                     for mode in ("strict", "advisory")]
        questions += [("render", "render", {"state": tired, "overlay": {"action": action}}),
                      ("legal-actions", "legal-actions", {"state": fresh, "limit": 10_000,
                                                          "player": action["player"]}),
                      ("why-not", "why-not", {"state": fresh, "army": action["army"],
                                              "hex": action["path"][-1]})]
        for what, path, body in questions:
            status, answer = post(sealing, f"{HM}/{path}", body)
            if what.startswith("validate"):
                assert status == 200 and not answer["legal"], answer
            asked.setdefault(what, set()).add(orjson.dumps(answer, option=orjson.OPT_SORT_KEYS))
    differ = {what: [orjson.loads(a) for a in answers] for what, answers in asked.items()
              if len(answers) > 1}
    assert not differ, differ


# --- sealed or in the clear, the same verdict --------------------------------------------------

def _digital_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every golden validate case, in digital mode: a state without a seed is given one
    (its model's default where it has one, else 7), so that what it hides is sealed; the
    cases of a ruleset with nothing hidden as they are (their view is the state itself)."""
    out = []
    for name, c in load_cases():
        ruleset = REGISTRY.get(c["ruleset"])
        if "action" not in c or not isinstance(c.get("state"), dict) or ruleset is None:
            continue
        if not ruleset.information.perfect and c["state"].get("rng") is None:
            seed = ruleset.state_model.model_fields["rng"].default
            c = {**c, "state": {**c["state"], "rng": 7 if seed is None else seed}}
        out.append((name, c))
    return out


@pytest.mark.parametrize(("name", "golden"), _digital_cases(), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_a_sealed_state_is_judged_as_the_same_state_in_the_clear(
        sealing: TestClient, name: str, golden: dict[str, Any]) -> None:
    path = f"/v1/rulesets/{golden['ruleset']}"
    ruleset = REGISTRY.get(golden["ruleset"])
    assert ruleset is not None
    status, view = post(sealing, f"{path}/view", {"state": golden["state"]})
    if status != 200:  # a state that cannot be judged, sealed or not
        assert post(sealing, f"{path}/validate", {"state": golden["state"],
                                                  "action": golden["action"]})[0] == status
        return
    body = {"action": golden["action"], "mode": golden.get("mode", "strict")}
    clear_status, clear = post(sealing, f"{path}/validate", {**body, "state": golden["state"]})
    sealed_status, sealed = post(sealing, f"{path}/validate", {**body, "state": view["state"]})
    if ruleset.information.perfect:
        assert view["state"] == golden["state"] and sealed == clear
        return
    try:
        action = ruleset.parse_action(golden["action"])
    except ValidationError:
        action = None
    unseen = [] if action is None else [*ruleset.reported_draws(action),
                                        *ruleset.information.chosen_on_reveal(action)]
    if unseen and set(ruleset.information.reads(action)):
        refused(sealed_status, sealed, f"/action/{unseen[0]}")  # before anything else
        return
    if clear_status != 200:  # refused whole, sealed or not, at the same places
        assert sealed_status == clear_status
        assert [e["pointer"] for e in sealed["errors"]] == [e["pointer"] for e in clear["errors"]]
        return
    assert sealed_status == clear_status, (sealed, clear)
    assert sealed["legal"] == clear["legal"]
    if sealed["legal"] or not set(ruleset.information.reads(action)):
        assert sealed["events"] == clear["events"] and sealed["derived"] == clear["derived"]
        assert [v["code"] for v in sealed["violations"]] == [
            v["code"] for v in clear["violations"]]
        if clear["state"] is not None:
            assert opened(sealed["state"], golden["ruleset"]) == clear["state"]
            assert all(is_handle(v) for _, v in Hiding.handles(ruleset, sealed["state"]))
    else:  # refused before the draw: its reasons, none it would have shown
        assert {v["code"] for v in sealed["violations"]} <= {
            v["code"] for v in clear["violations"]}


def test_graphql_seals_resolves_and_opens_orders(sealing: TestClient) -> None:
    game = new_game(sealing, MELEE["state"], PO)
    query = """query($s: PhasedOrdersState!, $sig: StateSignatureInput,
                     $a: PhasedOrdersActionInput!) {
      phasedOrders(state: $s, signature: $sig) {
        sealOrders(action: $a) { legal envelope { player sealed } receipt } } }"""
    envelopes, receipts = [], []
    for order in MELEE["action"]["orders"]:
        submit = {"submit": {"player": order["player"],
                             "orders": [{order["order"]: {k: v for k, v in order.items()
                                                          if k != "order"}}]}}
        r = sealing.post("/graphql", json={"query": query, "variables": {
            "s": game["state"], "sig": game["signature"], "a": submit}})
        sealed = r.json()["data"]["phasedOrders"]["sealOrders"]
        assert sealed["legal"], r.json()
        envelopes.append(sealed["envelope"])
        receipts.append(sealed["receipt"])
    resolve = """query($s: PhasedOrdersState!, $sig: StateSignatureInput, $e: [EnvelopeInput!],
                      $own: EnvelopeInput!, $r: String!) {
      phasedOrders(state: $s, signature: $sig) {
        resolve(envelopes: $e) { status events { kind } }
        unsealOrders(envelope: $own, receipt: $r) {
          player action { ... on PhasedOrdersSubmitAction {
            submit { player orders { __typename } } } } }
      } }"""
    r = sealing.post("/graphql", json={"query": resolve, "variables": {
        "s": game["state"], "sig": game["signature"], "e": envelopes, "own": envelopes[1],
        "r": receipts[1]}})
    answer = r.json()["data"]["phasedOrders"]
    assert answer["resolve"]["status"] == "resolved"
    assert [e["kind"] for e in answer["resolve"]["events"]].count("orders_received") == 3
    assert answer["unsealOrders"]["player"] == "blue"
    # Typed as the ruleset's own action: blue's one order, a hold.
    submit = answer["unsealOrders"]["action"]["submit"]
    assert submit["player"] == "blue"
    assert [o["__typename"] for o in submit["orders"]] == ["PhasedOrdersResolveOrderHold"]


def test_why_not_of_a_sealed_state_tells_nothing_of_the_draw(sealing: TestClient) -> None:
    """why-not tells an exploration's reasons as validate does: refused before its draw,
    the same whatever the stack holds."""
    tired = {**SETUP, "armies": [{**SETUP["armies"][0], "depletion": 5}]}
    clear = post(sealing, f"{HM}/validate", {"state": {**tired, "tiles": [SHORT]},
                                             "action": EXPLORE})[1]
    assert len({v["rule"] for v in clear["violations"]}) > 1, clear  # it would tell
    answers = []
    for stack in ([SHORT], [STACK[3]], [SHORT, *STACK]):
        game = new_game(sealing, {**tired, "tiles": stack})
        status, answer = post(sealing, f"{HM}/why-not", {
            "state": game["state"], "army": "x1", "hex": EXPLORE["path"][-1]})
        assert status == 200 and not answer["possible"], answer
        assert answer["action"]["type"] == "explore" and answer["violations"]
        status, judged = post(sealing, f"{HM}/validate", {"state": game["state"],
                                                          "action": answer["action"]})
        assert [v["code"] for v in judged["violations"]] == [
            v["code"] for v in answer["violations"]]
        answers.append(answer)
    assert answers[0] == answers[1] == answers[2]
    assert not [s for s in SECRETS if f'"{s}"' in json.dumps(answers)]

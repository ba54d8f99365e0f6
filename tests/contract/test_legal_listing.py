"""The legal-actions answer, which the engine makes for every ruleset (``engine/legal.py``):

- every registered ruleset asks the same request (``state``, ``player``, ``limit`` with
  one default and one maximum) and answers the same four fields first, under its own
  prefix;

and on every golden-case state (tests/cases/<ruleset>/, and the toy's tests/toy/cases/),
for every player of the state:

- every listed action, sent back unchanged as ``validate``'s action, is legal; the same
  request twice answers the same bytes; a ``limit`` one short cuts the last action and
  says ``truncated``; the listing is exactly the candidates ``judge`` finds legal
  (``checks.check_listing``);
- every action type of every ruleset (and every kind of step, order and maneuver the
  generators document) is listed on at least one golden state, so a type the generator
  forgets fails here;
- over HTTP, against a real server: a sample of the listed actions POSTed back to
  ``validate`` answers ``legal: true``, and the listing answers the same bytes twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from arbiter.engine.errors import InvalidInput
from arbiter.engine.legal import LIMIT, MAX_LIMIT, pascal
from arbiter.engine.registry import AnyRuleset

from .checks import check_listing, legal_actions, max_limit, spread
from .test_contract import CASES, RULESET_IDS, TESTS, ruleset_of

# What each generator documents beyond the action types (``candidates.py``): the kinds of
# maneuver, the steps of a plan, the orders of a submission. Each must be listed on some
# golden state.
KINDS: dict[str, set[str]] = {
    "hex_maneuver": {"maneuver", "explore", "stay", "march", "split", "unpack", "drop",
                     "pickup"},
    "area_movement": {"end_movement", "movement", "movement/end_movement",
                      "movement/maintain_ship", "movement/build_ship", "movement/destroy_ship",
                      "movement/move_tokens", "movement/sail", "movement/sail+embark"},
    "phased_orders": {"resolve", "submit", "submit/hold", "submit/disband", "submit/move",
                      "submit/ranged_attack", "submit/cast", "submit/ability", "submit/load",
                      "submit/unload", "submit/repair", "submit/change_sides",
                      "submit/commission"},
}


def kinds_of(action: dict[str, Any]) -> Iterator[str]:
    """The action's type, and the finer kinds ``KINDS`` names."""
    kind = action["type"]
    yield kind
    for step in action.get("steps", ()):
        yield f"{kind}/{step['type']}" + ("+embark" if step.get("embark") else "")
    for order in action.get("orders", ()) if kind == "submit" else ():
        yield f"{kind}/{order['order']}"
    if "army" in action:
        flags = {"stay": not action["path"], "march": action["march"],
                 "split": action["units"] is not None, "unpack": action.get("unpack"),
                 "drop": action.get("drops"), "pickup": action.get("pickups")}
        yield from (name for name, on in flags.items() if on)


def _states_of(folder: Path) -> Iterator[dict[str, Any]]:
    for path in sorted(folder.glob("**/*.json")):
        case = json.loads(path.read_text())
        state = case.get("state", case.get("request", {}).get("state"))
        if isinstance(state, dict):
            yield state


@cache
def golden_states(ruleset_id: str) -> list[dict[str, Any]]:
    """The distinct states of the ruleset's golden cases that are valid states (a case
    about a malformed state or a board sent by reference has none to list from)."""
    ruleset = ruleset_of(ruleset_id)
    seen: dict[str, dict[str, Any]] = {}
    for state in _states_of(CASES.get(ruleset_id, TESTS / "cases" / ruleset_id)):
        try:
            ruleset.compile(ruleset.state_model.model_validate(state))
        except (ValidationError, InvalidInput):
            continue
        seen.setdefault(json.dumps(state, sort_keys=True), state)
    return list(seen.values())


def players_of(state: dict[str, Any]) -> list[str]:
    return [p["id"] for p in state["players"]]


@cache
def listed_on_golden_states(ruleset_id: str) -> list[dict[str, Any]]:
    ruleset = ruleset_of(ruleset_id)
    found: list[dict[str, Any]] = []
    for state in golden_states(ruleset_id):
        found += check_listing(ruleset, state, players_of(state), every=True)
    return found


per_ruleset = pytest.mark.parametrize("ruleset_id", RULESET_IDS)


def test_every_ruleset_takes_one_limit_default_and_maximum() -> None:
    limits = {}
    for ruleset_id in RULESET_IDS:
        request = ruleset_of(ruleset_id).queries["legal-actions"].request
        limit = request.model_json_schema()["properties"]["limit"]
        limits[ruleset_id] = (limit["default"], limit["minimum"], limit["maximum"])
    assert set(limits.values()) == {(LIMIT, 1, MAX_LIMIT)} == {(100, 1, 10_000)}, limits


@per_ruleset
def test_the_listing_has_one_shape_under_the_rulesets_names(ruleset_id: str) -> None:
    query = ruleset_of(ruleset_id).queries["legal-actions"]
    prefix = pascal(ruleset_id)
    assert (query.request.__name__, query.response.__name__) == (
        f"{prefix}LegalActionsRequest", f"{prefix}LegalActionsResponse")
    assert list(query.request.model_fields) == ["state", "player", "limit"]
    assert list(query.response.model_fields)[:4] == ["player", "actions", "truncated", "count"]


@per_ruleset
def test_every_action_listed_on_a_golden_state_validates_unchanged(ruleset_id: str) -> None:
    assert golden_states(ruleset_id), f"{ruleset_id}: no golden case has a valid state"
    listed_on_golden_states(ruleset_id)


@per_ruleset
def test_every_action_type_is_listed_on_some_golden_state(ruleset_id: str) -> None:
    ruleset = ruleset_of(ruleset_id)
    listed = {k for action in listed_on_golden_states(ruleset_id) for k in kinds_of(action)}
    wanted = set(ruleset.action_types) | KINDS.get(ruleset_id, set())
    assert wanted <= listed, (f"{ruleset_id}: never listed on a golden state: "
                              f"{sorted(wanted - listed)}")


def _post(http: httpx.Client, ruleset: AnyRuleset, name: str, body: dict[str, Any]
          ) -> httpx.Response:
    r = http.post(f"/v1/rulesets/{ruleset.id}/{name}", json=body)
    assert r.status_code == 200, r.text
    return r


@pytest.mark.server
@pytest.mark.parametrize("ruleset_id", [r for r in RULESET_IDS if r != "tic_tac_toe"])
def test_listed_actions_validate_over_http(http: httpx.Client, ruleset_id: str) -> None:
    ruleset = ruleset_of(ruleset_id)
    checked = 0
    # The states with the most actions listed, a few of each: enough kinds of action.
    states = sorted(golden_states(ruleset_id),
                    key=lambda s: -sum(len(legal_actions(ruleset, s, p, 50)["actions"])
                                       for p in players_of(s)))[:3]
    for state in states:
        for player in players_of(state):
            body = {"state": state, "player": player, "limit": max_limit(ruleset)}
            first = _post(http, ruleset, "legal-actions", body)
            assert _post(http, ruleset, "legal-actions", body).content == first.content
            listing = first.json()
            assert listing["actions"] == legal_actions(ruleset, state, player,
                                                        max_limit(ruleset))["actions"]
            for action in spread(listing["actions"])[:10]:
                out = _post(http, ruleset, "validate", {"state": state, "action": action})
                assert out.json()["legal"], (action, out.json()["violations"])
                checked += 1
    assert checked, f"{ruleset_id}: no golden state lists an action"

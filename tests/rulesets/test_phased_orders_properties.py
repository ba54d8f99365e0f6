"""Invariants of ``phased_orders``, checked with hypothesis on random turns: resolution is
deterministic for a seed and decisions; pending decisions, answered with their own
options, always lead to a resolved turn; no unit shares a hex with an enemy after combat
(nor with any unit at the end of the turn); no pool, store or cargo goes below zero at
any point of the trace; the trace replayed from the start state gives the end state; and
what ``legal-actions`` lists, ``validate`` accepts."""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.rulesets.phased_orders import RULESET
from arbiter.rulesets.phased_orders.board import compile_board, relation_of
from arbiter.rulesets.phased_orders.models import PhasedOrdersState
from arbiter.rulesets.phased_orders.trace import replay

from .phased_orders_boards import positions, settle, turns

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PICKS = st.lists(st.integers(0, 50), min_size=1, max_size=8)


def _dump(outcome: Any) -> bytes:
    return orjson.dumps(outcome.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS)


@SETTINGS
@given(turn=turns(), picks=PICKS)
def test_resolution_is_deterministic_and_settles(turn: tuple[dict[str, Any], dict[str, Any]],
                                                 picks: list[int]) -> None:
    state, action = turn
    outcome, decisions = settle(state, action, picks)
    assert outcome.legal, [v.message for v in outcome.violations]
    again = RULESET.validate(state, {**action, "decisions": decisions})
    assert _dump(again) == _dump(outcome)


@SETTINGS
@given(turn=turns(), picks=PICKS)
def test_the_trace_replays_to_the_end_state(turn: tuple[dict[str, Any], dict[str, Any]],
                                            picks: list[int]) -> None:
    state, action = turn
    outcome, _ = settle(state, action, picks)
    start = PhasedOrdersState.model_validate(state).model_dump(mode="json")
    events = [e.model_dump(mode="json") for e in outcome.events]
    assert replay(start, events) == outcome.state


def _sides_sharing(state: dict[str, Any]) -> list[tuple[str, str]]:
    stances = {p["id"]: p["relations"] for p in state["players"]}
    by_hex: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for u in state["units"]:
        by_hex.setdefault((u["hex"]["q"], u["hex"]["r"]), []).append(u)
    out = []
    for units in by_hex.values():
        for i, a in enumerate(units):
            for b in units[i + 1:]:
                if relation_of(stances, a["owner"], b["owner"]) not in ("same", "allied"):
                    out.append((a["id"], b["id"]))
    return out


@SETTINGS
@given(turn=turns(), picks=PICKS)
def test_no_unit_shares_a_hex_with_an_enemy_after_combat(
        turn: tuple[dict[str, Any], dict[str, Any]], picks: list[int]) -> None:
    state, action = turn
    outcome, _ = settle(state, action, picks)
    assert outcome.state is not None
    start = PhasedOrdersState.model_validate(state).model_dump(mode="json")
    events = [e.model_dump(mode="json") for e in outcome.events]
    through_combat = [e for e in events if e["params"]["phase"] <= 12]
    assert _sides_sharing(replay(start, through_combat)) == []
    spots = [(u["hex"]["q"], u["hex"]["r"]) for u in outcome.state["units"]]
    assert len(spots) == len(set(spots)), "two units end the turn on one hex"


@SETTINGS
@given(turn=turns(), picks=PICKS)
def test_resources_never_go_negative(turn: tuple[dict[str, Any], dict[str, Any]],
                                     picks: list[int]) -> None:
    state, action = turn
    outcome, _ = settle(state, action, picks)
    for event in outcome.events:
        for key in ("resources", "gems", "stored", "carried", "durability"):
            value = event.params.get(key)
            if isinstance(value, int):
                assert value >= 0, (event.kind, event.params)
    assert outcome.state is not None
    assert all(p["resources"] >= 0 and p["gems"] >= 0 for p in outcome.state["players"])
    assert all(s["resources"] >= 0 for s in outcome.state["strongholds"])


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(start=positions(), which=st.integers(0, 3))
def test_legal_actions_validate(start: dict[str, Any], which: int) -> None:
    state = PhasedOrdersState.model_validate(start)
    board = compile_board(state)
    player = state.players[which % len(state.players)].id
    for action in list(RULESET.legal_actions(board, player))[:40]:
        assert RULESET.validate(state, action).legal

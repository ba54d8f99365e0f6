"""Invariants of ``area_movement``, checked with hypothesis on random positions: through any
sequence of listed legal steps, and for any plan in either mode, tokens are conserved
except where a payment destroys them, no token is left aboard a ship, the treasury never
goes negative, other players, barbarians and cities never change, every state produced is
a state the ruleset accepts, every step ``legal-actions`` lists validates, and validation
is deterministic."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.engine.errors import InvalidInput
from arbiter.engine.outcome import Mode, Outcome
from arbiter.rulesets.area_movement import RULESET
from arbiter.rulesets.area_movement.board import compile_board
from arbiter.rulesets.area_movement.models import AreaMovementState

from .area_movement_boards import board_tokens, positions, steps, treasury

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PAYMENTS = ("ship_built", "ship_maintained")
SHIPS_LOST = ("ship_destroyed", "unmaintained_ship_destroyed")


def check_effect(before: dict[str, Any], outcome: Outcome, player: str) -> None:
    """What any applied plan of ``player`` must respect."""
    after = outcome.state
    assert after is not None
    events = outcome.events
    destroyed = sum(e.params["destroyed"] for e in events if e.kind in PAYMENTS)
    paid = sum(e.params["treasury"] for e in events if e.kind in PAYMENTS)
    assert board_tokens(after, player) == board_tokens(before, player) - destroyed
    assert treasury(after, player) == treasury(before, player) - paid >= 0
    others = [p for p in before["players"] if p["id"] != player]
    assert others == [p for p in after["players"] if p["id"] != player]
    assert (after["barbarians"], after["cities"]) == (before["barbarians"], before["cities"])
    built = sum(1 for e in events if e.kind == "ship_built")
    lost = sum(1 for e in events if e.kind in SHIPS_LOST)
    assert len(after["ships"]) == len(before["ships"]) + built - lost
    # Whatever boards a ship in a step leaves it in that step: nobody stays aboard.
    aboard: Counter[int | None] = Counter()
    for e in events:
        if e.kind == "tokens_embarked":
            aboard[e.at.step] += e.params["count"]
        elif e.kind in ("tokens_disembarked", "tokens_landed"):
            aboard[e.at.step] -= e.params["count"]
    assert not +aboard and not -aboard
    compile_board(AreaMovementState.model_validate(after))


def _mover(state: AreaMovementState, pick: int) -> str | None:
    board = compile_board(state)
    waiting = [p for p in board.order if not board.players[p].movement_ended]
    if not waiting:
        return None
    return waiting[pick % len(waiting)] if state.options.simultaneous_movement else waiting[0]


def listed(state: dict[str, Any] | AreaMovementState, player: str, limit: int = 200
           ) -> list[dict[str, Any]]:
    query = RULESET.queries["legal-actions"]
    answer = query.run(query.request.model_validate(
        {"state": state, "player": player, "limit": limit}))
    actions: list[dict[str, Any]] = answer.model_dump(mode="json")["actions"]
    return actions


@SETTINGS
@given(start=positions(), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=25))
def test_a_walk_of_listed_steps_keeps_every_invariant(start: dict[str, Any],
                                                      picks: list[int]) -> None:
    state = AreaMovementState.model_validate(start)
    for pick in picks:
        player = _mover(state, pick)
        if player is None:
            break
        actions = listed(state, player)
        if not actions:
            break
        before = state.model_dump(mode="json")
        ruling = RULESET.ruling(before, actions[pick % len(actions)])
        outcome = ruling.outcome
        assert outcome.legal, [v.message for v in outcome.violations]
        check_effect(before, outcome, player)
        nxt = ruling.result.model if ruling.result is not None else None
        assert isinstance(nxt, AreaMovementState)
        state = nxt


@SETTINGS
@given(start=positions())
def test_every_listed_step_validates_for_every_player(start: dict[str, Any]) -> None:
    for p in start["players"]:
        for action in listed(start, p["id"], limit=60):
            outcome = RULESET.validate(start, action)
            assert outcome.legal, (action, [v.message for v in outcome.violations])


def _judged(start: dict[str, Any], plan: dict[str, Any], mode: Mode) -> Outcome | None:
    """The outcome, or None when the plan is malformed (a 422 that is not about the
    resulting state: a resulting state out of bounds would be a bug)."""
    try:
        return RULESET.validate(start, plan, mode)
    except InvalidInput as exc:
        assert all(p.pointer != "/action" for p in exc.problems), exc
        return None


@SETTINGS
@given(start=positions(), data=st.data())
def test_any_plan_in_either_mode_keeps_every_invariant(start: dict[str, Any],
                                                       data: st.DataObject) -> None:
    player = data.draw(st.sampled_from([p["id"] for p in start["players"]]))
    plan = {"type": "movement", "player": player,
            "steps": data.draw(st.lists(steps(start, player), min_size=1, max_size=6))}
    modes: tuple[Mode, ...] = ("strict", "advisory")
    for mode in modes:
        outcome = _judged(start, plan, mode)
        if outcome is None:
            return
        again = _judged(start, plan, mode)
        assert again is not None and again.model_dump() == outcome.model_dump()
        if mode == "strict":
            assert outcome.applied == outcome.legal
        steps_at = {v.at.step for v in outcome.violations} - {None}
        assert len(steps_at) <= 1, "only the first illegal step is reported"
        if outcome.applied:
            check_effect(start, outcome, player)

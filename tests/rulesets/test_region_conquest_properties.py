"""Invariants of ``region_conquest``, checked with hypothesis on random maps and on the
Small World maps: tokens are conserved through any sequence of legal actions, the cost
matches an independent restatement of the rulebook's formula, a legal conquest never
leaves a hand below zero, ``legal-actions`` and ``validate`` agree, validation is
deterministic, and every state an action produces (advisory mode included) is a state
the ruleset accepts."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.rulesets.region_conquest import RULESET
from arbiter.rulesets.region_conquest.board import compile_board
from arbiter.rulesets.region_conquest.models import RegionConquestAction, RegionConquestState

from .region_conquest_boards import legal_redeploy, positions, restated_cost, tokens_of

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _action(payload: dict[str, Any]) -> RegionConquestAction:
    return RegionConquestAction.model_validate(payload)


def _play(state: RegionConquestState, pick: int) -> dict[str, Any] | None:
    """One legal action of the player whose turn it is, chosen by ``pick`` among what
    ``legal-actions`` lists (with a concrete redeployment and die)."""
    player = state.turn.player
    listed = list(RULESET.legal_actions(compile_board(state), player))
    if not listed:
        return None
    choice = listed[pick % len(listed)]
    if choice.type == "redeploy":
        return legal_redeploy(state.model_dump(), pick)
    payload: dict[str, Any] = {"type": choice.type, "player": player}
    if getattr(choice, "region", None) is not None:
        payload["region"] = getattr(choice, "region", None)
    if choice.type == "final_conquest" and (state.rng is None or pick % 2):
        payload["die"] = (pick // 3) % 4
    return payload


@SETTINGS
@given(start=positions(), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_tokens_are_conserved_through_any_sequence_of_legal_actions(
        start: dict[str, Any], picks: list[int]) -> None:
    state = RegionConquestState.model_validate(start)
    totals = {p.id: tokens_of(start, p.id) for p in state.players}
    for pick in picks:
        payload = _play(state, pick)
        if payload is None:
            break
        before = state.model_dump()
        ruling = RULESET.ruling(state, _action(payload))
        outcome = ruling.outcome
        assert outcome.legal, (payload, [v.message for v in outcome.violations])
        assert outcome.state is not None
        for p in outcome.state["players"]:
            assert tokens_of(outcome.state, p["id"]) == totals[p["id"]]
            assert p["hand"] >= 0 and p["awaiting_redeployment"] >= 0
        if payload["type"] == "conquer":
            me = next(p for p in outcome.state["players"] if p["id"] == payload["player"])
            was = next(p for p in before["players"] if p["id"] == payload["player"])
            assert me["hand"] == was["hand"] - restated_cost(before, payload["player"],
                                                             payload["region"])
        nxt = ruling.result.model if ruling.result is not None else None
        assert isinstance(nxt, RegionConquestState)
        compile_board(nxt)      # still a well-formed state
        state = nxt


@SETTINGS
@given(start=positions(), which=st.integers(0, 3))
def test_the_cost_matches_the_rulebook_restated(start: dict[str, Any], which: int) -> None:
    player = start["players"][which % len(start["players"])]["id"]
    query = RULESET.queries["conquest-cost"]
    answer = query.run(query.request.model_validate({"state": start, "player": player}))
    hand = next(p["hand"] for p in start["players"] if p["id"] == player)
    for cost in answer.model_dump()["costs"]:
        total = restated_cost(start, player, cost["region"])
        assert cost["total"] == total
        assert cost["total"] == max(1, cost["subtotal"])
        assert cost["subtotal"] == (cost["base"] + sum(cost["markers"].values())
                                    + sum(d["tokens"] for d in cost["defenders"]))
        assert cost["affordable"] == (hand >= total)
        assert cost["winning_die_results"] == sorted(
            {d for d in (0, 0, 0, 1, 2, 3) if 1 <= hand < total <= hand + d})


@SETTINGS
@given(start=positions())
def test_legal_actions_and_validate_agree_on_every_region(start: dict[str, Any]) -> None:
    state = RegionConquestState.model_validate(start)
    player = state.turn.player
    listed = list(RULESET.legal_actions(compile_board(state), player))
    conquer = {a.region for a in listed if a.type == "conquer"}
    final = {a.region for a in listed if a.type == "final_conquest"}
    hand = state.players[0].hand
    for region in state.regions:
        outcome = RULESET.validate(state, _action(
            {"type": "conquer", "player": player, "region": region.id}))
        assert outcome.legal == (region.id in conquer), [v.code for v in outcome.violations]
        if outcome.legal:
            assert outcome.state is not None
            assert outcome.state["players"][0]["hand"] >= 0
            assert outcome.state["players"][0]["hand"] < hand
        outcome = RULESET.validate(state, _action(
            {"type": "final_conquest", "player": player, "region": region.id, "die": 3}))
        assert outcome.legal == (region.id in final), [v.code for v in outcome.violations]
    ended = RULESET.validate(state, _action({"type": "end_turn", "player": player}))
    assert ended.legal == any(a.type == "end_turn" for a in listed)


@SETTINGS
@given(start=positions(small_world=False), region=st.integers(0, 20),
       kind=st.sampled_from(["conquer", "final_conquest"]), die=st.none() | st.integers(0, 3),
       mode=st.sampled_from(["strict", "advisory"]))
def test_any_conquest_is_deterministic_and_leaves_a_well_formed_state(
        start: dict[str, Any], region: int, kind: str, die: int | None, mode: str) -> None:
    state = RegionConquestState.model_validate(start)
    target = state.regions[region % len(state.regions)].id
    payload: dict[str, Any] = {"type": kind, "player": "p0", "region": target}
    if kind == "final_conquest" and die is not None:
        payload["die"] = die
    before = state.model_dump()
    first = RULESET.validate(state, _action(payload), mode)  # type: ignore[arg-type]
    again = RULESET.validate(state, _action(payload), mode)  # type: ignore[arg-type]
    assert first.model_dump() == again.model_dump()
    assert state.model_dump() == before
    if first.state is not None:
        assert first.applied and (first.legal or mode == "advisory")
        nxt = RegionConquestState.model_validate(first.state)
        compile_board(nxt)
        for p in first.state["players"]:
            assert tokens_of(first.state, p["id"]) == tokens_of(before, p["id"])
    else:
        assert not first.legal


@SETTINGS
@given(start=positions(small_world=False),
       moves=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(1, 6)),
                      max_size=4),
       placements=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 20), st.integers(1, 4)),
                           max_size=4),
       mode=st.sampled_from(["strict", "advisory"]))
def test_any_redeployment_conserves_tokens_or_is_refused(
        start: dict[str, Any], moves: list[tuple[int, int, int]],
        placements: list[tuple[int, int, int]], mode: str) -> None:
    state = RegionConquestState.model_validate(start)
    ids = [r.id for r in state.regions]
    players = [p.id for p in state.players]
    payload = {
        "type": "redeploy", "player": "p0",
        "moves": [{"from_region": ids[a % len(ids)], "to_region": ids[b % len(ids)],
                   "tokens": n} for a, b, n in moves if a % len(ids) != b % len(ids)],
        "placements": [{"player": players[k % len(players)], "region": ids[r % len(ids)],
                        "tokens": n} for k, r, n in placements]}
    outcome = RULESET.validate(state, _action(payload), mode)  # type: ignore[arg-type]
    if outcome.state is None:
        assert not outcome.legal
        return
    compile_board(RegionConquestState.model_validate(outcome.state))
    for p in state.players:
        assert tokens_of(outcome.state, p.id) == tokens_of(start, p.id)
    assert all(p["awaiting_redeployment"] == 0 for p in outcome.state["players"])

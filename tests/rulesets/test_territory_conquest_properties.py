"""Property tests of territory_conquest (hypothesis, modest example counts): through any
sequence of legal actions each player keeps exactly 12 pawns and soldier tokens never go
negative; two consecutive stops always end the phase; and any action at all is either
judged or refused as malformed, never crashing, with a legal outcome's state consistent."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.engine.errors import InvalidInput
from arbiter.rulesets.territory_conquest import RULESET
from arbiter.rulesets.territory_conquest.board import compile_board
from arbiter.rulesets.territory_conquest.models import (
    TerritoryConquestAction,
    TerritoryConquestState,
)
from arbiter.rulesets.territory_conquest.order import to_act

from .territory_conquest_boards import (
    BLUE,
    RED,
    TERRITORIES,
    mid_phase_state,
    setup_state,
    worked_example_state,
)

# The engine's legal-actions of territory_conquest (``arbiter.engine.legal``).
TerritoryConquestLegalActionsRequest = RULESET.queries["legal-actions"].request
legal_actions = RULESET.queries["legal-actions"].run

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
TERRITORY_IDS = [t["id"] for t in TERRITORIES]
LOCATION_IDS = [b["id"] for t in TERRITORIES for b in t.get("bonus_locations", [])]


@st.composite
def start_states(draw: st.DrawFn) -> dict[str, Any]:
    """The set-up board with any soldier tokens and first player, or a later position with
    any soldier tokens (its turn record already says who is to act)."""
    kind = draw(st.sampled_from(["setup", "example", "mid"]))
    if kind == "setup":
        return setup_state(draw(st.integers(0, 9)), draw(st.integers(0, 9)),
                           draw(st.sampled_from([RED, BLUE])))
    start = worked_example_state() if kind == "example" else mid_phase_state()
    for p in start["players"]:
        p["soldier_tokens"] = draw(st.integers(0, 12))
    return start


def legal_options(state: TerritoryConquestState) -> list[dict[str, Any]]:
    """The legal actions of the player to act: the first 40 listed, and stop."""
    who = to_act(state)
    assert who is not None
    answer = legal_actions(TerritoryConquestLegalActionsRequest(state=state, player=who,
                                                                limit=40))
    options = [a.model_dump(mode="json") for a in answer.actions]
    stop = {"type": "stop", "player": who}
    # The player to act may always stop: the listing ends with it, unless cut before.
    assert answer.truncated or options[-1] == stop
    return options if options[-1] == stop else [*options, stop]


def apply(state: TerritoryConquestState, action: dict[str, Any]) -> TerritoryConquestState:
    ruling = RULESET.ruling(state, TerritoryConquestAction.model_validate(action))
    outcome = ruling.outcome
    assert outcome.legal, (action, [v.message for v in outcome.violations])
    new = ruling.result.model if ruling.result is not None else None
    assert isinstance(new, TerritoryConquestState)
    return new


def assert_consistent(state: TerritoryConquestState) -> None:
    compile_board(state)   # raises on any inconsistency (pawns, tokens, turn record)
    for p in state.players:
        assert p.reserve + sum(p.armies.values()) == 12
        assert min(p.reserve, p.soldier_tokens, p.trap_tokens, p.spy_tokens,
                   *p.armies.values()) >= 0


def play(start: dict[str, Any], picks: list[int]) -> TerritoryConquestState:
    """Play legal actions chosen by ``picks`` until they run out or the phase ends,
    checking the invariants after each."""
    state = TerritoryConquestState.model_validate(start)
    for pick in picks:
        if state.conquest.ended:
            break
        options = legal_options(state)
        state = apply(state, options[pick % len(options)])
        assert_consistent(state)
    return state


@SETTINGS
@given(start=start_states(), picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=25))
def test_pawns_conserved_and_soldier_tokens_never_negative(start: dict[str, Any],
                                                           picks: list[int]) -> None:
    assert_consistent(TerritoryConquestState.model_validate(start))
    play(start, picks)


@SETTINGS
@given(start=start_states(), picks=st.lists(st.integers(0, 10_000), max_size=10))
def test_two_consecutive_stops_always_end_the_phase(start: dict[str, Any],
                                                    picks: list[int]) -> None:
    state = play(start, picks)
    if state.conquest.ended:
        return
    first = to_act(state)
    assert first is not None
    second = BLUE if first == RED else RED
    last = state.conquest.last_actions
    opponent_just_stopped = bool(last) and last[-1].type == "stop"
    state = apply(state, {"type": "stop", "player": first})
    # The stop just played and the opponent's before it are already two in a row.
    assert state.conquest.ended == opponent_just_stopped
    if not state.conquest.ended:
        state = apply(state, {"type": "stop", "player": second})
    assert state.conquest.ended and to_act(state) is None
    for who in (RED, BLUE):
        outcome = RULESET.validate(state, TerritoryConquestAction.model_validate(
            {"type": "recruit", "player": who, "count": 1}))
        assert [v.code for v in outcome.violations] == ["phase_over"]


sources = st.lists(st.fixed_dictionaries({
    "territory": st.sampled_from([*TERRITORY_IDS, "atlantis"]),
    "count": st.integers(-1, 6),
    "from_bonus_locations": st.lists(st.sampled_from(LOCATION_IDS), max_size=2),
}), max_size=3)

any_action = st.one_of(
    st.fixed_dictionaries({"type": st.just("recruit"),
                           "player": st.sampled_from([RED, BLUE, "green"]),
                           "count": st.integers(-2, 14)}),
    st.fixed_dictionaries({"type": st.just("move"), "player": st.sampled_from([RED, BLUE]),
                           "destination": st.sampled_from([*TERRITORY_IDS, "atlantis"]),
                           "sources": sources,
                           "placement": st.lists(st.sampled_from(LOCATION_IDS), max_size=3)}),
    st.fixed_dictionaries({"type": st.just("stop"), "player": st.sampled_from([RED, BLUE])}),
)


@SETTINGS
@given(start=start_states(), action=any_action, mode=st.sampled_from(["strict", "advisory"]))
def test_any_action_is_judged_or_malformed_never_a_crash(start: dict[str, Any],
                                                         action: dict[str, Any],
                                                         mode: Any) -> None:
    state = TerritoryConquestState.model_validate(start)
    try:
        ruling = RULESET.ruling(state, TerritoryConquestAction.model_validate(action), mode)
        outcome = ruling.outcome
    except InvalidInput as exc:
        assert all(p.pointer.startswith("/action/") for p in exc.problems)
        return
    assert outcome.legal == (not outcome.violations)
    new = ruling.result.model if ruling.result is not None else None
    if outcome.legal:
        assert isinstance(new, TerritoryConquestState)
    if isinstance(new, TerritoryConquestState):
        assert_consistent(new)

"""Invariants of ``phased_orders``, checked with hypothesis on random turns: resolution is
deterministic for a seed and decisions; pending decisions, answered with their own
options, always lead to a resolved turn; no unit shares a hex with an enemy after combat
(nor with any unit at the end of the turn); no pool, store or cargo goes below zero at
any point of the trace; the trace replayed from the start state gives the end state; and
what ``legal-actions`` lists, ``validate`` accepts."""

from __future__ import annotations

from itertools import combinations
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


def _melees_leave_one_side(start: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """combat.1: "Combat continues until only one remains" - after phase 12 no hex holds
    units of two sides, and every hex a melee was fought on holds a unit: the winners the
    melee names, all still standing."""
    after = replay(start, [e for e in events if e["params"]["phase"] <= 12])
    assert _sides_sharing(after) == []
    standing = {u["id"]: (u["hex"]["q"], u["hex"]["r"]) for u in after["units"]}
    melees = [e for e in events if e["kind"] == "combat_began"]
    won = [e for e in events if e["kind"] == "combat_won"]
    assert len(won) == len(melees), [e["kind"] for e in events]
    for began, outcome in zip(melees, won, strict=True):
        spot = (began["params"]["hex"]["q"], began["params"]["hex"]["r"])
        assert outcome["params"]["winners"], "a melee left no unit standing"
        assert all(standing.get(w) == spot for w in outcome["params"]["winners"])
        sides = began["params"]["sides"]
        assert sum(1 for side in sides if set(side) & set(outcome["params"]["winners"])) == 1


@SETTINGS
@given(turn=turns(), picks=PICKS)
def test_no_unit_shares_a_hex_with_an_enemy_after_combat(
        turn: tuple[dict[str, Any], dict[str, Any]], picks: list[int]) -> None:
    state, action = turn
    outcome, _ = settle(state, action, picks)
    assert outcome.state is not None
    start = PhasedOrdersState.model_validate(state).model_dump(mode="json")
    events = [e.model_dump(mode="json") for e in outcome.events]
    _melees_leave_one_side(start, events)
    spots = [(u["hex"]["q"], u["hex"]["r"]) for u in outcome.state["units"]]
    assert len(spots) == len(set(spots)), "two units end the turn on one hex"


CENTRE_RING = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


@st.composite
def brawls(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two to four players, each with one unit on the ring around (0,0) (and maybe one
    holding (0,0)), every ring unit ordered onto (0,0): units of every strength and hit
    points meet there, at war or neither allied nor at war (a communique, answered by the
    picks), so melees of two to five sides, equal ones among them, are common."""
    ids = [f"p{i}" for i in range(draw(st.integers(2, 4)))]
    relations: dict[str, dict[str, str]] = {p: {} for p in ids}
    for a, b in combinations(ids, 2):
        if draw(st.integers(0, 3)):
            relations[a][b] = relations[b][a] = "war"
    players = [{"id": p, "relations": relations[p]} for p in ids]
    spots = draw(st.permutations(CENTRE_RING))
    units = []
    for i, owner in enumerate(ids):
        hp = draw(st.integers(1, 4))
        units.append(_unit(f"u{i}", owner, *spots[i], move=draw(st.integers(1, 3)),
                           hit_points=hp, max_hit_points=hp,
                           strength=draw(st.integers(1, 4))))
    holder = draw(st.sampled_from([None, *ids]))
    if holder is not None:
        hp = draw(st.integers(1, 4))
        units.append(_unit("h", holder, 0, 0, hit_points=hp, max_hit_points=hp,
                           strength=draw(st.integers(1, 4))))
    state = {"hexes": [{"q": 0, "r": 0}] + [{"q": q, "r": r} for q, r in CENTRE_RING],
             "players": players, "units": units, "rng": draw(st.integers(0, 2 ** 64 - 1))}
    orders = [{"order": "move", "player": u["owner"], "unit": u["id"],
               "path": [{"q": 0, "r": 0}]} for u in units if u["id"] != "h"]
    return state, {"type": "resolve", "orders": orders}


@settings(max_examples=150, deadline=None)
@given(turn=brawls(), picks=PICKS)
def test_every_melee_leaves_exactly_one_side(turn: tuple[dict[str, Any], dict[str, Any]],
                                             picks: list[int]) -> None:
    state, action = turn
    outcome, _ = settle(state, action, picks)
    assert outcome.legal, [v.message for v in outcome.violations]
    start = PhasedOrdersState.model_validate(state).model_dump(mode="json")
    events = [e.model_dump(mode="json") for e in outcome.events]
    _melees_leave_one_side(start, events)
    assert outcome.state is not None
    assert outcome.state["units"], "the melee on (0,0) left no unit"


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


# Unit ids drawn from an alphabet with the decision ids' separators and lookalikes in it.
UNIT_IDS = st.text(alphabet="ab:+.,-", min_size=1, max_size=4)


@settings(max_examples=80, deadline=None)
@given(ids=st.lists(UNIT_IDS, min_size=4, max_size=4, unique=True))
def test_two_archer_decisions_always_get_two_ids(ids: list[str]) -> None:
    """Two flyers each flying over an enemy archer in the same step: either a unit id holds
    a separator of the decision ids (':' or '+') and the state is malformed at that id, or
    the two pending decisions have two different ids, each answerable on its own."""
    from arbiter.engine.errors import InvalidInput

    flyer1, archer1, flyer2, archer2 = ids
    state = {"hexes": [{"q": q, "r": r} for r in range(3) for q in range(3)],
             "players": [{"id": "red", "relations": {"blue": "war"}},
                         {"id": "blue", "relations": {"red": "war"}}],
             "units": [_unit(flyer1, "red", 0, 0, flying=True),
                       _unit(archer1, "blue", 1, 0, archer=True, range=1),
                       _unit(flyer2, "red", 0, 2, flying=True),
                       _unit(archer2, "blue", 1, 2, archer=True, range=1)]}
    action = {"type": "resolve", "orders": [
        {"order": "move", "player": "red", "unit": flyer1, "path": [{"q": 1, "r": 0},
                                                                  {"q": 2, "r": 0}]},
        {"order": "move", "player": "red", "unit": flyer2, "path": [{"q": 1, "r": 2},
                                                                  {"q": 2, "r": 2}]}]}
    bad = [f"/state/units/{i}/id" for i, u in enumerate(ids) if ":" in u or "+" in u]
    try:
        outcome = RULESET.validate(state, action)
    except InvalidInput as caught:
        assert bad and sorted(p.pointer for p in caught.problems) == bad
        return
    assert not bad
    asked = [q["id"] for q in outcome.derived["pending_decisions"]]
    assert sorted(asked) == sorted({f"archer:{archer1}:{flyer1}", f"archer:{archer2}:{flyer2}"})
    assert len(set(asked)) == 2
    answered = RULESET.validate(state, {**action, "decisions": [
        {"id": f"archer:{archer1}:{flyer1}", "choice": "attack"},
        {"id": f"archer:{archer2}:{flyer2}", "choice": "let_pass"}]})
    assert answered.legal
    assert [r["code"] for r in answered.derived["results"]] == ["halted_by_archer", "moved"]


def _unit(uid: str, owner: str, q: int, r: int, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "owner": owner, "type": "infantry", "hex": {"q": q, "r": r},
            "move": 4, "hit_points": 3, "max_hit_points": 3, "strength": 1,
            "free_upkeep": True, **extra}

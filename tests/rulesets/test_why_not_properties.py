"""``why-not`` agrees with ``validate`` and with the reachability queries, on every
ruleset's golden states and on random positions (its board strategy, or positions played
on from its golden states: ``contract.under_test``):

- for every place why-not explains, validating the action it implies gives exactly the
  violations it listed (the same codes, rules, messages, params and ``at``, in order), and
  it says ``possible`` exactly when that action is legal;
- for every place ``reachable`` / ``conquest-cost`` lists as open now (or, for the
  rulesets without one, a restatement: a unit's hexes within its move, an empty cell on the
  player's turn), why-not says it is possible.

Each test prints how many places it checked (``pytest -s``)."""

from __future__ import annotations

import functools
import json
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from arbiter.engine.errors import InvalidInput
from arbiter.rulesets.hex_maneuver.why_not import TABLE_DRAWS
from contract.under_test import DEFAULT_IDS, by_default

State = dict[str, Any]
Ask = dict[str, Any]

# Places asked per state at most (evenly spread): a golden map of 100 hexes and 8 armies
# would otherwise ask 800 questions of one state.
PER_STATE = 80
SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _spread(asks: list[Ask]) -> list[Ask]:
    if len(asks) <= PER_STATE:
        return asks
    step = len(asks) / PER_STATE
    return [asks[int(i * step)] for i in range(PER_STATE)]


def _hex(h: dict[str, Any]) -> dict[str, int]:
    return {"q": h["q"], "r": h["r"]}


# -- the places asked about, and the places the rulesets' own queries say are open ---------

def _query(ruleset_id: str, name: str, request: dict[str, Any]) -> Any:
    query = by_default(ruleset_id).ruleset.queries[name]
    return query.run(query.request.model_validate(request)).model_dump(mode="json")


def hex_asks(state: State) -> list[Ask]:
    return [{"army": a["id"], "hex": _hex(h)} for a in state["armies"] for h in state["hexes"]]


def hex_open(state: State) -> Iterator[Ask]:
    for a in state["armies"]:
        answer = _query("hex_maneuver", "reachable", {"state": state, "army": a["id"]})
        for d in answer["destinations"]:
            yield {"army": a["id"], "hex": d["hex"]}


def region_asks(state: State) -> list[Ask]:
    return [{"player": p["id"], "region": r["id"]} for p in state["players"]
            for r in state["regions"]]


def region_open(state: State) -> Iterator[Ask]:
    for p in state["players"]:
        answer = _query("region_conquest", "conquest-cost", {"state": state, "player": p["id"]})
        for c in answer["costs"]:
            if c["affordable"] and not c["blocked_by"]:
                yield {"player": p["id"], "region": c["region"]}


def territory_asks(state: State) -> list[Ask]:
    return [{"player": p["id"], "territory": t["id"]} for p in state["players"]
            for t in state["territories"]]


def territory_open(state: State) -> Iterator[Ask]:
    standing = _query("territory_conquest", "standing", {"state": state})
    for p in state["players"]:
        if p["id"] not in _to_act(standing):
            continue  # conquest-cost's routes are "turn aside"
        answer = _query("territory_conquest", "conquest-cost", {"state": state, "player": p["id"]})
        for t in answer["targets"]:
            route = t["with_double_move" if answer["holds_double_move"] else "without_double_move"]
            # Its own territory needs nothing and is no conquest: no move is implied.
            if route["feasible"] and t["status"] in ("neutral", "enemy"):
                yield {"player": p["id"], "territory": t["territory"]}


def _to_act(standing: dict[str, Any]) -> set[str]:
    if standing.get("phase_ended"):
        return set()
    nxt = standing.get("to_act")
    return {nxt} if isinstance(nxt, str) else set(nxt or ())


def area_asks(state: State) -> list[Ask]:
    return [{"player": p["id"], "area": a["id"]} for p in state["players"]
            for a in state["areas"]]


def area_open(state: State) -> Iterator[Ask]:
    for p in state["players"]:
        answer = _query("area_movement", "reachable", {"state": state, "player": p["id"]})
        if not answer["may_move_now"]:
            continue
        for land in answer["land"]:
            for to in land["to"]:
                yield {"player": p["id"], "area": to}


def phased_asks(state: State) -> list[Ask]:
    return [{"unit": u["id"], "hex": _hex(h)} for u in state["units"] for h in state["hexes"]]


def phased_open(state: State) -> Iterator[Ask]:
    """A player's unit may be ordered to any hex within its move by the map's hexes
    (movement.1): restated here as a breadth-first walk."""
    on_map = {(h["q"], h["r"]) for h in state["hexes"]}
    players = {p["id"] for p in state["players"]}
    for u in state["units"]:
        if u["owner"] not in players:
            continue
        start = (u["hex"]["q"], u["hex"]["r"])
        seen = {start: 0}
        queue = deque([start])
        while queue:
            q, r = queue.popleft()
            if seen[(q, r)] == u["move"]:
                continue
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
                n = (q + dq, r + dr)
                if n in on_map and n not in seen:
                    seen[n] = seen[(q, r)] + 1
                    queue.append(n)
        for q, r in seen:
            yield {"unit": u["id"], "hex": {"q": q, "r": r}}


def toy_asks(state: State) -> list[Ask]:
    return [{"player": p["id"], "cell": c} for p in state["players"] for c in range(9)]


def toy_open(state: State) -> Iterator[Ask]:
    for p in state["players"]:
        answer = _query("tic_tac_toe", "legal-actions", {"state": state, "player": p["id"]})
        for action in answer["actions"]:
            if action["type"] == "place":
                yield {"player": p["id"], "cell": action["cell"]}


PLACES: dict[str, tuple[Callable[[State], list[Ask]], Callable[[State], Iterator[Ask]]]] = {
    "hex_maneuver": (hex_asks, hex_open),
    "region_conquest": (region_asks, region_open),
    "territory_conquest": (territory_asks, territory_open),
    "area_movement": (area_asks, area_open),
    "phased_orders": (phased_asks, phased_open),
    "tic_tac_toe": (toy_asks, toy_open),
}


# -- the properties --------------------------------------------------------------------------

def why_not(ruleset_id: str, state: State, ask: Ask) -> dict[str, Any]:
    return _query(ruleset_id, "why-not", {"state": state, **ask})


def check_state(ruleset_id: str, state: State, counts: dict[str, int]) -> None:
    ruleset = by_default(ruleset_id).ruleset
    asks, open_now = PLACES[ruleset_id]
    for ask in _spread(asks(state)):
        answer = why_not(ruleset_id, state, ask)
        counts["explained"] += 1
        if answer["action"] is None:
            assert not answer["possible"], ask
            continue
        outcome = ruleset.validate(state, answer["action"]).model_dump(mode="json")
        assert answer["violations"] == outcome["violations"], (ask, answer["action"])
        assert answer["possible"] is outcome["legal"], (ask, answer["action"])
        counts["judged"] += 1
    for ask in _spread(list(open_now(state))):
        answer = why_not(ruleset_id, state, ask)
        counts["open"] += 1
        codes = {v["code"] for v in answer["violations"]}
        if codes and codes <= TABLE_DRAWS:
            # hex_maneuver in table mode: an exploration is listed, and is legal once the
            # action names what was drawn at the table, which why-not cannot know.
            assert "report_the_draws" in {c["code"] for c in answer["changes"]}
            counts["open_given_the_draws"] = counts.get("open_given_the_draws", 0) + 1
            continue
        assert answer["possible"], (ask, answer["violations"], answer["changes"])


@pytest.mark.parametrize("ruleset_id", DEFAULT_IDS)
def test_why_not_agrees_with_validate_and_reachability(ruleset_id: str) -> None:
    u = by_default(ruleset_id)
    golden = {"explained": 0, "judged": 0, "open": 0}
    for state in u.golden:
        check_state(ruleset_id, state, golden)
    drawn = {"explained": 0, "judged": 0, "open": 0, "states": 0}

    @SETTINGS
    @given(state=u.subject.states)
    def on_random_positions(state: State) -> None:
        drawn["states"] += 1
        check_state(ruleset_id, state, drawn)

    on_random_positions()
    print(f"\n{ruleset_id}: golden {len(u.golden)} states, {golden}; random {drawn}")
    assert golden["explained"] and golden["judged"] and golden["open"]


# -- a step of a plan ------------------------------------------------------------------------
#
# For the rulesets whose actions are plans of steps, why-not also explains one step of a
# plan. Over the plans of their golden validate cases and random plans on random positions,
# the violations why-not lists step by step are, together, exactly those validate gives for
# the plan that carry a step (``at.step``).

STEPPED = {"area_movement": ({"movement"}, "steps"),
           "phased_orders": ({"submit", "resolve"}, "orders")}
Plan = dict[str, Any]


def golden_plans(ruleset_id: str) -> list[tuple[State, Plan]]:
    kinds, _ = STEPPED[ruleset_id]
    found = []
    for path in sorted(by_default(ruleset_id).cases.glob("**/*.json")):
        case = json.loads(path.read_text())
        action = case.get("action")
        if isinstance(action, dict) and action.get("type") in kinds and "state" in case:
            found.append((case["state"], action))
    return found


@st.composite
def area_plans(draw: st.DrawFn, state: State) -> Plan:
    areas = [a["id"] for a in state["areas"]]
    player = draw(st.sampled_from([p["id"] for p in state["players"]]))
    steps = [{"type": "move_tokens", "from_area": a, "to_area": b, "count": n}
             for a, b, n in draw(st.lists(st.tuples(st.sampled_from(areas),
                                                    st.sampled_from(areas),
                                                    st.integers(1, 3)), min_size=1, max_size=4))]
    return {"type": "movement", "player": player, "steps": steps}


@st.composite
def phased_plans(draw: st.DrawFn, state: State) -> Plan:
    """A player's orders: each of some of his units holds or moves along a random walk of
    map hexes (so the path is well formed; its length is the rules' business)."""
    on_map = {(h["q"], h["r"]) for h in state["hexes"]}
    owners = sorted({u["owner"] for u in state["units"]} & {p["id"] for p in state["players"]})
    assume(owners)  # no player with a unit: no orders to explain
    player = draw(st.sampled_from(owners))
    orders = []
    for u in state["units"]:
        if u["owner"] != player or not draw(st.booleans()):
            continue
        h, path = (u["hex"]["q"], u["hex"]["r"]), []
        for _ in range(draw(st.integers(0, 6))):
            nexts = [(h[0] + dq, h[1] + dr) for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0),
                                                           (-1, 1), (0, 1))]
            h = draw(st.sampled_from([n for n in nexts if n in on_map] or [h]))
            path.append({"q": h[0], "r": h[1]})
        orders.append({"order": "move", "player": player, "unit": u["id"], "path": path}
                      if path else {"order": "hold", "player": player, "unit": u["id"]})
    return {"type": "submit", "player": player, "orders": orders}


def check_plan(ruleset_id: str, state: State, plan: Plan, counts: dict[str, int]) -> None:
    _, steps = STEPPED[ruleset_id]
    try:
        outcome = by_default(ruleset_id).ruleset.validate(state, plan).model_dump(mode="json")
    except (InvalidInput, ValidationError):
        counts["malformed"] += 1  # a plan validate cannot judge has no step to explain
        return
    told = []
    for i in range(len(plan[steps])):
        answer = why_not(ruleset_id, state, {"plan": plan, "step": i})
        assert all(v["at"]["step"] == i for v in answer["violations"]), (plan, i)
        if answer["possible"]:
            assert not answer["violations"], (plan, i)
        told += answer["violations"]
        counts["steps"] += 1
    located = [v for v in outcome["violations"] if v["at"]["step"] is not None]
    key = functools.partial(json.dumps, sort_keys=True)
    assert sorted(map(key, told)) == sorted(map(key, located)), plan
    counts["plans"] += 1
    counts["violations"] += len(told)


@pytest.mark.parametrize("ruleset_id", [r for r in STEPPED if r in DEFAULT_IDS])
def test_why_not_at_each_step_tells_what_validate_locates_there(ruleset_id: str) -> None:
    u = by_default(ruleset_id)
    golden = {"plans": 0, "steps": 0, "violations": 0, "malformed": 0}
    for state, plan in golden_plans(ruleset_id):
        check_plan(ruleset_id, state, plan, golden)
    drawn = {"plans": 0, "steps": 0, "violations": 0, "malformed": 0}
    plans = area_plans if ruleset_id == "area_movement" else phased_plans

    @settings(SETTINGS, max_examples=60)
    @given(data=st.data())
    def on_random_plans(data: st.DataObject) -> None:
        state = data.draw(u.subject.states, label="state")
        check_plan(ruleset_id, state, data.draw(plans(state), label="plan"), drawn)

    on_random_plans()
    print(f"\n{ruleset_id} steps: golden {golden}; random {drawn}")
    assert golden["plans"] and golden["violations"] and drawn["plans"]

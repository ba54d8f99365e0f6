"""hex_maneuver invariants on random boards (hypothesis): units are conserved by every
legal maneuver, a legal path never costs more than the movement points (+1 on a march),
``reachable`` equals a brute-force enumeration of paths judged by ``validate``, every
listed legal action is legal, and judging twice gives the same answer. And a resulting
state is always a state: a merge past the unit count bound is a 422 on the action."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.rulesets import hex_maneuver_cases

from arbiter.engine.errors import InvalidInput
from arbiter.engine.hexgrid import neighbours, spiral
from arbiter.engine.wire import MAX_COUNT
from arbiter.rulesets import load

RULESET = load("hex_maneuver")
TERRAINS = ["plains", "plains", "plains", "forest", "hills", "mountains", "swamp", "sea",
            "ocean"]
LAND_UNITS = ["peasants", "swordsmen", "archers", "cavalrymen", "catapult"]


def test_committed_cases_match_their_builder() -> None:
    for name, body in hex_maneuver_cases.CASES.items():
        path = hex_maneuver_cases.OUT / f"{name}.json"
        assert json.loads(path.read_text()) == body, f"{name}: run the builder"
    assert {p.stem for p in hex_maneuver_cases.OUT.glob("*.json")} == set(hex_maneuver_cases.CASES)


@st.composite
def boards(draw: st.DrawFn) -> dict[str, Any]:
    cells = spiral((0, 0), 2)
    terrain = {h: draw(st.sampled_from(TERRAINS)) for h in cells}
    terrain[(0, 0)] = "plains"
    hexes = [{"q": q, "r": r, "terrain": terrain[(q, r)], "province": "p"} for q, r in cells]
    free = [h for h in cells if h != (0, 0)]
    units = draw(st.dictionaries(st.sampled_from(LAND_UNITS), st.integers(1, 3), min_size=1,
                                 max_size=3))
    armies = [{"id": "a", "owner": "red", "hex": {"q": 0, "r": 0}, "units": units}]
    spots = draw(st.lists(st.sampled_from(free), unique=True, max_size=5))
    for i, spot in enumerate(spots):
        owner = draw(st.sampled_from(["red", "blue"]))
        water = terrain[spot] in ("sea", "ocean")
        kind = "galley" if water else draw(st.sampled_from(LAND_UNITS))
        armies.append({"id": f"x{i}", "owner": owner, "hex": {"q": spot[0], "r": spot[1]},
                       "units": {kind: draw(st.integers(1, 2))},
                       "depletion": draw(st.sampled_from([0, 0, 1]))})
    structures = []
    land_free = [h for h in free if terrain[h] not in ("sea", "ocean") and h not in spots]
    for i, spot in enumerate(draw(st.lists(st.sampled_from(land_free), unique=True, max_size=2))
                             if land_free else []):
        structures.append({"id": f"s{i}", "kind": "city", "owner": draw(
            st.sampled_from(["red", "blue"])), "hex": {"q": spot[0], "r": spot[1]}})
    return {"hexes": hexes, "players": [{"id": "red"}, {"id": "blue"}], "armies": armies,
            "structures": structures}


def judge(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    outcome = RULESET.validate(RULESET.state_model.model_validate(state),
                               RULESET.action_model.model_validate(action))
    return outcome.model_dump(mode="json")


def legal_walks(state: dict[str, Any], cells: set[tuple[int, int]]
                ) -> list[tuple[list[tuple[int, int]], dict[str, Any]]]:
    """Every simple path from the army's hex that validate judges legal (on a march), with
    its outcome. A path's cost never falls as it grows and its violations stay, so the
    search only extends legal paths; revisiting a hex never makes a path cheaper."""
    found = []
    stack: list[list[tuple[int, int]]] = [[]]
    while stack:
        walk = stack.pop()
        action = {"type": "maneuver", "player": "red", "army": "a", "path": path_json(walk),
                  "march": True}
        out = judge(state, action)
        if not out["legal"]:
            continue
        found.append((walk, out))
        here = walk[-1] if walk else (0, 0)
        stack += [[*walk, n] for n in neighbours(here)
                  if n in cells and n not in walk and n != (0, 0)]
    return found


def units_by_owner(state: dict[str, Any]) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for army in state["armies"]:
        out.setdefault(army["owner"], Counter()).update(army["units"])
    return out


def path_json(path: list[tuple[int, int]]) -> list[dict[str, int]]:
    return [{"q": q, "r": r} for q, r in path]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_reachable_equals_brute_force_and_legal_moves_conserve_units(state: dict[str, Any]
                                                                     ) -> None:
    before = json.dumps(state, sort_keys=True)
    cells = {(h["q"], h["r"]) for h in state["hexes"]}
    reach = RULESET.queries["reachable"]
    answer = reach.run(reach.request.model_validate({"state": state, "army": "a"}))
    listed = {(d.hex.q, d.hex.r): d for d in answer.destinations}
    points = answer.movement_points

    best: dict[tuple[int, int], int] = {}
    for walk, out in legal_walks(state, cells):
        cost = out["derived"]["cost"]
        assert cost <= out["derived"]["movement_points"] == points + 1
        assert units_by_owner(out["state"]) == units_by_owner(state)
        end = walk[-1] if walk else (0, 0)
        best[end] = min(best.get(end, cost), cost)
    assert {h: d.cost for h, d in listed.items()} == best
    for h, d in listed.items():
        assert d.march == (d.cost > points)
        out = judge(state, {"type": "maneuver", "player": "red", "army": "a",
                            "path": [p.model_dump() for p in d.path], "march": d.march})
        assert out["legal"], (h, out["violations"])
        assert out["derived"]["cost"] == d.cost
    assert json.dumps(state, sort_keys=True) == before


@settings(max_examples=40, deadline=None)
@given(boards(), st.lists(st.integers(0, 5), max_size=4), st.booleans(), st.data())
def test_any_judged_move_is_deterministic_and_bounded(state: dict[str, Any], turns: list[int],
                                                      march: bool, data: st.DataObject) -> None:
    path, at = [], (0, 0)
    for t in turns:
        at = neighbours(at)[t]
        path.append(at)
    cells = {(h["q"], h["r"]) for h in state["hexes"]}
    if any(p not in cells for p in path):
        return
    army = state["armies"][0]
    units = {u: data.draw(st.integers(0, c)) for u, c in army["units"].items()}
    if sum(units.values()) == 0:
        return
    action = {"type": "maneuver", "player": "red", "army": "a", "units": units,
              "path": path_json(path), "march": march}
    first, second = judge(state, action), judge(state, action)
    assert first == second
    if first["legal"]:
        assert first["derived"]["cost"] <= first["derived"]["movement_points"]
        assert units_by_owner(first["state"]) == units_by_owner(state)
        RULESET.state_model.model_validate(first["state"])
        moved = [a for a in first["state"]["armies"] if a["depletion"] > 0 and a["owner"] ==
                 "red" and (a["hex"]["q"], a["hex"]["r"]) == (path[-1] if path else (0, 0))]
        assert moved, "the arriving army carries a depletion cube"


@settings(max_examples=20, deadline=None)
@given(boards())
def test_every_listed_legal_action_is_legal(state: dict[str, Any]) -> None:
    query = RULESET.queries["legal-actions"]
    answer = query.run(query.request.model_validate({"state": state, "player": "red",
                                                     "limit": 10_000}))
    assert answer.count == len(answer.actions) and not answer.truncated
    armies = {a.army for a in answer.actions}
    for action in answer.actions:
        out = judge(state, action.model_dump(mode="json"))
        assert out["legal"], out["violations"]
    undepleted = {a["id"] for a in state["armies"] if a["owner"] == "red" and
                  not a.get("depletion")}
    assert armies == undepleted  # every undepleted army may at least stay put


def test_legal_actions_are_bounded_by_limit() -> None:
    state = hex_maneuver_cases.state(hex_maneuver_cases.grid(3), [
        hex_maneuver_cases.army("a", "red", (0, 0), cavalrymen=1)])
    query = RULESET.queries["legal-actions"]
    answer = query.run(query.request.model_validate({"state": state, "player": "red",
                                                     "limit": 5}))
    assert answer.truncated and answer.count == 5
    full = query.run(query.request.model_validate({"state": state, "player": "red"}))
    assert not full.truncated and full.count == 37  # every hex within 3 + ... on radius 3
    assert list(itertools.islice((a.path for a in full.actions), 1)) == [[]]


def test_a_merge_past_the_unit_count_bound_is_refused_at_the_action() -> None:
    # merge.1 meets the wire's bound on a unit count (10,000): 6,000 + 6,000 cavalrymen
    # cannot make one army, as the resulting state would not be a state. The move itself
    # breaks no rule (1 MP of a cavalryman's 3), so it is no violation: the engine refuses
    # the resulting state (judging.settle) with a 422 naming the action that produces it.
    cases = hex_maneuver_cases
    big = 6_000
    assert 2 * big > MAX_COUNT
    st_ = cases.state(cases.grid(2), [cases.army("a", "red", (0, 0), cavalrymen=big),
                                      cases.army("b", "red", (1, -1), cavalrymen=big)])
    state = RULESET.state_model.model_validate(st_)
    merge = RULESET.action_model.model_validate(cases.maneuver("red", "a", [(1, 0)]))
    with pytest.raises(InvalidInput) as refused:
        RULESET.validate(state, RULESET.action_model.model_validate(
            cases.maneuver("red", "a", [(1, -1)])), "advisory")
    assert [p.pointer for p in refused.value.problems] == ["/action"]
    assert "/armies/0/units/cavalrymen" in refused.value.problems[0].detail

    # In a sequence, the second action is judged against the state the first produced,
    # which is not in the request: its problem names that action, never a field of /state
    # (the service places it under /actions/1: tests/api/test_rest.py).
    first_move = RULESET.action_model.model_validate(cases.maneuver("red", "b", [(1, 0)]))
    outcomes = RULESET.validate_batch(state, [first_move, merge], sequence=True)
    first = next(outcomes)
    assert first.legal and first.applied and first.state is not None
    with pytest.raises(InvalidInput) as refused:
        next(outcomes)
    assert [p.pointer for p in refused.value.problems] == ["/action"]

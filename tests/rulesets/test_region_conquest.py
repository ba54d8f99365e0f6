"""Unit tests of ``region_conquest``: metadata, malformed states, conquests, the
reinforcement die, redeployment and the end of the turn, the queries, the Small World
maps and the benchmark body. The rules' sentences themselves are golden cases
(tests/cases/region_conquest); these tests cover what a case cannot say."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from arbiter.engine.errors import InvalidInput
from arbiter.engine.rng import SeededRng
from arbiter.engine.ruleset import describe
from arbiter.rulesets import builtin_registry
from arbiter.rulesets.region_conquest import RULESET
from arbiter.rulesets.region_conquest.board import compile_board
from arbiter.rulesets.region_conquest.models import RegionConquestAction, RegionConquestState

from .region_conquest_boards import (
    restated_cost,
    small_world_map_names,
    small_world_regions,
    small_world_state,
    tokens_of,
)

CASES = Path(__file__).resolve().parents[1] / "cases" / "region_conquest"
BENCH = Path(__file__).resolve().parents[1] / "bench" / "boards_region_conquest.py"

# The valley of the golden cases, in short: sea and hills and peak on the edge, shore on
# the sea, meadow inland, woods on a lake, marsh and keep further in.
VALLEY_PAIRS = [("sea", "shore"), ("sea", "hills"), ("shore", "meadow"), ("hills", "meadow"),
                ("hills", "peak"), ("meadow", "lake"), ("meadow", "woods"), ("meadow", "peak"),
                ("lake", "woods"), ("woods", "peak"), ("woods", "marsh"), ("marsh", "keep")]
VALLEY_KINDS = {"sea": "sea", "shore": "farmland", "hills": "hill", "meadow": "farmland",
                "lake": "lake", "woods": "forest", "peak": "mountain", "marsh": "swamp",
                "keep": "hill"}


def valley(players: list[dict[str, Any]], **turn: Any) -> dict[str, Any]:
    regions = []
    for rid, kind in VALLEY_KINDS.items():
        regions.append({"id": rid, "kind": kind, "edge": rid in ("sea", "hills", "peak"),
                        "adjacent": [b if a == rid else a for a, b in VALLEY_PAIRS
                                     if rid in (a, b)],
                        "markers": {"mountain": 1} if rid == "peak" else {}})
    return {"regions": regions, "players": players,
            "turn": {"player": players[0]["id"], **turn}}


def validate(state: dict[str, Any], action: dict[str, Any], mode: str = "strict") -> Any:
    return RULESET.validate(RegionConquestState.model_validate(state),
                            RegionConquestAction.model_validate(action), mode)  # type: ignore[arg-type]


def codes(outcome: Any) -> list[str]:
    return sorted(v.code for v in outcome.violations)


def pointers(state: dict[str, Any], action: dict[str, Any]) -> list[str]:
    with pytest.raises(InvalidInput) as exc:
        validate(state, action)
    return sorted(p.pointer for p in exc.value.problems)


def player(outcome: Any, pid: str) -> dict[str, Any]:
    return next(p for p in outcome.state["players"] if p["id"] == pid)


# --- metadata -------------------------------------------------------------------------------

def test_rule_ids_follow_the_scheme_and_every_code_cites_a_listed_rule() -> None:
    ids = {r.id for r in RULESET.rules}
    assert all(re.fullmatch(r"region_conquest/[a-z]+\.\d+", i) for i in ids)
    for example in ("cost.1", "first.1", "adjacent.1", "water.1", "hand.1", "losses.1",
                    "losses.2", "decline.1", "reinforce.1", "redeploy.1"):
        assert f"region_conquest/{example}" in ids
    assert {c.rule for c in RULESET.codes.values()} <= ids
    assert {e.rule for e in RULESET.event_kinds.values()} <= ids
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", c) for c in RULESET.codes)


def test_registry_serves_it_and_describes_it_as_json() -> None:
    ruleset = builtin_registry().get("region_conquest")
    assert ruleset is RULESET
    described = json.loads(json.dumps(describe(RULESET)))
    assert described["action_types"] == ["conquer", "final_conquest", "redeploy", "end_turn"]
    assert described["queries"] == ["conquest-cost", "legal-actions", "render", "why-not"]
    assert described["catalogues"]["reinforcement_die"] == [0, 0, 0, 1, 2, 3]


def test_query_responses_are_plain_data_without_unions() -> None:
    # why-not answers validate's violations (a violation's location may name a hex or
    # nothing) and the ruleset's action union: validate's own shapes, not the query's.
    for query in (q for q in RULESET.queries.values() if q.name != "why-not"):
        schema = json.dumps(query.response.model_json_schema())
        for union in re.findall(r'"anyOf": \[(.*?)\]', schema):
            assert union.count('"type"') == 2 and '"null"' in union, union


def test_examples_run() -> None:
    outcome = RULESET.validate(RULESET.examples.state, RULESET.examples.action)
    assert outcome.legal
    for query in RULESET.queries.values():
        for example in query.examples:
            query.run(query.request.model_validate(example))


# --- malformed states and actions -------------------------------------------------------------

def test_negative_counts_and_impossible_die_are_refused_by_the_models() -> None:
    state = valley([{"id": "orcs", "hand": -1}])
    with pytest.raises(ValidationError) as exc:
        RegionConquestState.model_validate(state)
    assert exc.value.errors()[0]["loc"] == ("players", 0, "hand")
    with pytest.raises(ValidationError):
        RegionConquestAction.model_validate(
            {"type": "final_conquest", "player": "orcs", "region": "meadow", "die": 4})
    state = valley([{"id": "orcs", "active": {"hills": 0}}])
    with pytest.raises(ValidationError):
        RegionConquestState.model_validate(state)


def test_every_problem_of_a_state_is_reported_at_once() -> None:
    state = valley([{"id": "orcs", "active": {"cave": 1}}, {"id": "orcs"}], player="orcs")
    state["regions"][0]["adjacent"].append("sea")     # the sea borders itself
    state["regions"][1]["adjacent"].append("sea")     # the shore lists the sea twice
    assert pointers(state, {"type": "end_turn", "player": "orcs"}) == [
        "/state/players/0/active/cave", "/state/players/1/id",
        "/state/regions/0/adjacent/2", "/state/regions/1/adjacent/2"]


def test_malformed_actions_point_into_the_action() -> None:
    state = valley([{"id": "orcs", "hand": 3, "active": {"hills": 3}}, {"id": "elves"}])
    assert pointers(state, {"type": "conquer", "player": "trolls", "region": "cave"}) == [
        "/action/player", "/action/region"]
    assert pointers(state, {"type": "redeploy", "player": "orcs",
                            "moves": [{"from_region": "hills", "to_region": "hills",
                                       "tokens": 1}],
                            "placements": [{"player": "trolls", "region": "hills",
                                            "tokens": 1}]}) == [
        "/action/moves/0/to_region", "/action/placements/0/player"]


def test_a_batch_points_at_the_bad_action() -> None:
    state = RegionConquestState.model_validate(valley([{"id": "orcs", "hand": 3}]))
    actions = [RegionConquestAction.model_validate(a) for a in (
        {"type": "conquer", "player": "orcs", "region": "hills"},
        {"type": "conquer", "player": "orcs", "region": "cave"})]
    outcomes = RULESET.validate_batch(state, actions, sequence=True)
    assert next(outcomes).legal
    with pytest.raises(InvalidInput) as exc:
        next(outcomes)
    # The engine names the action it judges; the API puts it under /actions/1.
    assert [p.pointer for p in exc.value.problems] == ["/action/region"]


def test_an_overflowing_result_is_a_422_not_a_crash() -> None:
    state = valley([{"id": "orcs", "active": {"hills": 1}, "coins": 10**9}], redeployed=True)
    with pytest.raises(InvalidInput) as exc:
        validate(state, {"type": "end_turn", "player": "orcs"})
    # The pointer names the action (what would overflow); the detail names the field.
    assert [p.pointer for p in exc.value.problems] == ["/action"]
    assert "/players/0/coins" in exc.value.problems[0].detail


# --- conquests ------------------------------------------------------------------------------

def test_the_worked_example_is_one_sequence() -> None:
    first = json.loads((CASES / "worked_example_1_lost_tribe_hills.json").read_text())
    second = json.loads((CASES / "worked_example_2_elves_farmland.json").read_text())
    outcome = validate(first["state"], first["action"])
    assert outcome.state == second["state"]
    state = RegionConquestState.model_validate(first["state"])
    batch = list(RULESET.validate_batch(state, [
        RegionConquestAction.model_validate(first["action"]),
        RegionConquestAction.model_validate(second["action"])], sequence=True))
    assert [o.legal for o in batch] == [True, True]
    assert player(batch[1], "orcs")["active"] == {"hills": 3, "meadow": 4}
    assert player(batch[1], "elves")["active"] == {}


def test_validate_never_mutates_its_input() -> None:
    state = RegionConquestState.model_validate(valley(
        [{"id": "orcs", "hand": 9, "active": {"hills": 3}}, {"id": "elves",
                                                             "active": {"meadow": 3}}]))
    before = state.model_dump()
    for action in ({"type": "conquer", "player": "orcs", "region": "meadow"},
                   {"type": "final_conquest", "player": "orcs", "region": "meadow", "die": 1},
                   {"type": "redeploy", "player": "orcs"},
                   {"type": "end_turn", "player": "orcs"}):
        RULESET.validate(state, RegionConquestAction.model_validate(action), "advisory")
    assert state.model_dump() == before


def test_every_violation_of_a_conquest_is_found() -> None:
    state = valley([{"id": "orcs", "hand": 1}, {"id": "elves"}])
    outcome = validate(state, {"type": "conquer", "player": "orcs", "region": "lake"})
    assert codes(outcome) == ["not_enough_tokens", "not_on_border", "water_region"]
    refused = next(v for v in outcome.violations if v.code == "not_enough_tokens")
    assert refused.params == {"region": "lake", "cost": 2, "hand": 1}
    assert refused.rule == "region_conquest/hand.1"
    assert refused.at.region == "lake"


def test_exact_resulting_state_of_a_conquest_with_losses() -> None:
    state = valley([{"id": "orcs", "hand": 6, "active": {"hills": 3}},
                    {"id": "elves", "active": {"meadow": 3, "woods": 1}, "tray": 2}],
                   conquered=["hills"])
    outcome = validate(state, {"type": "conquer", "player": "orcs", "region": "meadow"})
    assert outcome.state["players"] == [
        {"id": "orcs", "hand": 1, "active": {"hills": 3, "meadow": 5}, "in_decline": {},
         "awaiting_redeployment": 0, "tray": 0, "coins": 0},
        {"id": "elves", "hand": 0, "active": {"woods": 1}, "in_decline": {},
         "awaiting_redeployment": 2, "tray": 3, "coins": 0}]
    assert outcome.state["turn"]["conquered"] == ["hills", "meadow"]
    assert outcome.reversible


def test_final_conquest_digital_mode_rolls_with_the_seed_and_returns_the_next_one() -> None:
    state = valley([{"id": "orcs", "hand": 2, "active": {"hills": 3}},
                    {"id": "elves", "active": {"meadow": 2}}])
    action = {"type": "final_conquest", "player": "orcs", "region": "meadow"}
    for seed in range(40):
        rng = SeededRng(seed)
        die = rng.roll((0, 0, 0, 1, 2, 3))
        outcome = validate({**state, "rng": seed}, action)
        assert outcome.legal and not outcome.reversible
        assert outcome.state["rng"] == rng.state
        assert outcome.events[0].params["die"] == die
        won = "meadow" in player(outcome, "orcs")["active"]
        assert won == (2 + die >= 4)
        assert validate({**state, "rng": seed}, action) == outcome


def test_final_conquest_table_mode_leaves_the_seed_alone() -> None:
    state = {**valley([{"id": "orcs", "hand": 2, "active": {"hills": 3}},
                       {"id": "elves", "active": {"meadow": 2}}]), "rng": 7}
    outcome = validate(state, {"type": "final_conquest", "player": "orcs", "region": "meadow",
                               "die": 3})
    assert outcome.state["rng"] == 7
    assert player(outcome, "orcs")["active"] == {"hills": 3, "meadow": 2}
    assert player(outcome, "orcs")["hand"] == 0


def test_first_conquest_enters_by_the_sea_only_when_the_sea_is_at_the_edge() -> None:
    state = valley([{"id": "orcs", "hand": 5}])
    state["regions"][0]["edge"] = False     # the sea no longer reaches the edge
    outcome = validate(state, {"type": "conquer", "player": "orcs", "region": "shore"})
    assert codes(outcome) == ["not_on_border"]


# --- redeployment and the end of the turn ---------------------------------------------------------

def test_advisory_redeployment_may_empty_a_region() -> None:
    state = valley([{"id": "orcs", "active": {"hills": 3, "meadow": 2}}], conquered=["meadow"])
    outcome = validate(state, {"type": "redeploy", "player": "orcs", "moves": [
        {"from_region": "meadow", "to_region": "hills", "tokens": 2}]}, "advisory")
    assert codes(outcome) == ["region_left_empty"] and outcome.applied
    assert player(outcome, "orcs")["active"] == {"hills": 5}
    # The emptied region stays in the turn's history, and the state is still judgeable.
    assert outcome.state["turn"]["conquered"] == ["meadow"]
    compile_board(RegionConquestState.model_validate(outcome.state))


def test_moves_apply_in_order() -> None:
    state = valley([{"id": "orcs", "active": {"hills": 1, "meadow": 4, "peak": 1}}])
    outcome = validate(state, {"type": "redeploy", "player": "orcs", "moves": [
        {"from_region": "meadow", "to_region": "hills", "tokens": 3},
        {"from_region": "hills", "to_region": "peak", "tokens": 3}]})
    assert outcome.legal
    assert player(outcome, "orcs")["active"] == {"hills": 1, "meadow": 1, "peak": 4}


def test_end_turn_wraps_round_and_hands_back_tokens_with_nowhere_to_go() -> None:
    state = valley([{"id": "elves", "hand": 2, "awaiting_redeployment": 0},
                    {"id": "orcs", "active": {"meadow": 2}, "awaiting_redeployment": 3}])
    state["turn"] = {"player": "orcs"}
    state["players"][0]["awaiting_redeployment"] = 3
    state["players"][1]["awaiting_redeployment"] = 0
    outcome = validate(state, {"type": "end_turn", "player": "orcs"})
    assert outcome.legal, outcome.violations
    assert [e.kind for e in outcome.events] == ["kept_for_first_conquest", "coins_scored",
                                                "turn_passed"]
    assert player(outcome, "elves")["hand"] == 5
    assert player(outcome, "orcs")["coins"] == 1
    assert outcome.state["turn"] == {"player": "elves", "conquered": [],
                                     "reinforcement_used": False, "redeployed": False}


def test_end_turn_without_regions_keeps_the_hand() -> None:
    state = valley([{"id": "orcs", "hand": 4}, {"id": "elves"}],
                   reinforcement_used=True)
    outcome = validate(state, {"type": "end_turn", "player": "orcs"})
    assert outcome.legal
    assert player(outcome, "orcs")["hand"] == 4


# --- queries ----------------------------------------------------------------------------------

def run_query(name: str, body: dict[str, Any]) -> dict[str, Any]:
    query = RULESET.queries[name]
    result: dict[str, Any] = query.run(query.request.model_validate(body)).model_dump(mode="json")
    return result


def test_queries_point_at_unknown_players_and_targets() -> None:
    state = valley([{"id": "orcs", "hand": 3}])
    with pytest.raises(InvalidInput) as exc:
        run_query("conquest-cost", {"state": state, "player": "trolls"})
    assert [p.pointer for p in exc.value.problems] == ["/player"]
    with pytest.raises(InvalidInput) as exc:
        run_query("conquest-cost", {"state": state, "player": "orcs",
                                    "targets": ["hills", "cave"]})
    assert [p.pointer for p in exc.value.problems] == ["/targets/1"]
    with pytest.raises(InvalidInput):
        run_query("legal-actions", {"state": state, "player": "trolls"})


def test_after_the_final_conquest_only_redeploy_and_end_turn_are_listed() -> None:
    state = valley([{"id": "orcs", "hand": 5, "active": {"hills": 3}}],
                   reinforcement_used=True)
    answer = run_query("legal-actions", {"state": state, "player": "orcs"})
    # The 5 tokens in hand may stay there: nothing holds back the end of the turn.
    assert [a["type"] for a in answer["actions"]] == ["redeploy", "end_turn"]
    answer = run_query("conquest-cost", {"state": state, "player": "orcs",
                                         "targets": ["meadow"]})
    assert answer["reinforcement_available"] is False
    assert answer["costs"][0]["blocked_by"] == ["conquests_ended"]


# --- the Small World maps ---------------------------------------------------------------------

SW = small_world_map_names()


@pytest.mark.parametrize("name", SW)
def test_small_world_maps_compile_and_enter_by_their_border(name: str) -> None:
    state = RegionConquestState.model_validate(small_world_state(name))
    board = compile_board(state)
    regions = {r["id"]: r for r in small_world_regions(name)}
    edge_seas = {rid for rid, r in regions.items() if r["kind"] == "sea" and r["edge"]}
    expected = {rid for rid, r in regions.items()
                if r["edge"] or edge_seas & set(r["adjacent"])}
    assert board.border == expected
    answer = run_query("legal-actions", {"state": state.model_dump(), "player": "p0",
                                         "limit": 1000})
    conquests = {a["region"] for a in answer["actions"] if a["type"] == "conquer"}
    assert answer["first_conquest"]
    assert conquests == {r for r in expected if regions[r]["kind"] not in ("sea", "lake")}
    costs = run_query("conquest-cost", {"state": state.model_dump(), "player": "p0"})["costs"]
    assert [c["total"] for c in costs] == [
        restated_cost(state.model_dump(), "p0", r) for r in regions]


def test_a_small_world_turn_from_entry_to_score() -> None:
    state = small_world_state("standard_2_players")
    regions = {r["id"]: r for r in state["regions"]}
    # Enter through a Lost Tribe region at the edge, as in the rulebook's example.
    entry = next(rid for rid, r in regions.items()
                 if r["edge"] and r["lost_tribe"] and r["kind"] not in ("sea", "lake"))
    outcome = validate(state, {"type": "conquer", "player": "p0", "region": entry})
    assert outcome.legal and player(outcome, "p0")["hand"] == 7
    next_door = next(n for n in regions[entry]["adjacent"]
                     if regions[n]["kind"] not in ("sea", "lake"))
    outcome = validate(outcome.state, {"type": "conquer", "player": "p0", "region": next_door})
    assert outcome.legal, outcome.violations
    hand = player(outcome, "p0")["hand"]
    outcome = validate(outcome.state, {"type": "redeploy", "player": "p0", "placements": [
        {"player": "p0", "region": entry, "tokens": hand}]})
    assert outcome.legal
    outcome = validate(outcome.state, {"type": "end_turn", "player": "p0"})
    assert player(outcome, "p0")["coins"] == 2
    assert tokens_of(outcome.state, "p0") == 10
    assert outcome.state["turn"]["player"] == "p1"


# --- the benchmark body -------------------------------------------------------------------------

def _bench_module() -> Any:
    spec = importlib.util.spec_from_file_location("boards_region_conquest", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("n", [40, 2000])
def test_bench_body_is_deterministic_and_realistic(n: int) -> None:
    bench = _bench_module()
    body = bench.conquest_cost_request(n)
    assert body == bench.conquest_cost_request(n)
    answer = run_query("conquest-cost", copy.deepcopy(body))
    assert len(answer["costs"]) == n
    assert answer["hand"] == 7 and not answer["first_conquest"]
    assert any(c["affordable"] and not c["blocked_by"] for c in answer["costs"])
    assert any("water_region" in c["blocked_by"] for c in answer["costs"])
    assert any(c["defenders"] for c in answer["costs"])
    assert body["state"]["turn"]["conquered"]

"""Unit tests of territory_conquest: registration and metadata, the pieces of the rules
(reach and double move, turn record, bonus tallies), the queries' 422s, and agreement
between legal-actions, conquest-cost and validate on the illustrative board."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from arbiter.engine.errors import InvalidInput
from arbiter.engine.ruleset import Ruleset, describe
from arbiter.rulesets import builtin_registry
from arbiter.rulesets.territory_conquest import RULESET
from arbiter.rulesets.territory_conquest.board import compile_board
from arbiter.rulesets.territory_conquest.models import (
    TerritoryConquestAction,
    TerritoryConquestMove,
    TerritoryConquestState,
)
from arbiter.rulesets.territory_conquest.move import reach
from arbiter.rulesets.territory_conquest.queries import (
    TerritoryConquestConquestCostRequest,
    TerritoryConquestStandingRequest,
)
from arbiter.rulesets.territory_conquest.queries import run_conquest_cost as conquest_cost
from arbiter.rulesets.territory_conquest.queries import run_standing as standing

from .territory_conquest_boards import (
    BLUE,
    RED,
    WORKED_EXAMPLE_MOVE,
    mid_phase_state,
    setup_state,
    worked_example_state,
)

# The engine's legal-actions of territory_conquest (``arbiter.engine.legal``).
TerritoryConquestLegalActionsRequest = RULESET.queries["legal-actions"].request
legal_actions = RULESET.queries["legal-actions"].run


def parse(st: dict[str, Any]) -> TerritoryConquestState:
    return TerritoryConquestState.model_validate(st)


def act(action: dict[str, Any]) -> TerritoryConquestAction:
    return TerritoryConquestAction.model_validate(action)


def judge(st: dict[str, Any], action: dict[str, Any], mode: str = "strict") -> dict[str, Any]:
    outcome = RULESET.validate(parse(st), act(action), mode)  # type: ignore[arg-type]
    return outcome.model_dump(mode="json")


def pointers(exc: pytest.ExceptionInfo[InvalidInput]) -> list[str]:
    return sorted(p.pointer for p in exc.value.problems)


# --- registration and metadata -----------------------------------------------------------

def test_registered_and_satisfies_the_protocol() -> None:
    # Built the way the service builds it, narrowed to this ruleset: the others load apart.
    registry = builtin_registry("territory_conquest")
    assert registry.get("territory_conquest") is not None
    assert isinstance(RULESET, Ruleset)


def test_every_code_and_event_cites_a_listed_rule_in_the_id_scheme() -> None:
    ids = {r.id for r in RULESET.rules}
    assert all(i.startswith("territory_conquest/") for i in ids)
    for ref in [*RULESET.codes.values(), *RULESET.event_kinds.values()]:
        assert ref.rule in ids


def test_describe_lists_codes_with_templates_and_queries() -> None:
    described = describe(RULESET)
    assert described["queries"] == ["conquest-cost", "legal-actions", "render", "standing",
                                    "why-not"]
    assert {c["code"] for c in described["violation_codes"]} == set(RULESET.codes)
    assert described["action_types"] == ["recruit", "move", "stop"]


def test_models_export_json_schemas() -> None:
    for model in (RULESET.state_model, RULESET.action_model, RULESET.options_model,
                  *(q.request for q in RULESET.queries.values()),
                  *(q.response for q in RULESET.queries.values())):
        assert model.model_json_schema()


def test_the_paste_example_is_legal() -> None:
    outcome = judge(RULESET.examples.state, RULESET.examples.action)
    assert outcome["legal"], outcome["violations"]
    for q in RULESET.queries.values():
        for example in q.examples:
            q.run(q.request.model_validate(example))


# --- validate ----------------------------------------------------------------------------

def test_validate_never_mutates_the_request_state() -> None:
    model = parse(worked_example_state())
    before = model.model_dump(mode="json")
    RULESET.validate(model, act(WORKED_EXAMPLE_MOVE))
    assert model.model_dump(mode="json") == before


def test_validate_is_deterministic() -> None:
    first = judge(worked_example_state(), WORKED_EXAMPLE_MOVE)
    second = judge(worked_example_state(), WORKED_EXAMPLE_MOVE)
    assert first == second
    assert first["state_hash"] is not None


def test_worked_example_conserves_pawns_and_pays_four_tokens() -> None:
    outcome = judge(worked_example_state(), WORKED_EXAMPLE_MOVE)
    for p in outcome["state"]["players"]:
        assert p["reserve"] + sum(p["armies"].values()) == 12
    red = outcome["state"]["players"][0]
    assert red["soldier_tokens"] == 6 - 4
    compile_board(parse(outcome["state"]))  # the new state is consistent


def test_every_violation_is_reported_not_just_the_first() -> None:
    st = worked_example_state()
    st["players"][0]["soldier_tokens"] = 0
    outcome = judge(st, {**WORKED_EXAMPLE_MOVE, "destination": "centre",
                         "placement": ["centre-gold", "centre-gold"],
                         "sources": [{"territory": "south-west", "count": 1,
                                      "from_bonus_locations": []}]})
    codes = sorted(v["code"] for v in outcome["violations"])
    assert codes == ["bonus_location_named_twice", "move_short_of_soldier_tokens",
                     "not_a_majority"]


def test_advisory_mode_applies_a_non_adjacent_move_with_a_warning() -> None:
    outcome = judge(setup_state(5, 1), {
        "type": "move", "player": RED, "destination": "mines",
        "sources": [{"territory": "south-west", "count": 1,
                     "from_bonus_locations": ["south-west-materials"]}]}, mode="advisory")
    assert not outcome["legal"] and outcome["applied"]
    assert [v["severity"] for v in outcome["violations"]] == ["warning"]
    assert outcome["state"]["players"][0]["armies"]["mines"] == 1


def test_violation_messages_fill_their_templates() -> None:
    outcome = judge(worked_example_state(), {**WORKED_EXAMPLE_MOVE, "sources": [
        {"territory": "south-west", "count": 2, "from_bonus_locations": ["south-west-trap"]},
        {"territory": "south-east", "count": 1, "from_bonus_locations": []}]})
    (violation,) = outcome["violations"]
    assert violation["message"] == ("3 armies move into centre, which is not more than the 3 "
                                     "enemy armies there")
    assert violation["rule"] == "territory_conquest/move.2"


def test_a_sequence_of_two_stops_ends_the_phase_and_refuses_more() -> None:
    actions = [act({"type": "stop", "player": RED}), act({"type": "stop", "player": BLUE}),
               act({"type": "recruit", "player": RED, "count": 1})]
    outcomes = list(RULESET.validate_batch(parse(setup_state(4, 4)), actions, sequence=True))
    assert [o.legal for o in outcomes] == [True, True, False]
    assert outcomes[1].state is not None and outcomes[1].state["conquest"]["ended"]
    assert [v.code for v in outcomes[2].violations] == ["phase_over"]


# --- reach and double move ---------------------------------------------------------------

def test_reach_adjacent_only_without_double_move() -> None:
    board = compile_board(parse(worked_example_state()))
    found = reach(board, RED, "centre", double_move=False)
    assert list(found) == ["south-east", "south-west", "west"]
    assert {r.distance for r in found.values()} == {1}


def test_double_move_never_passes_the_opponent_castle() -> None:
    # A small board where the only way from a to c is through Blue's (empty) castle.
    st = {
        "territories": [
            {"id": "red-castle"}, {"id": "blue-castle"},
            {"id": "a", "bonus_locations": [{"id": "a-double", "effect": "double_move"}]},
            {"id": "c", "bonus_locations": [{"id": "c-gold", "effect": "production",
                                             "icons": {"gold": 1}}]}],
        "adjacent": [["red-castle", "a"], ["a", "blue-castle"], ["blue-castle", "c"]],
        "players": [
            {"id": RED, "castle": "red-castle", "reserve": 10, "armies": {"a": 2},
             "on_bonus_locations": ["a-double"], "soldier_tokens": 3},
            {"id": BLUE, "castle": "blue-castle", "reserve": 12, "soldier_tokens": 1}],
        "round_first_player": RED,
    }
    outcome = judge(st, {"type": "move", "player": RED, "destination": "c",
                         "sources": [{"territory": "a", "count": 1}]})
    assert [(v["code"], v["params"]["via"]) for v in outcome["violations"]] == [
        ("double_move_blocked", ["blue-castle"])]


# --- queries -----------------------------------------------------------------------------

def test_query_with_unknown_player_is_422() -> None:
    with pytest.raises(InvalidInput) as exc:
        conquest_cost(TerritoryConquestConquestCostRequest(state=parse(setup_state()),
                                                           player="green"))
    assert pointers(exc) == ["/player"]


def test_conquest_cost_with_unknown_target_is_422() -> None:
    with pytest.raises(InvalidInput) as exc:
        conquest_cost(TerritoryConquestConquestCostRequest(
            state=parse(setup_state()), player=RED, targets=["centre", "atlantis"]))
    assert pointers(exc) == ["/targets/1"]


def test_conquest_cost_covers_every_territory_by_default() -> None:
    answer = conquest_cost(TerritoryConquestConquestCostRequest(state=parse(mid_phase_state()),
                                                                player=RED))
    assert [t.territory for t in answer.targets] == sorted(
        t["id"] for t in mid_phase_state()["territories"])
    assert answer.holds_double_move


@pytest.mark.parametrize("make_state", [worked_example_state, mid_phase_state])
def test_every_feasible_conquest_plan_is_a_legal_move(make_state: Any) -> None:
    st = make_state()
    answer = conquest_cost(TerritoryConquestConquestCostRequest(state=parse(st), player=RED))
    route_of = "with_double_move" if answer.holds_double_move else "without_double_move"
    checked = 0
    for target in answer.targets:
        route = getattr(target, route_of)
        if target.status.value in ("neutral", "enemy") and route.feasible:
            action = {"type": "move", "player": RED, "destination": target.territory,
                      "sources": [s.model_dump(mode="json") for s in route.plan]}
            outcome = judge(st, action)
            assert outcome["legal"], (target.territory, outcome["violations"])
            assert outcome["derived"]["moved"] == target.pawns_needed
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("make_state", [setup_state, worked_example_state, mid_phase_state])
def test_every_listed_legal_action_is_legal(make_state: Any) -> None:
    st = make_state()
    board = compile_board(parse(st))
    for who in (RED, BLUE):
        answer = legal_actions(TerritoryConquestLegalActionsRequest(state=parse(st),
                                                                    player=who, limit=200))
        for action in answer.actions:
            outcome = judge(st, action.model_dump(mode="json"))
            assert outcome["legal"], (action, outcome["violations"])
        assert board is not None


def moves_of(answer: Any) -> list[TerritoryConquestMove]:
    return [a for a in answer.actions if isinstance(a, TerritoryConquestMove)]


def test_legal_moves_include_double_moves_when_held() -> None:
    answer = legal_actions(TerritoryConquestLegalActionsRequest(state=parse(mid_phase_state()),
                                                                player=RED, limit=10_000))
    assert not answer.truncated
    sources = {s.territory for m in moves_of(answer) if m.destination == "north-west"
               for s in m.sources}
    # Neither southern territory borders the north-west: both are a double move away
    # (the south-west through the inner sea, the west or the centre; the south-east through
    # the centre), all of them Red's own territories.
    assert {"south-west", "south-east"} <= sources
    assert "red-castle" not in sources  # three territories away


def test_illegal_moves_are_not_listed() -> None:
    answer = legal_actions(TerritoryConquestLegalActionsRequest(
        state=parse(worked_example_state()), player=RED, limit=10_000))
    moves = moves_of(answer)
    into_centre = [m for m in moves if m.destination == "centre"]
    assert into_centre and all(sum(s.count for s in m.sources) >= 4 for m in into_centre)
    assert all(m.destination != "blue-castle" for m in moves)
    assert all(sum(s.count for s in m.sources) <= 6 for m in moves)


def test_standing_reports_next_player_and_tallies() -> None:
    answer = standing(TerritoryConquestStandingRequest(state=parse(mid_phase_state())))
    red, blue = answer.players
    assert answer.to_act == RED and not answer.phase_ended
    assert red.double_move and blue.double_move
    assert red.production == {"energy": 1, "gold": 2, "materials": 2, "science": 1}
    assert blue.krystallium == 1 and blue.spy_tokens == 1


# --- malformed states beyond the golden cases --------------------------------------------

def test_duplicate_bonus_location_ids_are_422() -> None:
    st = setup_state()
    st["territories"][3]["bonus_locations"][0]["id"] = "south-west-trap"
    with pytest.raises(InvalidInput) as exc:
        compile_board(parse(st))
    assert "/state/territories/3/bonus_locations/0/id" in pointers(exc)


def test_ended_without_two_stops_is_422() -> None:
    st = setup_state()
    st["conquest"] = {"ended": True, "stopped": [RED]}
    with pytest.raises(InvalidInput) as exc:
        compile_board(parse(st))
    assert pointers(exc) == ["/state/conquest/ended"]


def test_castle_with_bonus_locations_is_422() -> None:
    st = copy.deepcopy(setup_state())
    st["territories"][0]["bonus_locations"] = [{"id": "keep", "effect": "double_move"}]
    with pytest.raises(InvalidInput) as exc:
        compile_board(parse(st))
    assert pointers(exc) == ["/state/territories/0/bonus_locations"]


def test_pawn_in_the_opponent_castle_is_422() -> None:
    st = setup_state()
    st["players"][0]["armies"]["blue-castle"] = 1
    st["players"][0]["reserve"] = 7
    with pytest.raises(InvalidInput) as exc:
        compile_board(parse(st))
    assert pointers(exc) == ["/state/players/0/armies/blue-castle"]


# --- review: derived facts and leaving pawns ---------------------------------------------

def test_a_move_without_a_majority_costs_the_enemy_no_bonus() -> None:
    # Without a majority the move cannot happen: nobody goes home, Blue keeps its bonuses.
    outcome = judge(worked_example_state(), {**WORKED_EXAMPLE_MOVE, "sources": [
        {"territory": "south-west", "count": 2, "from_bonus_locations": ["south-west-trap"]},
        {"territory": "south-east", "count": 1, "from_bonus_locations": []}]})
    assert outcome["derived"]["bonuses_lost"] == {RED: ["south-west-trap"]}
    assert outcome["derived"]["losses"] == 0


def test_every_pawn_leaving_empties_every_location_named_or_not() -> None:
    # One of two locations named, both pawns leave: both bonuses go, the trap token too.
    outcome = judge(setup_state(4, 1), {
        "type": "move", "player": RED, "destination": "centre",
        "sources": [{"territory": "south-west", "count": 2,
                     "from_bonus_locations": ["south-west-materials"]}]})
    assert outcome["legal"], outcome["violations"]
    assert outcome["derived"]["bonuses_lost"] == {
        RED: ["south-west-materials", "south-west-trap"]}
    red = outcome["state"]["players"][0]
    assert red["trap_tokens"] == 1 and "south-west" not in red["armies"]


def test_some_pawns_leaving_unnamed_locations_is_still_422() -> None:
    # One of two pawns on bonus locations leaves: which bonus is lost is not said.
    with pytest.raises(InvalidInput) as exc:
        judge(setup_state(4, 1), {"type": "move", "player": RED, "destination": "centre",
                                  "sources": [{"territory": "south-west", "count": 1}]})
    assert pointers(exc) == ["/action/sources/0/from_bonus_locations"]


def test_a_record_naming_one_stopper_yet_ended_is_422() -> None:
    st = setup_state()
    st["conquest"] = {"ended": True, "last_actions": [{"player": RED, "type": "recruit"},
                                                      {"player": BLUE, "type": "stop"}],
                      "stopped": [BLUE]}
    with pytest.raises(InvalidInput) as exc:
        compile_board(parse(st))
    assert pointers(exc) == ["/state/conquest/ended"]

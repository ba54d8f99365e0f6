"""Unit tests of ``phased_orders``: the golden cases against their builder, the coverage
of every code, result and event by a case, the examples and queries, the replayable
trace, stable decisions and the benchmark turn. The rules' sentences themselves are
golden cases (tests/cases/phased_orders); these tests cover what a case cannot say. The
catalogue and the cases against the rules text are checked where the text is:
.ci/source_texts/test_phased_orders_sources.py."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from arbiter.engine.errors import InvalidInput
from arbiter.engine.ruleset import describe
from arbiter.rulesets import builtin_registry
from arbiter.rulesets.phased_orders import RULESET
from arbiter.rulesets.phased_orders.catalogue import CATALOGUE, RESULT_REFS, RESULTS
from arbiter.rulesets.phased_orders.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.rulesets.phased_orders.trace import REPLAY, replay

from . import phased_orders_cases as builder

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases" / "phased_orders"
PACKAGE = ROOT / "service" / "arbiter" / "rulesets" / "phased_orders"


def _cases() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(CASES.glob("*.json"))]


def test_the_registry_serves_it() -> None:
    assert builtin_registry("phased_orders").get("phased_orders") is RULESET
    assert RULESET.action_types == ("resolve", "submit")
    assert set(RULESET.queries) == {"resolve", "legal-actions", "render", "why-not"}


def test_describe_lists_rules_codes_events_and_results() -> None:
    described = describe(RULESET)
    assert {c["code"] for c in described["violation_codes"]} == set(RULESET.codes)
    results = described["catalogues"]["order_results"]
    assert [r["code"] for r in results] == [c for c, *_ in RESULTS]
    assert all(r["rule"].startswith("phased_orders/") for r in results)
    assert described["catalogues"]["phases"]["0"] == "emergency communique"


def test_the_case_files_are_what_the_builder_writes() -> None:
    from . import phased_orders_cases_spells_to_movement  # noqa: F401  (registers the later cases)

    written = {p.stem: json.loads(p.read_text()) for p in CASES.glob("*.json")}
    built = {name: json.loads(json.dumps(body)) for name, body in builder.CASES}
    assert written == built, "run: python -m tests.rulesets.phased_orders_cases"


def _shown(case: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The event kinds and result codes a case's expectation names."""
    expect = case["expect"]
    # a validate case's events are kinds; a resolve query's, events as it answers them
    kinds = {e if isinstance(e, str) else e.get("kind", "") for e in expect.get("events", [])}
    for group in expect.get("trace", []):
        kinds |= {e["kind"] for e in group.get("events", []) if "kind" in e}
    results = list(expect.get("results", [])) + list(expect.get("derived", {})
                                                     .get("results", []))
    return kinds, {r["code"] for r in results if "code" in r}


def test_every_event_kind_and_result_code_has_a_case() -> None:
    kinds: set[str] = set()
    codes: set[str] = set()
    for case in _cases():
        k, c = _shown(case)
        kinds |= k
        codes |= c
    assert set(RULESET.event_kinds) - kinds == set()
    assert {c for c, *_ in RESULTS} - codes == set()


def test_every_case_cites_the_source() -> None:
    # That the citation is in the rules text is checked where the text is:
    # .ci/source_texts/test_phased_orders_sources.py.
    for case in _cases():
        assert case["description"] and case["source"]


def test_every_state_changing_event_replays() -> None:
    unchanged = {"orders_received", "upkeep_charged", "ranged_attack", "ability_used",
                 "road_priority", "halted_by_enemy", "halted_by_enemy_flyer", "flew_over",
                 "archer_attacked", "archer_let_pass", "communique_raised",
                 "communique_answered", "combat_began", "combat_won",
                 "bandit_blocked", "bandit_no_room", "level_up_lapsed"}
    assert set(RULESET.event_kinds) - unchanged - {"upkeep_charged"} <= set(REPLAY)


def test_the_example_resolves_and_its_trace_replays() -> None:
    outcome = RULESET.validate(EXAMPLE_STATE, EXAMPLE_ACTION)
    assert outcome.legal, [v.message for v in outcome.violations]
    start = RULESET.parse_state(EXAMPLE_STATE).model_dump(mode="json")
    events = [e.model_dump(mode="json") for e in outcome.events]
    assert replay(start, events) == outcome.state
    assert all("phase" in e["params"] for e in events)
    assert all("subphase" in e["params"] for e in events if e["kind"] == "unit_moved")


def test_the_resolve_query_answers_as_validate_does() -> None:
    query = RULESET.queries["resolve"]
    body = {"state": EXAMPLE_STATE, "orders": EXAMPLE_ACTION["orders"]}
    answer = query.run(query.request.model_validate(body))
    outcome = RULESET.validate(EXAMPLE_STATE, EXAMPLE_ACTION)
    assert answer.resolved and answer.state_hash == outcome.state_hash
    assert [e for p in answer.trace for e in p.events] == outcome.events
    assert [p.phase for p in answer.trace] == [1, 3, 4, 6, 8, 9, 10, 15, 17, 19]
    assert len(answer.results) == len(EXAMPLE_ACTION["orders"])


def test_query_examples_run() -> None:
    for query in RULESET.queries.values():
        for example in query.examples:
            query.run(query.request.model_validate(example))


def test_legal_actions_of_the_example_validate() -> None:
    query = RULESET.queries["legal-actions"]
    for player in ("red", "green", "blue"):
        answer = query.run(query.request.model_validate(
            {"state": EXAMPLE_STATE, "player": player, "limit": 500}))
        assert answer.actions and not answer.truncated
        for action in answer.actions:
            assert RULESET.validate(EXAMPLE_STATE, action.model_dump()).legal


def test_pending_decisions_are_asked_the_same_way_every_time() -> None:
    from .phased_orders_cases_spells_to_movement import RED_GREEN, red_green

    first = RULESET.validate(RED_GREEN, red_green()).derived["pending_decisions"]
    again = RULESET.validate(RED_GREEN, red_green()).derived["pending_decisions"]
    assert first == again
    answers = [{"id": q["id"], "choice": "halt"} for q in first]
    resolved = [RULESET.validate(RED_GREEN, red_green(decisions=answers)) for _ in range(2)]
    assert resolved[0].legal and resolved[0].state_hash == resolved[1].state_hash


def test_pending_decisions_follow_the_catalogue_id_forms() -> None:
    """Every decision a golden case (the blind ones too) leaves pending has an id of its
    kind's form (the catalogue's ``decision_ids``) and names the unit and the player it
    is for, as the id and the state say."""
    forms = CATALOGUE.data["decision_ids"]
    patterns = {kind: re.compile("^" + re.sub(r"<[a-z]+>", "[^:+]+", re.escape(form))
                                 .replace(re.escape("..."), r"(\+[^:+]+)*") + "$")
                for kind, form in forms.items()}
    seen: set[str] = set()
    for path in sorted(CASES.glob("**/*.json")):
        case = json.loads(path.read_text())
        if "action" not in case or case["expect"].get("status") == 422:
            continue
        outcome = RULESET.validate(case["state"], case["action"], case.get("mode", "strict"))
        owners = {u["id"]: u["owner"] for u in case["state"]["units"]}
        for question in outcome.derived.get("pending_decisions", []):
            kind, unit, player = question["kind"], question["unit"], question["player"]
            assert patterns[kind].match(question["id"]), (path.name, question["id"])
            assert len(question["options"]) > 1, (path.name, question["id"])
            if kind == "archer":
                assert question["id"].split(":")[1] == unit
                assert player == (None if owners[unit] in ("bandits", "undead")
                                  else owners[unit])
            if kind == "communique":  # the contested hex and the player asked
                spot = question["hex"]
                assert question["id"] == f"communique:{spot['q']},{spot['r']}:{player}"
                assert unit is None and player in question["players"]
            if kind == "ejection":  # the stack's hex and the ejection's number
                spot = question["hex"]
                assert question["id"].startswith(f"ejection:{spot['q']},{spot['r']}:")
            if kind == "placement":
                assert question["id"] == f"placement:{unit}" and player is None
            seen.add(kind)
    assert seen == set(forms)


def test_an_answer_no_question_takes_is_refused_at_its_id() -> None:
    """Issue 30: an answer under an id the turn never asks (a typo) was silently ignored
    while the turn stopped, and listed in unused_decisions once it resolved: a 422 at the
    id now, whether the id names nothing or the turn went past it."""
    from .phased_orders_cases_spells_to_movement import RED_GREEN, answers, red_green

    for extra, detail in (({"id": "archer:x:y", "choice": "attack"}, "no archer x"),
                          ({"id": "placement:red-cavalry", "choice": "disband"},
                           "resolved without asking")):
        with pytest.raises(InvalidInput) as refused:
            RULESET.validate(RED_GREEN, red_green(decisions=[*answers("halt", "halt"), extra]))
        [problem] = refused.value.problems
        assert problem.pointer == "/action/decisions/2/id" and detail in problem.detail
    # stopped in 3e: a placement may still be asked in phase 18, so it waits
    waiting = RULESET.validate(RED_GREEN, red_green(decisions=[
        {"id": "placement:red-cavalry", "choice": "disband"}]))
    assert waiting.legal and waiting.derived["status"] == "pending"


def test_malformed_combat_survivors_and_level_ups() -> None:
    action = {"type": "resolve", "combat_results": [
        {"hex": {"q": 1, "r": 1}, "survivors": [{"unit": "ghost", "hit_points": 1}]}],
        "level_ups": [{"unit": "red-cavalry"}, {"unit": "red-cavalry"}]}
    with pytest.raises(InvalidInput) as caught:
        RULESET.validate(EXAMPLE_STATE, action)
    assert sorted(p.pointer for p in caught.value.problems) == [
        "/action/combat_results/0/survivors/0/unit", "/action/level_ups/1/unit"]


def test_malformed_orders_and_turn_data_are_reported_together() -> None:
    action = {"type": "resolve", "orders": [
        {"order": "hold", "player": "red", "unit": "green-archers"}],
        "level_ups": [{"unit": "ghost"}]}
    with pytest.raises(InvalidInput) as caught:
        RULESET.validate(EXAMPLE_STATE, action)
    assert sorted(p.pointer for p in caught.value.problems) == [
        "/action/level_ups/0/unit", "/action/orders/0/unit"]


def test_submit_of_an_unknown_player_is_malformed() -> None:
    with pytest.raises(InvalidInput) as caught:
        RULESET.validate(EXAMPLE_STATE, {"type": "submit", "player": "nobody", "orders": []})
    assert [p.pointer for p in caught.value.problems] == ["/action/player"]


def test_result_codes_cite_catalogue_rules() -> None:
    rules = {r.id for r in CATALOGUE.rules}
    assert all(ref.rule in rules for ref in RESULT_REFS.values())
    assert set(RULESET.codes) <= set(RESULT_REFS)


def test_no_function_is_longer_than_60_lines() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                assert length <= 60, f"{path.name}:{node.name} has {length} lines"


def test_the_benchmark_turn_resolves() -> None:
    from tests.bench.boards_phased_orders import resolve_request, validate_body

    request = resolve_request()
    state = request["state"]
    assert len(state["hexes"]) == 300
    assert len([u for u in state["units"] if u["owner"] not in ("bandits", "undead")]) == 40
    assert len(state["players"]) == 4
    body = validate_body()
    outcome = RULESET.validate(body["state"], body["action"])
    assert outcome.legal, [v.message for v in outcome.violations]
    assert {e.kind for e in outcome.events} >= {"unit_moved", "combat_began", "unit_ejected",
                                                 "ranged_attack", "predator_moved"}


def test_the_second_blind_review_cases_are_in_the_standard_format() -> None:
    """blind2/ holds the second blind review's 55 cases, copied as data; the golden
    runners run them, their ``blind_checks`` are the review's own."""
    blind = sorted((CASES / "blind2").glob("*.json"))
    assert len(blind) == 55
    for path in blind:
        case = json.loads(path.read_text())
        assert case["description"] and case["source"], path.name
        assert ("action" in case) != ("query" in case), path.name
        assert "expect" in case, path.name


def test_a_big_turn_looks_no_further_than_its_own_stop() -> None:
    """The look-ahead resolves the turn again per combination of answers: bounded by the
    units times combinations (answers.LOOK_AHEAD_UNITS), so a big turn asks only its stop's
    own questions - one more round trip, never an unbounded cost."""
    from arbiter.rulesets.phased_orders.answers import LOOK_AHEAD_UNITS

    from .phased_orders_cases import grid, unit
    from .phased_orders_cases_spells_to_movement import TWO_ROUNDS, TWO_ROUNDS_ORDERS

    action = {"type": "resolve", "orders": TWO_ROUNDS_ORDERS}
    asked = RULESET.validate(TWO_ROUNDS, action).derived["pending_decisions"]
    assert [q["id"] for q in asked][-1] == "ejection:1,1:1"
    idle = LOOK_AHEAD_UNITS // 4 - len(TWO_ROUNDS["units"]) + 1  # 4 combinations: 2 x 2
    big = {**TWO_ROUNDS, "hexes": grid(6, 2 + idle // 6 + 1), "units": [
        *TWO_ROUNDS["units"],
        *(unit(f"idle{i}", "green", (i % 6, 2 + i // 6)) for i in range(idle))]}
    asked = RULESET.validate(big, action).derived["pending_decisions"]
    assert [q["id"] for q in asked] == ["communique:4,0:red", "communique:4,0:green"]

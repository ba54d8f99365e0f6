"""The generic contract every ruleset must keep, each check a function of one
``RulesetUnderTest`` (``under_test.py``), so the same checks run on any registry:
``test_contract.py`` runs them on the built-in rulesets and the toy,
tests/test_sixth_ruleset.py on a ruleset registered from outside the package. ``CONTRACT``
lists them by name:

- listed legal actions validate as legal and lead to states that validate and compile;
- the legal-actions answer lists actions a client sends back unchanged to validate, legal,
  the same bytes twice, cut by ``limit`` with ``truncated``, on random positions and on
  every golden-case state, and every action type (and every kind of step, order and
  maneuver the generators document, ``KINDS``) is listed on some golden state;
- random sequences of listed actions keep every state valid, and replay the same through
  ``validate_batch``;
- every proposed candidate is well formed, and a state advisory mode produces is valid;
- the same request twice answers byte for byte the same; ``validate`` mutates neither the
  models nor the dicts it is given; a model or its JSON dict get the same answer;
- the examples compile and every query example runs;
- every ruleset answers why-not, and its reasons are validate's violations for the action
  it implies (on its example, and its example's target on every golden state);
- every violation code is expected by a golden case;
- the params of every violation and event, and the derived facts, are exactly what the
  ruleset declares, in every golden case and for every action proposed on random
  positions (judged in advisory mode, which applies what it can, so its events come too).

``listed_actions_validate_over_http`` is the one check that needs a server.
``ARBITER_CONTRACT_EXAMPLES`` sets the hypothesis examples per check and ruleset (40).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from functools import cache
from types import UnionType
from typing import Annotated, Any, get_args, get_origin

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from arbiter.engine.errors import InvalidInput
from arbiter.engine.registry import AnyRuleset
from arbiter.engine.ruleset import describe
from arbiter.engine.why_not import WHY_NOT, WhyNotAnswer

from .boards import Subject, every_player
from .checks import (
    check_candidates,
    check_codes_have_cases,
    check_declared_params,
    check_deterministic,
    check_legal_sequence,
    check_listed_actions,
    check_listing,
    check_model_or_dict_alike,
    check_no_mutation,
    compiled,
    judged,
    legal_actions,
    max_limit,
    proposed,
    spread,
)
from .under_test import RulesetUnderTest

Check = Callable[[RulesetUnderTest], None]
CONTRACT: dict[str, Check] = {}

# ARBITER_CONTRACT_EXAMPLES raises the count for a long run (the suite's default is quick).
SETTINGS = settings(max_examples=int(os.environ.get("ARBITER_CONTRACT_EXAMPLES", "40")),
                    deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def contract(check: Check) -> Check:
    CONTRACT[check.__name__] = check
    return check


def _on_positions(subject: Subject, check: Callable[[dict[str, Any]], object]) -> None:
    """``check`` on the positions ``subject`` draws."""

    @SETTINGS
    @given(state=subject.states)
    def each(state: dict[str, Any]) -> None:
        check(state)

    each()


# --- on random positions ---------------------------------------------------------------------

@contract
def listed_actions_are_legal_and_lead_to_valid_states(u: RulesetUnderTest) -> None:
    _on_positions(u.subject, lambda state: check_listed_actions(
        u.ruleset, state, u.subject.players(state)))


@contract
def legal_actions_answer_round_trips_through_validate(u: RulesetUnderTest) -> None:
    _on_positions(u.subject, lambda state: check_listing(
        u.ruleset, state, u.subject.players(state)))


@contract
def random_legal_sequences_keep_every_state_valid(u: RulesetUnderTest) -> None:
    @SETTINGS
    @given(state=u.subject.states,
           picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=8))
    def sequences(state: dict[str, Any], picks: list[int]) -> None:
        check_legal_sequence(u.ruleset, state, u.subject.players, picks)

    sequences()


@contract
def candidates_are_well_formed_and_advisory_states_valid(u: RulesetUnderTest) -> None:
    _on_positions(u.subject, lambda state: check_candidates(
        u.ruleset, state, u.subject.players(state)))


@contract
def random_positions_emit_params_and_derived_facts_as_declared(u: RulesetUnderTest) -> None:
    def every_proposal(state: dict[str, Any]) -> None:
        model, board = compiled(u.ruleset, state, "the drawn state")
        for player in u.subject.players(state):
            for action in proposed(u.ruleset, board, player):
                outcome = judged(u.ruleset, model, action, "advisory", "a proposed action")
                check_declared_params(u.ruleset, outcome, "a proposed action")

    _on_positions(u.subject, every_proposal)


# --- one request, asked several ways -----------------------------------------------------------

Request = tuple[dict[str, Any], dict[str, Any], Any]


def _requests(ruleset: AnyRuleset, subject: Subject) -> st.SearchStrategy[Request]:
    """A state, an action the generator proposes there for one of its players (legal or
    not), and a mode; the ruleset's example action when nobody has a candidate."""

    @st.composite
    def draw_request(draw: st.DrawFn) -> Request:
        state = draw(subject.states, label="state")
        _, board = compiled(ruleset, state, "the drawn state")
        options = [a for p in subject.players(state) for a in proposed(ruleset, board, p)]
        action = (draw(st.sampled_from(options), label="action").model_dump(mode="json")
                  if options else dict(ruleset.examples.action))
        return state, action, draw(st.sampled_from(("strict", "advisory")), label="mode")

    return draw_request()


def _each_request(u: RulesetUnderTest,
                  check: Callable[[AnyRuleset, dict[str, Any], dict[str, Any], Any], None]
                  ) -> None:
    @SETTINGS
    @given(request=_requests(u.ruleset, u.subject))
    def each(request: Request) -> None:
        check(u.ruleset, *request)

    each()


@contract
def the_same_request_twice_answers_byte_for_byte_the_same(u: RulesetUnderTest) -> None:
    _each_request(u, check_deterministic)


@contract
def validate_mutates_neither_models_nor_dicts(u: RulesetUnderTest) -> None:
    _each_request(u, check_no_mutation)


@contract
def a_model_or_its_json_dict_get_the_same_answer(u: RulesetUnderTest) -> None:
    _each_request(u, check_model_or_dict_alike)


# --- the information structure -----------------------------------------------------------------

@contract
def information_declares_real_fields_rules_and_actions(u: RulesetUnderTest) -> None:
    """Every hidden pointer names a list or an integer field of the state model (what a
    view shows the length of, or a seed); every rule it cites is the ruleset's; every
    private action is one of its action types; ``reads`` names declared pointers only."""
    ruleset, info = u.ruleset, u.ruleset.information
    rules = {r.id for r in ruleset.rules}
    declared = {h.pointer for h in info.hidden}
    for hidden in info.hidden:
        annotation = _field_annotation(ruleset.state_model, hidden.path)
        assert annotation in ("list", "int"), (hidden.pointer, annotation)
        assert set(hidden.rules) <= rules, hidden.rules
    for private in info.private:
        assert private.action in ruleset.action_types, private.action
        assert set(private.rules) <= rules, private.rules
    assert info.perfect == (not info.hidden and not info.private)
    for state in u.golden:
        for player in u.subject.players(state):
            board = ruleset.compile(ruleset.state_model.model_validate(state))
            for action in proposed(ruleset, board, player)[:20]:
                assert set(info.reads(action)) <= declared, info.reads(action)


def _field_annotation(model: type[Any], path: tuple[str, ...]) -> str:
    """``list`` or ``int`` for the field at ``path`` through nested models (optional
    models and fields alike), else what it is."""
    annotation: Any = model
    for name in path:
        models = [a for a in _bases(annotation) if issubclass(a, BaseModel)]
        assert models, (path, annotation)
        annotation = models[0].model_fields[name].annotation
    kinds = _bases(annotation)
    return "list" if list in kinds else "int" if int in kinds else str(annotation)


def _bases(annotation: Any) -> set[type[Any]]:
    """The classes an annotation admits, through ``Annotated``, unions and generics."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _bases(get_args(annotation)[0])
    if isinstance(origin, type) and origin is not UnionType:
        return {origin}
    if origin is None:
        return {annotation} if isinstance(annotation, type) else set()
    return set().union(*(_bases(a) for a in get_args(annotation)))


# --- examples and golden cases -------------------------------------------------------------------

@contract
def examples_compile_and_every_query_example_runs(u: RulesetUnderTest) -> None:
    ruleset = u.ruleset
    state = dict(ruleset.examples.state)
    compiled(ruleset, state, "the example state")
    judged(ruleset, state, dict(ruleset.examples.action), "strict", "the example action")
    for query in ruleset.queries.values():
        for example in query.examples:
            query.run(query.request.model_validate(example))
    describe(ruleset)


def _why_not_agrees(ruleset: AnyRuleset, request: dict[str, Any]) -> bool:
    """The why-not answer to ``request`` lists exactly the violations validate gives for
    the action it implies, and is possible exactly when that action is legal. False when
    the request names what its state does not hold (a 422)."""
    query = ruleset.queries[WHY_NOT]
    try:
        answer = query.run(query.request.model_validate(request)).model_dump(mode="json")
    except (InvalidInput, ValidationError):
        return False
    if answer["action"] is None:
        assert not answer["possible"], f"{ruleset.id}: possible with no action: {request}"
        return True
    outcome = ruleset.validate(request["state"], answer["action"]).model_dump(mode="json")
    assert answer["violations"] == outcome["violations"], (
        f"{ruleset.id}: why-not lists other violations than validate of "
        f"{json.dumps(answer['action'])[:300]}")
    assert answer["possible"] is outcome["legal"], (
        f"{ruleset.id}: {json.dumps(answer['action'])[:300]}")
    return True


@contract
def why_not_gives_validates_violations(u: RulesetUnderTest) -> None:
    """Every ruleset answers why-not (``Ruleset.why_not``), with an example; asked of the
    example and of every golden state (the example's target, where the state has it), its
    reasons are validate's violations for the action it implies."""
    ruleset = u.ruleset
    query = ruleset.queries.get(WHY_NOT)
    assert query is not None and query is ruleset.why_not, f"{u.id}: no why-not"
    assert issubclass(query.response, WhyNotAnswer), f"{u.id}: why-not answers no WhyNotAnswer"
    assert query.examples, f"{u.id}: why-not has no example"
    for example in query.examples:
        assert _why_not_agrees(ruleset, dict(example)), f"{u.id}: the why-not example is refused"
        target = {k: v for k, v in example.items() if k != "state"}
        for state in u.golden:
            _why_not_agrees(ruleset, {"state": state, **target})


@contract
def every_violation_code_has_a_golden_case(u: RulesetUnderTest) -> None:
    check_codes_have_cases(u.ruleset, u.cases)


@contract
def golden_cases_emit_params_and_derived_facts_as_declared(u: RulesetUnderTest) -> None:
    judged_cases = 0
    for path in sorted(u.cases.glob("**/*.json")):
        case = json.loads(path.read_text())
        if "query" in case:
            continue
        try:
            outcome = u.ruleset.validate(case["state"], case["action"],
                                         case.get("mode", "strict"))
        except (InvalidInput, ValidationError):
            continue
        check_declared_params(u.ruleset, outcome, str(path.relative_to(u.cases)))
        judged_cases += 1
    assert judged_cases, f"{u.id}: no golden case under {u.cases} is judged"


# What each generator documents beyond the action types (``candidates.py``): the kinds of
# maneuver, the steps of a plan, the orders of a submission. Each must be listed on some
# golden state.
KINDS: dict[str, set[str]] = {
    "hex_maneuver": {"maneuver", "explore", "stay", "march", "split", "unpack", "drop",
                     "pickup"},
    "area_movement": {"end_movement", "movement", "movement/end_movement",
                      "movement/maintain_ship", "movement/build_ship", "movement/destroy_ship",
                      "movement/move_tokens", "movement/sail", "movement/sail+embark"},
    "phased_orders": {"resolve", "submit", "submit/hold", "submit/disband", "submit/move",
                      "submit/ranged_attack", "submit/cast", "submit/ability", "submit/load",
                      "submit/unload", "submit/repair", "submit/change_sides",
                      "submit/commission"},
}


def kinds_of(action: dict[str, Any]) -> Iterator[str]:
    """The action's type, and the finer kinds ``KINDS`` names."""
    kind = action["type"]
    yield kind
    for step in action.get("steps", ()):
        yield f"{kind}/{step['type']}" + ("+embark" if step.get("embark") else "")
    for order in action.get("orders", ()) if kind == "submit" else ():
        yield f"{kind}/{order['order']}"
    if "army" in action:
        flags = {"stay": not action["path"], "march": action["march"],
                 "split": action["units"] is not None, "unpack": action.get("unpack"),
                 "drop": action.get("drops"), "pickup": action.get("pickups")}
        yield from (name for name, on in flags.items() if on)


@cache
def listed_on_golden_states(u: RulesetUnderTest) -> list[dict[str, Any]]:
    """Every action listed for every player of every golden state, each checked
    (``check_listing`` with ``every``)."""
    found: list[dict[str, Any]] = []
    for state in u.golden:
        found += check_listing(u.ruleset, state, every_player(state), every=True)
    return found


@contract
def every_action_listed_on_a_golden_state_validates_unchanged(u: RulesetUnderTest) -> None:
    assert u.golden, f"{u.id}: no golden case has a valid state"
    listed_on_golden_states(u)


@contract
def every_action_type_is_listed_on_some_golden_state(u: RulesetUnderTest) -> None:
    listed = {k for action in listed_on_golden_states(u) for k in kinds_of(action)}
    wanted = set(u.ruleset.action_types) | KINDS.get(u.id, set())
    assert wanted <= listed, f"{u.id}: never listed on a golden state: {sorted(wanted - listed)}"


# --- over HTTP ------------------------------------------------------------------------------------

def _post(http: httpx.Client, ruleset: AnyRuleset, name: str, body: dict[str, Any]
          ) -> httpx.Response:
    r = http.post(f"/v1/rulesets/{ruleset.id}/{name}", json=body)
    assert r.status_code == 200, r.text
    return r


def listed_actions_validate_over_http(u: RulesetUnderTest, http: httpx.Client) -> None:
    """On the golden states with the most actions listed, a few of each: the listing over
    HTTP is the in-process one and answers the same bytes twice, and a sample of its
    actions POSTed back to ``validate`` answers ``legal: true``."""
    ruleset, checked = u.ruleset, 0
    counted = min(50, max_limit(ruleset))
    states = sorted(u.golden, key=lambda s: -sum(
        len(legal_actions(ruleset, s, p, counted)["actions"]) for p in every_player(s)))[:3]
    for state in states:
        for player in every_player(state):
            body = {"state": state, "player": player, "limit": max_limit(ruleset)}
            first = _post(http, ruleset, "legal-actions", body)
            assert _post(http, ruleset, "legal-actions", body).content == first.content
            listing = first.json()
            assert listing["actions"] == legal_actions(ruleset, state, player,
                                                        max_limit(ruleset))["actions"]
            for action in spread(listing["actions"])[:10]:
                out = _post(http, ruleset, "validate", {"state": state, "action": action})
                assert out.json()["legal"], (action, out.json()["violations"])
                checked += 1
    assert checked, f"{u.id}: no golden state lists an action"

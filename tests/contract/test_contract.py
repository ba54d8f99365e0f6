"""The generic contract tests: every registered ruleset (the built-in ones, as
``builtin_registry()`` serves them, and the toy tic-tac-toe of tests/toy) on random
positions drawn by its strategy in ``boards.py``:

- listed legal actions validate as legal and lead to states that validate and compile;
- the legal-actions answer lists actions a client sends back unchanged to validate, legal,
  the same bytes twice, cut by ``limit`` with ``truncated`` (``test_legal_listing.py``
  does the same on every golden-case state);
- random sequences of listed actions keep every state valid, and replay the same through
  ``validate_batch``;
- every proposed candidate is well formed, and a state advisory mode produces is valid;
- the same request twice answers byte for byte the same;
- ``validate`` mutates neither the models nor the dicts it is given;
- a model or its JSON dict get the same answer;
- the examples compile and every query example runs;
- every violation code is expected by a golden case.

A ruleset without a strategy in ``boards.SUBJECTS`` fails every test here.
``ARBITER_RULESETS`` narrows the built-in rulesets, as it narrows the service (the toy is
always checked); ``ARBITER_CONTRACT_EXAMPLES`` sets the examples per test and ruleset (40).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.engine.registry import AnyRuleset
from arbiter.engine.ruleset import describe
from arbiter.rulesets import builtin_registry, names
from toy.tic_tac_toe import RULESET as TOY

from .boards import SUBJECTS, Subject
from .checks import (
    check_candidates,
    check_codes_have_cases,
    check_deterministic,
    check_legal_sequence,
    check_listed_actions,
    check_listing,
    check_model_or_dict_alike,
    check_no_mutation,
    compiled,
    judged,
    proposed,
)

TESTS = Path(__file__).resolve().parents[1]
BUILT_IN = [n.strip() for n in os.environ.get("ARBITER_RULESETS", "").split(",")
            if n.strip()] or names()
RULESET_IDS = [*BUILT_IN, TOY.id]
CASES = {TOY.id: TESTS / "toy" / "cases"}   # the built-in ones: tests/cases/<id>

# ARBITER_CONTRACT_EXAMPLES raises the count for a long run (the suite's default is quick).
SETTINGS = settings(max_examples=int(os.environ.get("ARBITER_CONTRACT_EXAMPLES", "40")),
                    deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
per_ruleset = pytest.mark.parametrize("ruleset_id", RULESET_IDS)


@cache
def ruleset_of(ruleset_id: str) -> AnyRuleset:
    """The ruleset as the service registers it (an import error fails its tests only)."""
    if ruleset_id == TOY.id:
        return TOY
    found = builtin_registry(ruleset_id).get(ruleset_id)
    assert found is not None
    return found


def subject_of(ruleset_id: str) -> tuple[AnyRuleset, Subject]:
    ruleset = ruleset_of(ruleset_id)
    subject = SUBJECTS.get(ruleset_id)
    assert subject is not None, (f"{ruleset_id} has no board strategy: add one to "
                                 "tests/contract/boards.py SUBJECTS")
    return ruleset, subject


def _request(ruleset: AnyRuleset, subject: Subject) -> st.SearchStrategy[
        tuple[dict[str, Any], dict[str, Any], Any]]:
    """A state, an action the generator proposes there for one of its players (legal or
    not), and a mode; the ruleset's example action when nobody has a candidate."""

    @st.composite
    def draw_request(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], Any]:
        state = draw(subject.states, label="state")
        _, board = compiled(ruleset, state, "the drawn state")
        options = [a for p in subject.players(state) for a in proposed(ruleset, board, p)]
        action = (draw(st.sampled_from(options), label="action").model_dump(mode="json")
                  if options else dict(ruleset.examples.action))
        return state, action, draw(st.sampled_from(("strict", "advisory")), label="mode")

    return draw_request()


@per_ruleset
def test_every_ruleset_has_a_board_strategy(ruleset_id: str) -> None:
    subject_of(ruleset_id)


@per_ruleset
def test_listed_actions_are_legal_and_lead_to_valid_states(ruleset_id: str) -> None:
    ruleset, subject = subject_of(ruleset_id)

    @SETTINGS
    @given(state=subject.states)
    def listed_actions(state: dict[str, Any]) -> None:
        check_listed_actions(ruleset, state, subject.players(state))

    listed_actions()


@per_ruleset
def test_legal_actions_answer_round_trips_through_validate(ruleset_id: str) -> None:
    ruleset, subject = subject_of(ruleset_id)

    @SETTINGS
    @given(state=subject.states)
    def listing(state: dict[str, Any]) -> None:
        check_listing(ruleset, state, subject.players(state))

    listing()


@per_ruleset
def test_random_legal_sequences_keep_every_state_valid(ruleset_id: str) -> None:
    ruleset, subject = subject_of(ruleset_id)

    @SETTINGS
    @given(state=subject.states, picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=8))
    def sequences(state: dict[str, Any], picks: list[int]) -> None:
        check_legal_sequence(ruleset, state, subject.players, picks)

    sequences()


@per_ruleset
def test_candidates_are_well_formed_and_advisory_states_valid(ruleset_id: str) -> None:
    ruleset, subject = subject_of(ruleset_id)

    @SETTINGS
    @given(state=subject.states)
    def candidates(state: dict[str, Any]) -> None:
        check_candidates(ruleset, state, subject.players(state))

    candidates()


def _each_request(ruleset_id: str,
                  check: Callable[[AnyRuleset, dict[str, Any], dict[str, Any], Any], None]
                  ) -> None:
    ruleset, subject = subject_of(ruleset_id)

    @SETTINGS
    @given(request=_request(ruleset, subject))
    def each(request: tuple[dict[str, Any], dict[str, Any], Any]) -> None:
        check(ruleset, *request)

    each()


@per_ruleset
def test_the_same_request_twice_answers_byte_for_byte_the_same(ruleset_id: str) -> None:
    _each_request(ruleset_id, check_deterministic)


@per_ruleset
def test_validate_mutates_neither_models_nor_dicts(ruleset_id: str) -> None:
    _each_request(ruleset_id, check_no_mutation)


@per_ruleset
def test_a_model_or_its_json_dict_get_the_same_answer(ruleset_id: str) -> None:
    _each_request(ruleset_id, check_model_or_dict_alike)


@per_ruleset
def test_examples_compile_and_every_query_example_runs(ruleset_id: str) -> None:
    ruleset, _ = subject_of(ruleset_id)
    state = dict(ruleset.examples.state)
    compiled(ruleset, state, "the example state")
    judged(ruleset, state, dict(ruleset.examples.action), "strict", "the example action")
    for query in ruleset.queries.values():
        for example in query.examples:
            query.run(query.request.model_validate(example))
    describe(ruleset)


@per_ruleset
def test_every_violation_code_has_a_golden_case(ruleset_id: str) -> None:
    ruleset, _ = subject_of(ruleset_id)
    check_codes_have_cases(ruleset, CASES.get(ruleset_id, TESTS / "cases" / ruleset_id))

"""The contract tests can fail: each checking function, called directly on a copy of the
toy ruleset broken the way a real ruleset could break, raises ``AssertionError``, and
the unbroken toy passes the same call. (A generator that proposes an occupied cell is no
breakage on its own: ``judge`` filters it out of the legal actions, by design. It takes
a ``judge`` that also forgets the rule for the listed actions to go wrong.) The
legal-actions query is the engine's for every ruleset, so a broken listing stands for a
bug in the engine: it is put in place of the engine's own, past the ``Ruleset``."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from arbiter.engine.catalogue import build_catalogue
from arbiter.engine.draft import Draft
from arbiter.engine.judging import Judgement
from arbiter.engine.registry import AnyRuleset
from arbiter.engine.ruleset import Examples
from arbiter.engine.wire import Frozen
from toy.tic_tac_toe import RULESET as TOY
from toy.tic_tac_toe.board import Board
from toy.tic_tac_toe.catalogue import CODES, EVENTS, PARAM_TYPES, RULES
from toy.tic_tac_toe.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from toy.tic_tac_toe.models import TicTacToeAnyAction, TicTacToePlace

from .boards import SUBJECTS
from .checks import (
    check_candidates,
    check_codes_have_cases,
    check_deterministic,
    check_legal_sequence,
    check_listed_actions,
    check_listing,
    check_model_or_dict_alike,
    check_no_mutation,
)
from .under_test import TESTS, under_test

PLAYERS = ["alice", "bob"]
TOY_CASES = TESTS / "toy" / "cases"
Judge = Callable[[Board, TicTacToeAnyAction], Judgement]
# The toy's legal-actions, as the engine makes it: its request is the listing's model.
LISTED = TOY.queries["legal-actions"]
Listing = Any


def run_legal_actions(request: Any) -> Listing:
    return LISTED.run(request)


def broken(**parts: Any) -> AnyRuleset:
    return dataclasses.replace(TOY, **parts)


def every_cell(board: Board, player: str) -> Iterator[TicTacToeAnyAction]:
    """A generator that proposes occupied cells too."""
    for cell in range(9):
        yield TicTacToePlace(type="place", player=player, cell=cell)


def forgetting_taken_cells(board: Board, action: TicTacToeAnyAction) -> Judgement:
    """A judge that no longer checks that the cell is empty."""
    judgement = TOY.judge(board, action)
    judgement.verdict.violations = [v for v in judgement.verdict.violations
                                    if v.code != "cell_taken"]
    return judgement


def applying_after(write: Callable[[Board, TicTacToeAnyAction, Draft], None]) -> Judge:
    """The toy's judge, with ``write`` run after its apply."""

    def judge(board: Board, action: TicTacToeAnyAction) -> Judgement:
        judgement = TOY.judge(board, action)
        apply = judgement.apply
        if apply is None:
            return judgement

        def written() -> Draft:
            draft = apply()
            write(board, action, draft)
            return draft

        return dataclasses.replace(judgement, apply=written)

    return judge


def a_tenth_cell(board: Board, action: TicTacToeAnyAction, draft: Draft) -> None:
    draft["board"].append(None)


def into_the_request(board: Board, action: TicTacToeAnyAction, draft: Draft) -> None:
    # The bug: the request's own list, where the draft's copy was meant.
    if isinstance(action, TicTacToePlace):
        board.state.board[action.cell] = board.mark_of(action.player)


def counting() -> Judge:
    """A judge whose derived facts change from one call to the next."""
    calls = itertools.count()

    def judge(board: Board, action: TicTacToeAnyAction) -> Judgement:
        judgement = TOY.judge(board, action)
        judgement.derived["call"] = next(calls)
        return judgement

    return judge


def fresh_example() -> tuple[dict[str, Any], dict[str, Any]]:
    return ({**EXAMPLE_STATE, "board": list(EXAMPLE_STATE["board"])}, dict(EXAMPLE_ACTION))


class ReshapedAction(Frozen):
    """A listed action as the toy once listed it: its type and cell, no player."""

    type: str
    cell: int | None = None


class ReshapedListing(Frozen):
    player: str
    actions: list[ReshapedAction]
    truncated: bool
    count: int


def reshaped(request: Any) -> ReshapedListing:
    found = run_legal_actions(request)
    return ReshapedListing(player=found.player, truncated=found.truncated, count=found.count,
                           actions=[ReshapedAction(type=a.type, cell=getattr(a, "cell", None))
                                    for a in found.actions])


def shuffled() -> Callable[[Any], Listing]:
    """A listing whose order changes from one ask to the next."""
    calls = itertools.count()

    def run(request: Any) -> Listing:
        found = run_legal_actions(request)
        turn = next(calls) % max(len(found.actions), 1)
        return found.model_copy(update={"actions": found.actions[turn:] + found.actions[:turn]})

    return run


def never_truncated(request: Any) -> Listing:
    return run_legal_actions(request).model_copy(update={"truncated": False})


def listing_by(run: Callable[[Any], Any]) -> AnyRuleset:
    """The toy answering legal-actions with ``run``: set past the engine, which makes every
    ruleset's own listing when the ruleset is made."""
    toy = broken()
    query = dataclasses.replace(LISTED, summary="broken", run=run)
    object.__setattr__(toy, "queries", {**toy.queries, "legal-actions": query})
    return toy


def test_the_unbroken_toy_passes_every_check() -> None:
    state, action = fresh_example()
    assert check_listed_actions(TOY, state, PLAYERS) == 8
    assert len(check_listing(TOY, state, PLAYERS, every=True)) == 8
    assert check_legal_sequence(TOY, state, SUBJECTS["tic_tac_toe"].players, [0] * 9) == 5
    assert check_candidates(TOY, state, PLAYERS) == 16
    check_deterministic(TOY, state, action, "strict")
    check_no_mutation(TOY, state, action, "strict")
    check_model_or_dict_alike(TOY, state, action, "advisory")
    check_codes_have_cases(TOY, TOY_CASES)


def test_a_listed_action_that_overwrites_a_mark_is_caught() -> None:
    toy = broken(candidates=every_cell, judge=forgetting_taken_cells)
    state, _ = fresh_example()
    with pytest.raises(AssertionError, match="compile refuses it"):
        check_listed_actions(toy, state, PLAYERS)
    with pytest.raises(AssertionError, match="compile refuses it"):
        check_legal_sequence(toy, state, SUBJECTS["tic_tac_toe"].players, [4])


def test_an_apply_that_writes_past_the_state_models_bounds_is_caught() -> None:
    toy = broken(judge=applying_after(a_tenth_cell))
    state, _ = fresh_example()
    with pytest.raises(AssertionError, match="validate raised InvalidInput"):
        check_listed_actions(toy, state, PLAYERS)
    with pytest.raises(AssertionError, match="validate raised InvalidInput"):
        check_candidates(toy, state, PLAYERS)


def test_an_apply_that_writes_into_the_request_is_caught() -> None:
    toy = broken(judge=applying_after(into_the_request))
    state, action = fresh_example()
    with pytest.raises(AssertionError, match="changed its state or action model"):
        check_no_mutation(toy, state, action, "strict")


def test_an_answer_that_changes_between_calls_is_caught() -> None:
    toy = broken(judge=counting())
    state, action = fresh_example()
    with pytest.raises(AssertionError, match="answered twice differently"):
        check_deterministic(toy, state, action, "strict")
    with pytest.raises(AssertionError, match="answered differently"):
        check_model_or_dict_alike(toy, state, action, "strict")


def test_a_listing_that_reshapes_its_actions_is_caught() -> None:
    state, _ = fresh_example()
    with pytest.raises(AssertionError, match="no action validate takes"):
        check_listing(listing_by(reshaped), state, PLAYERS)


def test_a_listing_that_changes_between_asks_is_caught() -> None:
    state, _ = fresh_example()
    with pytest.raises(AssertionError, match="differ between two asks"):
        check_listing(listing_by(shuffled()), state, PLAYERS)


def test_a_listing_that_hides_its_truncation_is_caught() -> None:
    state, _ = fresh_example()
    with pytest.raises(AssertionError, match="one short"):
        check_listing(listing_by(never_truncated), state, PLAYERS)


def test_a_code_without_a_golden_case_is_caught() -> None:
    catalogue = build_catalogue(
        TOY.id, TOY.version, TOY.title, rules=RULES, events=EVENTS,
        codes=[*CODES, ("cell_off_the_grid", "place.1", "there is no cell {cell}")],
        param_types=PARAM_TYPES)
    with pytest.raises(AssertionError, match="cell_off_the_grid"):
        check_codes_have_cases(broken(catalogue=catalogue), TOY_CASES)


def test_a_ruleset_with_no_positions_to_check_fails(tmp_path: Path) -> None:
    # No board strategy, no example state and no golden case: nothing to draw from.
    toy = broken(examples=Examples(state={}, action=EXAMPLE_ACTION))
    original = SUBJECTS.pop(TOY.id)
    try:
        with pytest.raises(AssertionError, match="no positions to be checked on"):
            under_test(toy, tmp_path)
    finally:
        SUBJECTS[TOY.id] = original

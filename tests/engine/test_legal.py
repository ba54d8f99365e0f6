"""Legal actions as the engine derives them (engine/legal.py): the bounded listing
(``first_legal``), and the legal-actions query it makes for a ruleset, on the toy."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from pydantic import Field

from arbiter.engine.catalogue import build_catalogue
from arbiter.engine.errors import InvalidInput
from arbiter.engine.judging import Judgement
from arbiter.engine.legal import LIMIT, MAX_LIMIT, Beside, Bounded, first_legal
from arbiter.engine.outcome import Verdict
from arbiter.engine.wire import Frozen
from toy.tic_tac_toe import RULESET as TOY
from toy.tic_tac_toe.board import Board
from toy.tic_tac_toe.examples import EXAMPLE_STATE
from toy.tic_tac_toe.models import TicTacToeAnyAction

CATALOGUE = build_catalogue("demo", "1.0.0", "A demo", rules=[("count.1", "Count up.")],
                            codes=[("odd", "count.1", "{n} is odd")], events=[],
                            param_types={"n": int})


def even(n: int) -> Judgement:
    """Even numbers are legal."""
    verdict = Verdict(CATALOGUE)
    if n % 2:
        verdict.violate("odd", n=n)
    return Judgement(verdict)


def test_first_legal_stops_one_past_the_limit() -> None:
    judged: list[int] = []

    def judge(board: None, n: int) -> Judgement:
        judged.append(n)
        return even(n)

    found = first_legal(judge, None, iter(range(20)), limit=3)
    assert found.actions == [0, 2, 4] and found.truncated
    assert judged == [0, 1, 2, 3, 4, 5, 6]
    assert first_legal(judge, None, iter([1, 2]), limit=3).truncated is False


def test_first_legal_judges_at_most_max_judged_candidates() -> None:
    judged: list[int] = []

    def judge(board: None, n: int) -> Judgement:
        judged.append(n)
        return even(n)

    # Three legal actions among the five judged: the listing stops there, truncated.
    found = first_legal(judge, None, iter(range(20)), limit=10, max_judged=5)
    assert found.actions == [0, 2, 4] and found.truncated
    assert judged == [0, 1, 2, 3, 4]
    # A generator that ends at the budget is listed whole, not truncated.
    assert first_legal(judge, None, iter(range(5)), limit=10, max_judged=5).truncated is False


def ask(ruleset: Any, **request: Any) -> dict[str, Any]:
    query = ruleset.queries["legal-actions"]
    answer: dict[str, Any] = query.run(query.request.model_validate(
        {"state": EXAMPLE_STATE, **request})).model_dump(mode="json")
    return answer


def test_the_request_takes_one_limit_default_and_maximum() -> None:
    request = TOY.queries["legal-actions"].request
    assert request(state=EXAMPLE_STATE, player="alice").limit == LIMIT == 100
    assert request.model_fields["limit"].metadata[-1].le == MAX_LIMIT == 10_000


def test_the_answer_lists_the_candidates_judge_finds_legal() -> None:
    answer = ask(TOY, player="alice")
    board = TOY.compile(TOY.parse_state(EXAMPLE_STATE))
    wanted = [a.model_dump(mode="json") for a in TOY.candidates(board, "alice")
              if TOY.judge(board, a).verdict.legal]
    assert answer == {"player": "alice", "actions": wanted, "truncated": False,
                      "count": len(wanted)}
    assert ask(TOY, player="alice", limit=2)["actions"] == wanted[:2]


def test_an_unknown_player_is_a_problem_at_its_pointer() -> None:
    with pytest.raises(InvalidInput) as refused:
        ask(TOY, player="carol")
    assert [(p.pointer, p.detail) for p in refused.value.problems] == [
        ("/player", "unknown player carol")]


class Cells(Frozen):
    empty: int = Field(description="Empty cells left.")


def empty_cells(board: Board, player: str, found: Bounded[TicTacToeAnyAction]) -> Cells:
    return Cells(empty=sum(1 for cell in board.cells if cell is None))


def test_facts_beside_the_list_follow_the_four_fields() -> None:
    listing = dataclasses.replace(TOY.listing, beside=Beside(Cells, empty_cells))
    answer = ask(dataclasses.replace(TOY, listing=listing), player="alice")
    assert list(answer) == ["player", "actions", "truncated", "count", "empty"]
    assert answer["empty"] == 7


def test_a_copy_with_another_judge_lists_by_it() -> None:
    def resign_only(board: Board, action: TicTacToeAnyAction) -> Judgement:
        judgement = TOY.judge(board, action)
        if action.type != "resign":
            judgement.verdict.violate("game_over", ending="test")
        return judgement

    answer = ask(dataclasses.replace(TOY, judge=resign_only), player="alice")
    assert [a["type"] for a in answer["actions"]] == ["resign"]

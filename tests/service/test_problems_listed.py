"""A body with more problems than an answer lists: the first ``MOST_PROBLEMS`` at their
pointers, as ``errors()`` gives them, then how many more there are."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from arbiter.service.problems import MOST_PROBLEMS, validation_problems


class Hex(BaseModel):
    q: int
    r: int


class Board(BaseModel):
    hexes: list[Hex]


@pytest.mark.parametrize("bad", [3, MOST_PROBLEMS, MOST_PROBLEMS + 50])
def test_the_first_problems_are_listed_then_how_many_more(bad: int) -> None:
    body = {"hexes": [{"q": "x", "r": 1}] * bad + [{"q": 1}]}
    with pytest.raises(ValidationError) as refused:
        Board.model_validate(body, strict=True)
    problems = validation_problems(refused.value, body)
    expected = [f"/hexes/{i}/q" for i in range(bad)] + [f"/hexes/{bad}/r"]
    if bad + 1 <= MOST_PROBLEMS:
        assert [p.pointer for p in problems] == expected
    else:
        assert [p.pointer for p in problems[:-1]] == expected[:MOST_PROBLEMS]
        assert problems[-1].pointer == ""
        assert f"and {bad + 1 - MOST_PROBLEMS} more problems" in problems[-1].detail
    assert problems[0].detail == "Input should be a valid integer"

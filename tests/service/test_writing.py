"""Answers written in pieces (``service.writing``) are the very bytes the response models
would write, and valid against them: for every query example of every ruleset, for long
lists (legal-actions at a large limit), and for ``reachable``'s listing on a map where
vessels ferry everywhere."""

from __future__ import annotations

from typing import Any

import pytest

from arbiter.engine.query import Streamed
from arbiter.rulesets import builtin_registry
from arbiter.rulesets.hex_maneuver import RULESET as HEX
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_STATE
from arbiter.service.problems import LimitExceeded
from arbiter.service.writing import PIECE, model_json, streamed_json
from hardening.test_bounded import ferry_board

QUERIES = [(ruleset.id, query) for ruleset in builtin_registry()
           for query in ruleset.queries.values()]


@pytest.mark.parametrize(("ruleset", "query"), QUERIES,
                         ids=[f"{r}-{q.name}" for r, q in QUERIES])
def test_every_example_answer_is_written_as_its_model_writes_it(ruleset: str,
                                                                 query: Any) -> None:
    assert query.examples, f"{ruleset} {query.name} has no example"
    for example in query.examples:
        request = query.request.model_validate(example)
        answer = query.run(request)
        assert model_json(answer) == answer.model_dump_json().encode()
        if query.streamed is not None:
            assert streamed_json(query.streamed(request)) == answer.model_dump_json().encode()


def test_long_lists_are_written_in_pieces_with_the_same_bytes() -> None:
    query = HEX.queries["legal-actions"]
    answer = query.run(query.request.model_validate({"state": ferry_board(8, 0),
                                                     "player": "red", "limit": 2000}))
    assert len(answer.actions) > 2 * PIECE  # several pieces, the last one short
    written = model_json(answer)
    assert written == answer.model_dump_json().encode()
    assert query.response.model_validate_json(written) == answer


@pytest.mark.parametrize("radius", [0, 3, 12])
def test_reachable_written_from_its_stream_is_its_model_answer(radius: int) -> None:
    query = HEX.queries["reachable"]
    state = ferry_board(radius, 5) if radius else EXAMPLE_STATE
    army = "a0" if radius else "red-1"
    request = query.request.model_validate({"state": state, "army": army})
    assert query.streamed is not None
    written = streamed_json(query.streamed(request))
    answer = query.run(request)
    assert written == answer.model_dump_json().encode()
    # Checked against the declared response model, strictly: our own data, never
    # validated on the way out, is still what the contract says.
    assert query.response.model_validate_json(written, strict=True) == answer
    if radius == 12:
        assert len(answer.destinations) > 100
        assert any(d.ferry and d.in_range for d in answer.destinations)


def test_a_written_answer_stops_as_soon_as_it_is_over_the_limit() -> None:
    made: list[int] = []

    def items() -> Any:
        for i in range(1000):
            made.append(i)
            yield {"n": i, "pad": "x" * 90}

    with pytest.raises(LimitExceeded) as refused:
        streamed_json(Streamed({"head": 1}, "items", items(), "the listing"), 10_000)
    assert refused.value.limit == "ARBITER_MAX_ANSWER_BYTES"
    assert "the listing would take about 10" in refused.value.problems[0].detail
    assert len(made) < 110  # about 100 items of 100 bytes, not the thousand
    assert streamed_json(Streamed({"head": 1}, "items", iter([1, 2]))) == \
        b'{"head":1,"items":[1,2]}'
    assert streamed_json(Streamed({}, "items", iter([]))) == b'{"items":[]}'

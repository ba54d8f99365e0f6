"""The pipeline's own rules, on a model of two fields: strict and advisory mode, the
resulting state checked against the state model (legal actions: test_legal.py)."""

from typing import Annotated

import orjson
import pytest
from pydantic import Field

from arbiter.engine.catalogue import build_catalogue
from arbiter.engine.draft import BoardRef, Draft, Ready
from arbiter.engine.errors import InvalidInput
from arbiter.engine.judging import Judgement, conclude, settle
from arbiter.engine.outcome import Verdict, state_hash
from arbiter.engine.wire import Frozen

CATALOGUE = build_catalogue("demo", "1.0.0", "A demo", rules=[("count.1", "Count up.")],
                            codes=[("odd", "count.1", "{n} is odd")], events=[],
                            param_types={"n": int})


class Inner(Frozen):
    label: str


class State(Frozen):
    count: Annotated[int, Field(ge=0, le=10)]
    inner: Inner


STATE = State(count=1, inner=Inner(label="a"))


def judgement(n: int, *, applicable: bool = True) -> Judgement:
    verdict = Verdict(CATALOGUE)
    if n % 2:
        verdict.violate("odd", fatal=not applicable, n=n)

    def apply() -> Draft:
        draft = Draft(STATE)
        draft["count"] = STATE.count + n
        return draft

    return Judgement(verdict, apply, derived={"n": n})


def test_a_legal_action_is_applied_and_its_state_checked() -> None:
    outcome = conclude("demo", "1.0.0", judgement(2), "strict", State)
    assert outcome.legal and outcome.applied
    assert outcome.state == {"count": 3, "inner": {"label": "a"}}
    assert outcome.state_hash is not None
    assert isinstance(outcome.next_state(), State)
    assert outcome.derived == {"n": 2}


def test_strict_refuses_advisory_applies_what_is_defined() -> None:
    strict = conclude("demo", "1.0.0", judgement(1), "strict", State)
    assert not strict.applied and strict.state is None and strict.state_hash is None
    advisory = conclude("demo", "1.0.0", judgement(1), "advisory", State)
    assert advisory.applied and not advisory.legal and advisory.state is not None
    assert [v.severity for v in advisory.violations] == ["warning"]
    undefined = conclude("demo", "1.0.0", judgement(1, applicable=False), "advisory", State)
    assert not undefined.applied and undefined.state is None


def test_a_state_the_model_refuses_is_a_422_on_the_action() -> None:
    with pytest.raises(InvalidInput) as exc:
        conclude("demo", "1.0.0", judgement(12), "strict", State)
    assert [p.pointer for p in exc.value.problems] == ["/action"]
    assert "/count" in exc.value.problems[0].detail


def test_the_draft_dumps_only_what_a_rule_touches() -> None:
    draft = Draft(STATE)
    draft["inner"]["label"] = "b"
    assert set(draft.touched) == {"inner"}
    model, as_json, digest = settle(draft, State)
    assert model.inner.label == "b" and STATE.inner.label == "a"
    assert as_json == {"count": 1, "inner": {"label": "b"}}
    assert digest == state_hash(as_json)
    with pytest.raises(KeyError):
        draft["nope"] = 1


def test_ready_fields_come_from_the_ruleset_not_a_new_dump() -> None:
    kept = {"label": "a"}
    draft = Draft(STATE, ready={"inner": Ready(
        json=lambda: dict(kept),
        canonical=lambda: orjson.dumps(kept, option=orjson.OPT_SORT_KEYS))})
    model, as_json, digest = settle(draft, State)
    assert as_json["inner"] == kept and as_json["inner"] is not kept
    assert model.inner is STATE.inner  # untouched: the model the state already had
    assert digest == state_hash(as_json)


def test_a_state_that_named_its_board_names_it_back_with_the_whole_states_hash() -> None:
    board = BoardRef("sha256:" + "1" * 64, ("inner",))
    draft = Draft(STATE)
    draft["count"] = 3
    _, lean, digest = settle(draft, State, board)
    assert lean == {"board": board.id, "count": 3}
    _, whole, whole_digest = settle(draft, State)
    assert digest == whole_digest == state_hash(whole)
    draft["inner"]["label"] = "changed"  # a board the action changes goes back inline
    _, inline, _ = settle(draft, State, board)
    assert "board" not in inline and inline["inner"] == {"label": "changed"}

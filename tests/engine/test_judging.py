"""The pipeline's own rules, on a model of two fields: strict and advisory mode, the
resulting state checked against the state model (legal actions: test_legal.py)."""

import hashlib
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
    ruling = conclude("demo", "1.0.0", judgement(2), "strict", State)
    outcome = ruling.outcome
    assert outcome.legal and outcome.applied
    assert outcome.state == {"count": 3, "inner": {"label": "a"}}
    assert outcome.state_hash is not None
    assert ruling.result is not None and isinstance(ruling.result.model, State)
    assert ruling.result.state == outcome.state
    assert outcome.derived == {"n": 2}


def test_strict_refuses_advisory_applies_what_is_defined() -> None:
    strict = conclude("demo", "1.0.0", judgement(1), "strict", State)
    assert strict.result is None
    assert not strict.outcome.applied and strict.outcome.state is None
    assert strict.outcome.state_hash is None
    advisory = conclude("demo", "1.0.0", judgement(1), "advisory", State).outcome
    assert advisory.applied and not advisory.legal and advisory.state is not None
    assert [v.severity for v in advisory.violations] == ["warning"]
    undefined = conclude("demo", "1.0.0", judgement(1, applicable=False), "advisory", State)
    assert not undefined.outcome.applied and undefined.outcome.state is None


def test_a_state_the_model_refuses_is_a_422_on_the_action() -> None:
    with pytest.raises(InvalidInput) as exc:
        conclude("demo", "1.0.0", judgement(12), "strict", State)
    assert [p.pointer for p in exc.value.problems] == ["/action"]
    assert "/count" in exc.value.problems[0].detail


def test_the_draft_dumps_only_what_a_rule_touches() -> None:
    draft = Draft(STATE)
    draft["inner"]["label"] = "b"
    assert set(draft.touched) == {"inner"}
    settled = settle(draft, State)
    assert settled.model.inner.label == "b" and STATE.inner.label == "a"
    assert settled.state == {"count": 1, "inner": {"label": "b"}}
    assert settled.canonical.hash() == state_hash(settled.state)
    with pytest.raises(KeyError):
        draft["nope"] = 1


def test_ready_fields_come_from_the_ruleset_not_a_new_dump() -> None:
    kept = {"label": "a"}
    draft = Draft(STATE, ready={"inner": Ready(
        json=lambda: dict(kept),
        canonical=lambda: orjson.dumps(kept, option=orjson.OPT_SORT_KEYS))})
    settled = settle(draft, State)
    assert settled.state["inner"] == kept and settled.state["inner"] is not kept
    assert settled.model.inner is STATE.inner  # untouched: the model the state already had
    assert settled.canonical.hash() == state_hash(settled.state)


def test_a_state_that_named_its_board_names_it_back_with_the_whole_states_hash() -> None:
    board = BoardRef("sha256:" + "1" * 64, ("inner",))
    draft = Draft(STATE)
    draft["count"] = 3
    lean = settle(draft, State, board)
    assert lean.state == {"board": board.id, "count": 3}
    whole = settle(draft, State)
    assert lean.canonical.hash() == whole.canonical.hash() == state_hash(whole.state)
    draft["inner"]["label"] = "changed"  # a board the action changes goes back inline
    inline = settle(draft, State, board).state
    assert "board" not in inline and inline["inner"] == {"label": "changed"}


def test_a_states_canonical_json_is_its_fields_and_folds_any_of_them_to_a_digest() -> None:
    kept = {"label": "a"}
    canonical = Draft(STATE, ready={"inner": Ready(
        json=lambda: dict(kept), canonical=lambda: orjson.dumps(kept),
        digest=lambda: "d" * 64)}).canonical()
    assert canonical.whole() == orjson.dumps(STATE.model_dump(), option=orjson.OPT_SORT_KEYS)
    assert canonical.hash() == state_hash(STATE.model_dump())
    # A folded field is its digest as a JSON string: a ready one's kept digest, else its own.
    assert canonical.folded(["inner"]) == b'{"count":1,"inner":"' + b"d" * 64 + b'"}'
    count = hashlib.sha256(b"1").hexdigest().encode()
    assert canonical.folded(["count"]) == b'{"count":"' + count + b'","inner":{"label":"a"}}'

"""The rulesets the generic checks (``generic.py``) run on: ``RulesetUnderTest`` is one of
them as the checks take it — the ruleset, how to draw positions of it, the folder of its
golden cases — and ``under_test`` makes one for any ruleset, registered anywhere.
``DEFAULT_IDS`` and ``by_default`` are the ones the suite checks: every built-in ruleset
(narrowed by ``ARBITER_RULESETS``, as it narrows the service) and the toy.

Positions come from the ruleset's board strategy in ``boards.SUBJECTS`` when it has one.
A ruleset without one is checked on positions reached from its example and its golden
states by a few random legal actions (``golden_positions``): a new ruleset needs nothing
outside its own folder and its golden cases to be checked, and a strategy of its own
reaches positions no case thought of.
"""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass, field
from functools import cache
from itertools import islice
from pathlib import Path

from hypothesis import strategies as st
from pydantic import ValidationError

from arbiter.engine.errors import InvalidInput
from arbiter.engine.registry import AnyRuleset, Registry
from arbiter.rulesets import builtin_registry, names
from toy.tic_tac_toe import RULESET as TOY

from .boards import SUBJECTS, State, Subject, every_player

TESTS = Path(__file__).resolve().parents[1]
BUILT_IN = [n.strip() for n in os.environ.get("ARBITER_RULESETS", "").split(",")
            if n.strip()] or names()
DEFAULT_IDS = [*BUILT_IN, TOY.id]
# A position drawn from a golden state goes on by at most this many legal actions, each
# chosen among the first OPTIONS the ruleset lists for each player.
PLAYED_ON = 6
OPTIONS = 30


@dataclass(frozen=True, eq=False)
class RulesetUnderTest:
    """One ruleset as the generic checks take it. ``golden`` holds the distinct valid
    states of its golden cases (a case about a malformed state, or a board sent by
    reference, has none). Compared by identity, so checks may cache by it."""

    ruleset: AnyRuleset
    subject: Subject
    cases: Path
    golden: tuple[State, ...] = field(default=())

    @property
    def id(self) -> str:
        return self.ruleset.id


def golden_states(ruleset: AnyRuleset, folder: Path) -> tuple[State, ...]:
    """The distinct states of the golden cases under ``folder`` (a validate case's state,
    a query case's request state) that validate and compile, in file order."""
    seen: dict[str, State] = {}
    for path in sorted(folder.glob("**/*.json")):
        case = json.loads(path.read_text())
        state = case.get("state", case.get("request", {}).get("state"))
        if not isinstance(state, dict):
            continue
        try:
            ruleset.compile(ruleset.state_model.model_validate(state))
        except (ValidationError, InvalidInput):
            continue
        seen.setdefault(json.dumps(state, sort_keys=True), state)
    return tuple(seen.values())


def golden_positions(ruleset: AnyRuleset, starts: tuple[State, ...]) -> Subject:
    """Positions of a ruleset without a board strategy: one of ``starts``, then up to
    PLAYED_ON legal actions chosen at random among those listed for every player."""

    @st.composite
    def played_on(draw: st.DrawFn) -> State:
        state = draw(st.sampled_from(starts), label="start")
        for _ in range(draw(st.integers(0, PLAYED_ON), label="actions")):
            board = ruleset.compile(ruleset.state_model.model_validate(state))
            options = [a for p in every_player(state)
                       for a in islice(ruleset.legal_actions(board, p), OPTIONS)]
            if not options:
                break
            action = draw(st.sampled_from(options), label="action")
            outcome = ruleset.validate(state, action.model_dump(mode="json"))
            # A listed action judged illegal is the contract's to report, on this state.
            if outcome.state is None:
                break
            state = outcome.state
        # The starts are shared by every draw: each position is a copy of its own.
        return copy.deepcopy(state)

    return Subject(played_on())


def under_test(ruleset: AnyRuleset, cases: Path) -> RulesetUnderTest:
    """``ruleset`` with its golden cases under ``cases``, its positions drawn by its board
    strategy or else from its example and golden states."""
    golden = golden_states(ruleset, cases)
    subject = SUBJECTS.get(ruleset.id)
    if subject is None:
        example = ruleset.examples.state
        starts = (dict(example), *golden) if example else golden
        assert starts, (f"{ruleset.id} has no positions to be checked on: no board strategy "
                        f"in tests/contract/boards.py SUBJECTS, no example state and no "
                        f"golden case with a valid state under {cases}")
        subject = golden_positions(ruleset, starts)
    return RulesetUnderTest(ruleset, subject, cases, golden)


def registered(registry: Registry, cases: Path) -> list[RulesetUnderTest]:
    """Every ruleset of ``registry``, its golden cases under ``cases/<id>``."""
    return [under_test(ruleset, cases / ruleset.id) for ruleset in registry]


@cache
def by_default(ruleset_id: str) -> RulesetUnderTest:
    """A ruleset the suite checks by default (``DEFAULT_IDS``), as the service registers it;
    loaded when first asked for, so a ruleset that fails to import fails its own checks."""
    if ruleset_id == TOY.id:
        return under_test(TOY, TESTS / "toy" / "cases")
    found = builtin_registry(ruleset_id).get(ruleset_id)
    assert found is not None
    return under_test(found, TESTS / "cases" / ruleset_id)

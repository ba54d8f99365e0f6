"""The judging pipeline, the same for every ruleset: parse the state and the action,
compile the board, judge, apply, check that the resulting state is a valid state, and
conclude the ``Outcome``. A ruleset fills in typed parts (``ruleset.Ruleset``); it never
runs this pipeline itself.

The rules of strict and advisory mode live here once: a legal action is applied; an
illegal one is applied only in advisory mode and only when its effect is well defined,
its violations then downgraded to warnings beside the resulting state.

Legal actions are derived from ``judge`` too, not written twice: ``engine.legal``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from arbiter.engine.canonical import Canonical
from arbiter.engine.draft import BoardRef, Draft
from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.outcome import Mode, Outcome, Verdict

# The facts a frontend shows beside a verdict: given as they are, or as a function that
# makes them, for facts that cost something to find (what is in range at the destination),
# so that judging a candidate for legal-actions, which reads only the verdict, never pays.
Derived = Mapping[str, Any] | Callable[[], Mapping[str, Any]]


@dataclass(slots=True)
class Judgement:
    """What ``judge`` found: every violation and (once applied) every event in ``verdict``;
    ``apply`` writes the action's effect into a ``Draft`` of the state (None when the effect
    is undefined whatever the mode); the derived facts; and whether the step can be undone
    at the table (false once something was drawn, rolled or revealed)."""

    verdict: Verdict
    apply: Callable[[], Draft] | None = None
    derived: Derived = field(default_factory=dict)
    reversible: bool = True

    def facts(self) -> dict[str, Any]:
        derived = self.derived
        return dict(derived() if callable(derived) else derived)


@dataclass(frozen=True, slots=True)
class Settled:
    """A resulting state, checked: as the ruleset's model, as JSON (naming its board when
    it came so, unchanged) and as its canonical JSON (its hash, and any digest of it)."""

    model: BaseModel
    state: dict[str, Any]
    canonical: Canonical


@dataclass(frozen=True, slots=True)
class Ruling:
    """An action judged: the ``Outcome`` a client is told, the resulting state as the
    engine holds it (None when the action was not applied), and how many of the
    outcome's violations were found before the judge read a draw (``Verdict.drawn``:
    None when it read none)."""

    outcome: Outcome
    result: Settled | None = None
    drawn: int | None = None


def settle(draft: Draft, state_model: type[BaseModel], board: BoardRef | None = None
           ) -> Settled:
    """The resulting state, checked against the ruleset's model. A state the model refuses
    (a count pushed past its bound) is never returned: it is a 422 on the action, which
    is what would produce it, with the offending field of the resulting state named."""
    try:
        model = state_model.model_validate(draft.candidate())
    except ValidationError as exc:
        raise InvalidInput([
            Problem("/action", "the resulting state would be out of bounds at "
                    f"/{'/'.join(map(str, e['loc']))}: {e['msg']}")
            for e in exc.errors()]) from None
    state, canonical = draft.written(board)
    return Settled(model, state, canonical)


def conclude(ruleset: str, version: str, judgement: Judgement, mode: Mode,
             state_model: type[BaseModel], board: BoardRef | None = None) -> Ruling:
    """The ruling on a judgement. The effect is applied only when the state is returned,
    so an illegal strict action costs nothing more. ``board``: the state named its board,
    which the resulting state names too when the action left it as it was."""
    verdict = judgement.verdict
    apply = judgement.apply
    applied = apply is not None and (verdict.legal or (mode == "advisory" and verdict.applicable))
    if not applied or apply is None:
        return Ruling(Outcome(ruleset=ruleset, ruleset_version=version, legal=verdict.legal,
                              applied=False, violations=verdict.violations,
                              derived=judgement.facts()), drawn=verdict.drawn)
    result = settle(apply(), state_model, board)
    violations = verdict.violations
    if not verdict.legal:
        violations = [v.model_copy(update={"severity": "warning"}) for v in violations]
    outcome = Outcome(
        ruleset=ruleset, ruleset_version=version, legal=verdict.legal, applied=True,
        violations=violations, state=result.state, events=verdict.events,
        derived=judgement.facts(), reversible=judgement.reversible,
        state_hash=result.canonical.hash())
    return Ruling(outcome, result, verdict.drawn)

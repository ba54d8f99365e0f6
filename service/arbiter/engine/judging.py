"""Turning a filled ``Verdict`` into an ``Outcome``, the same way for every ruleset.

The rules of strict and advisory mode live here once: a legal action is applied; an
illegal one is applied only in advisory mode and only when its effect is well defined,
its violations then downgraded to warnings beside the resulting state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from arbiter.engine.outcome import Mode, Outcome, Verdict, state_hash


def conclude(
    *,
    ruleset_id: str,
    version: str,
    verdict: Verdict,
    mode: Mode,
    apply: Callable[[], BaseModel] | None,
    derived: dict[str, Any] | None = None,
    reversible: bool = True,
) -> Outcome:
    """Build the Outcome. ``apply`` computes the resulting state model; it is called only
    when the state is to be returned, so an illegal strict action costs nothing more."""
    should_apply = apply is not None and (
        verdict.legal or (mode == "advisory" and verdict.applicable)
    )
    violations = verdict.violations
    new_model: BaseModel | None = None
    new_state: dict[str, Any] | None = None
    if should_apply:
        assert apply is not None
        new_model = apply()
        new_state = new_model.model_dump(mode="json")
        if not verdict.legal:
            violations = [v.model_copy(update={"severity": "warning"}) for v in violations]
    outcome = Outcome(
        ruleset=ruleset_id,
        ruleset_version=version,
        legal=verdict.legal,
        applied=new_state is not None,
        violations=violations,
        state=new_state,
        events=verdict.events if new_state is not None else [],
        derived=derived or {},
        reversible=reversible if new_state is not None else True,
        state_hash=state_hash(new_state) if new_state is not None else None,
    )
    outcome._state_model = new_model
    return outcome

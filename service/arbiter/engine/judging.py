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
    apply: Callable[[], BaseModel | dict[str, Any]] | None,
    derived: dict[str, Any] | None = None,
    reversible: bool = True,
    state_model: type[BaseModel] | None = None,
) -> Outcome:
    """Build the Outcome. ``apply`` computes the resulting state, as a model or as its JSON
    dict (then ``state_model`` parses it only if a batch sequence needs it: re-validating a
    whole board the client will receive as JSON anyway costs more than judging the move).
    It is called only when the state is to be returned, so an illegal strict action costs
    nothing more."""
    should_apply = apply is not None and (
        verdict.legal or (mode == "advisory" and verdict.applicable)
    )
    violations = verdict.violations
    new_model: BaseModel | None = None
    new_state: dict[str, Any] | None = None
    if should_apply:
        assert apply is not None
        produced = apply()
        if isinstance(produced, BaseModel):
            new_model = produced
            new_state = produced.model_dump(mode="json")
        else:
            new_state = produced
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
    if new_model is not None:
        outcome._state_model = new_model
    elif new_state is not None and state_model is not None:
        parsed = new_state
        outcome._state_factory = lambda: state_model.model_validate(parsed)
    return outcome

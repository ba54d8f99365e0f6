"""The ``why-not`` question every ruleset answers: given a state and a target a player
could not reach or do (a hex, an area, a region, a territory), the action that would do
it, judged by the ruleset's own ``judge`` (so every reason given is a violation exactly
as ``validate`` gives it), and what would change the answer where the rules make it
computable (the movement points short, the tokens short, the blockers on every path).

Each ruleset makes its own request (what a target is differs) and its own answer, which
extends ``WhyNotAnswer``; this module holds what they share and the one way an implied
action is judged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import Field, RootModel

from arbiter.engine.errors import InvalidInput
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Violation
from arbiter.engine.wire import Frozen

WHY_NOT = "why-not"

# What ``action`` is, in every ruleset's answer (each types it as its own action union).
ACTION_FIELD = ("The action judged, as validate takes it (POST it to validate to get the "
                "same violations); null when no action can even be written (no token, pawn "
                "or path to try).")


class WhyNotChange(Frozen):
    """One thing that would change the answer: a stable snake_case ``code``, an English
    ``message`` and the ``params`` in it (as a violation carries them)."""

    code: str
    message: str
    params: dict[str, Any] = Field(default_factory=dict)


class WhyNotAnswer(Frozen):
    """What every ruleset's why-not answers, beside its own facts (a path, a cost)."""

    possible: bool = Field(description="The player can do it now: ``action`` is legal.")
    action: Any = Field(description=ACTION_FIELD)
    violations: list[Violation] = Field(
        description="Why not: the violations validate gives for ``action``, in its order.")
    changes: list[WhyNotChange] = Field(
        description="What would change the answer, where the rules make it computable.")


def change(code: str, message: str, **params: Any) -> WhyNotChange:
    return WhyNotChange(code=code, message=message, params=params)


def judged(judge: Callable[[Any, Any], Judgement], action_model: type[RootModel[Any]],
           board: Any, action: Mapping[str, Any] | None
           ) -> tuple[dict[str, Any] | None, list[Violation]]:
    """``action`` judged as validate judges it: the action as JSON and its violations. An
    implied action the ruleset cannot judge at all (malformed: a path longer than an
    action may be) is no action: (None, [])."""
    if action is None:
        return None, []
    try:
        parsed = action_model.model_validate(action).root
        violations = judge(board, parsed).verdict.violations
    except (InvalidInput, ValueError):
        return None, []
    return dict(action), list(violations)

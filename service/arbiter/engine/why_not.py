"""The ``why-not`` question every ruleset answers: given a state and a target a player
could not reach or do (a hex, an area, a region, a territory, a step of a plan), the
action that would do it, judged by the ruleset's own ``judge`` (so every reason given is a
violation exactly as ``validate`` gives it), and what would change the answer where the
rules make it computable (the movement points short, the tokens short, the blockers on every path).

Each ruleset makes its own request (what a target is differs) and its own answer, which
extends ``WhyNotAnswer``; this module holds what they share and the one way an implied
action is judged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import Field, RootModel

from arbiter.engine.errors import InvalidInput, Problem, Problems, pointer
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Violation
from arbiter.engine.wire import Frozen

WHY_NOT = "why-not"
# The change that asks for the draws to be named in the action (table mode: what was drawn
# at the table). A sealed game refuses draws named in an action, so its why-not leaves it
# out.
REPORT_THE_DRAWS = "report_the_draws"

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


# What ``plan`` and ``step`` are, in the requests of the rulesets whose actions are plans.
PLAN_FIELD = ("The step target: a plan, as validate takes the action, whose step ``step`` the "
              "player asks about (instead of a place).")
STEP_FIELD = "The 0-based index of the step asked about in ``plan`` (as in ``at.step``)."


def judged_step(judge: Callable[[Any, Any], Judgement], board: Any, plan: Any, step: int,
                steps: int) -> tuple[list[Violation], list[Violation]]:
    """The violations validate gives for ``plan`` (an action of ``steps`` steps) that it
    locates at ``step`` (``at.step``), in its order, and all it gives: the plan judged whole
    by ``judge``, so a step's reasons are exactly what validate says of it. A plan validate
    finds malformed is 422 at its pointer under ``/plan``, a step beyond it 422 at
    ``/step``."""
    if step >= steps:
        raise InvalidInput([Problem(pointer("step"), f"the plan has {steps} step(s)")])
    try:
        violations = judge(board, plan).verdict.violations
    except InvalidInput as exc:
        raise InvalidInput(Problem("/plan" + p.pointer.removeprefix("/action"), p.detail)
                           for p in exc.problems) from None
    return [v for v in violations if v.at.step == step], list(violations)


def step_changes(violations: list[Violation], step: int) -> list[WhyNotChange]:
    """What stands before ``step`` in the plan's verdict: the refusals of the plan as a
    whole (``at.step`` null) and an earlier illegal step, after which validate judges no
    step of a plan that stops at its first illegal one."""
    changes = []
    whole = [v.code for v in violations if v.at.step is None]
    if whole:
        changes.append(change("plan_refused", "the plan as a whole is refused: "
                              + ", ".join(whole), codes=whole))
    earlier = sorted({v.at.step for v in violations
                      if v.at.step is not None and v.at.step < step})
    if earlier:
        changes.append(change("earlier_step_illegal", f"steps[{earlier[0]}] is illegal",
                              step=earlier[0]))
    return changes


def step_possible(violations: list[Violation], step: int) -> bool:
    """The plan up to and including ``step`` is legal: no refusal of the whole plan, no
    violation at this step or an earlier one."""
    return not any(v.at.step is None or v.at.step <= step for v in violations)


def one_target(plan: object, step: int | None, place: dict[str, object]) -> None:
    """A why-not request names a place or a step of a plan, never both, never neither: 422
    at the fields that are wrong."""
    problems = Problems()
    named = [name for name, value in place.items() if value is not None]
    if plan is not None or step is not None:
        if plan is None or step is None:
            problems.add(pointer("plan" if plan is None else "step"),
                         "a step target names both plan and step")
        for name in named:
            problems.add(pointer(name), "name a place or a step of a plan, not both")
    else:
        for name, value in place.items():
            if value is None:
                problems.add(pointer(name), f"name the {name} asked about (or a plan and "
                             "step)")
    problems.raise_if_any()

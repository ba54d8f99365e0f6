"""``judge`` for area_movement: a plan (or the declaration of the end on its own, judged as
the plan of that one step) is checked for malformed fields (``plan.check_plan``), refused
as a whole when its player may not move now (``order``), then walked step by step
(``plan.walk``), which writes the movement into the ledger step by step; the first illegal
step's violations fill the verdict, and applying the plan hands over the ledger's draft of
the state and tells the steps' events."""

from __future__ import annotations

from arbiter.engine.draft import Draft
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Verdict

from .board import Board
from .catalogue import CATALOGUE
from .models import (
    AreaMovementAnyAction,
    AreaMovementAnyStep,
    AreaMovementEndStep,
    AreaMovementPlan,
)
from .order import judge_turn
from .plan import check_plan, walk


def plan_steps(action: AreaMovementAnyAction) -> list[AreaMovementAnyStep]:
    if isinstance(action, AreaMovementPlan):
        return list(action.steps)
    return [AreaMovementEndStep(type="end_movement")]


def judge(board: Board, action: AreaMovementAnyAction) -> Judgement:
    verdict = Verdict(CATALOGUE)
    steps = plan_steps(action)
    player = action.player
    check_plan(board, player, steps)
    judge_turn(board, player, verdict)
    walked = walk(board, player, steps)
    verdict.violations += walked.reported
    if not walked.applicable:
        # A step's effect is undefined, or a later step is illegal too and was not judged:
        # its effect is not applied unannounced, so advisory mode answers as strict mode.
        verdict.applicable = False

    def apply() -> Draft:
        verdict.events += walked.events
        walked.ledger.spelled()
        return walked.ledger.draft

    derived = {"plan": {"steps": len(steps), "first_illegal_step": walked.first_illegal}}
    return Judgement(verdict, apply, derived=derived)

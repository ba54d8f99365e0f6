"""``judge`` for area_movement: a plan (or the declaration of the end on its own, judged as
the plan of that one step) is checked for malformed fields (``plan.check_plan``), refused
as a whole when its player may not move now (``order``), then walked step by step
(``plan.walk``), which writes the movement into the ledger step by step; the first illegal
step's violations fill the verdict after the refusals of the whole plan, and applying the
plan hands over the ledger's draft of the state and tells the steps' events. The derived
facts say how the violations are laid out and whose turn it is before and after."""

from __future__ import annotations

from typing import Any

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
from .order import judge_turn, turn
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
    # The refusals of the whole plan first, then the first illegal step's (derived.plan
    # says how many of each).
    judge_turn(board, player, verdict)
    whole = len(verdict.violations)
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

    def derived() -> dict[str, Any]:
        ended = {p for p in board.order if board.players[p].movement_ended}
        if walked.applicable and walked.ledger.mover["movement_ended"]:
            ended.add(player)
        return {"plan": {"steps": len(steps), "first_illegal_step": walked.first_illegal,
                         "whole_plan_violations": whole},
                "turn": turn(board), "turn_after": turn(board, ended)}

    return Judgement(verdict, apply, derived=derived)

"""``judge`` for area_movement: a plan (or the declaration of the end on its own, judged as
the plan of that one step) is checked for malformed fields (``plan.check_plan``), refused
as a whole when its player may not move now (``order``), then walked step by step
(``plan.walk``); the first illegal step's violations fill the verdict, and applying the
plan writes the movement into a draft of the state and its events into the verdict."""

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
from .order import turn_findings
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
    for finding in turn_findings(board, player):
        verdict.violate(finding.code, at=finding.at, fatal=finding.fatal, **finding.params)
    walked = walk(board, player, steps)
    for finding in walked.reported:
        verdict.violate(finding.code, at=finding.at, fatal=finding.fatal, **finding.params)
    if not walked.applicable:
        # A later step is illegal too and was not judged: its effect is not applied
        # unannounced, so advisory mode answers as strict mode does.
        verdict.applicable = False
    ledger = walked.ledger

    def apply() -> Draft:
        draft = Draft(board.state)
        ledger.write(draft)
        for happening in ledger.happenings:
            verdict.event(happening.kind, at=happening.at, **happening.params)
        return draft

    derived = {"plan": {"steps": len(steps), "first_illegal_step": walked.first_illegal}}
    return Judgement(verdict, apply, derived=derived)

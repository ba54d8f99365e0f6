"""``judge`` for region_conquest: the action goes to the module of its rules (``conquest``
for conquer and final_conquest, ``redeploy`` for redeploy and end_turn), which fills a
verdict against this ruleset's catalogue."""

from __future__ import annotations

from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Verdict

from .board import Board
from .catalogue import CATALOGUE
from .conquest import judge_conquer, judge_final_conquest
from .models import (
    RegionConquestAnyAction,
    RegionConquestConquer,
    RegionConquestFinalConquest,
    RegionConquestRedeploy,
)
from .redeploy import judge_end_turn, judge_redeploy


def judge(board: Board, action: RegionConquestAnyAction) -> Judgement:
    verdict = Verdict(CATALOGUE)
    if isinstance(action, RegionConquestConquer):
        return judge_conquer(board, action, verdict)
    if isinstance(action, RegionConquestFinalConquest):
        return judge_final_conquest(board, action, verdict)
    if isinstance(action, RegionConquestRedeploy):
        return judge_redeploy(board, action, verdict)
    return judge_end_turn(board, action, verdict)

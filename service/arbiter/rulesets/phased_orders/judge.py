"""``judge`` for phased_orders: the action goes to its judging in ``turn.py`` (``resolve``:
a whole turn; ``submit``: one player's orders checked alone), which fills a verdict
against this ruleset's catalogue."""

from __future__ import annotations

from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Verdict

from .board import Board
from .catalogue import CATALOGUE
from .models import PhasedOrdersAnyAction, PhasedOrdersSubmit
from .turn import judge_resolve, judge_submit


def judge(board: Board, action: PhasedOrdersAnyAction) -> Judgement:
    verdict = Verdict(CATALOGUE)
    if isinstance(action, PhasedOrdersSubmit):
        return judge_submit(board, action, verdict)
    return judge_resolve(board, action, verdict)

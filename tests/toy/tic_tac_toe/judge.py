"""``judge`` for tic_tac_toe: the action goes to the module of its rules (``place`` or
``resign``), which fills a verdict against this ruleset's catalogue."""

from __future__ import annotations

from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Verdict

from .board import Board
from .catalogue import CATALOGUE
from .models import TicTacToeAnyAction, TicTacToePlace
from .place import judge_place
from .resign import judge_resign


def judge(board: Board, action: TicTacToeAnyAction) -> Judgement:
    verdict = Verdict(CATALOGUE)
    if isinstance(action, TicTacToePlace):
        return judge_place(board, action, verdict)
    return judge_resign(board, action, verdict)

"""Why a player cannot mark a cell: the ``place`` of it judged by ``judge``."""

from __future__ import annotations

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.why_not import WhyNotAnswer, judged
from arbiter.engine.wire import Frozen, Id

from .board import compile_board
from .judge import judge
from .models import Cell, TicTacToeAction, TicTacToeState


class TicTacToeWhyNotRequest(Frozen):
    state: TicTacToeState
    player: Id
    cell: Cell


class TicTacToeWhyNotResponse(WhyNotAnswer):
    player: str
    cell: int


def run_why_not(request: TicTacToeWhyNotRequest) -> TicTacToeWhyNotResponse:
    board = compile_board(request.state)
    problems = Problems()
    if request.player not in board.players:
        problems.add(pointer("player"), f"unknown player {request.player}")
    problems.raise_if_any()
    action = {"type": "place", "player": request.player, "cell": request.cell}
    written, violations = judged(judge, TicTacToeAction, board, action)
    return TicTacToeWhyNotResponse(possible=written is not None and not violations,
                                   action=written, violations=violations, changes=[],
                                   player=request.player, cell=request.cell)

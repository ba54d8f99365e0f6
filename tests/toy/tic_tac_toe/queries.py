"""The derived question a frontend asks of a state, served at
``POST /v1/rulesets/tic_tac_toe/legal-actions``: what the player may do now, each empty
cell and resigning, each exactly as ``validate`` takes it, bounded by ``limit``. Built on
the engine's ``first_legal`` over the generator (``candidates.py``) and ``judge``, so an
action listed is one ``validate`` accepts, and the other way round."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from arbiter.engine.judging import first_legal
from arbiter.engine.wire import Frozen, Id

from .board import check_player, compile_board
from .candidates import candidates
from .judge import judge
from .models import TicTacToeAnyAction, TicTacToeState


class TicTacToeLegalActionsRequest(Frozen):
    state: TicTacToeState
    player: Id
    limit: int = Field(default=10, ge=1, le=10, description="At most this many actions "
                       "are listed (there are never more than 10).")


class TicTacToeLegalActionsResponse(Frozen):
    player: str
    actions: list[Annotated[TicTacToeAnyAction, Field(discriminator="type")]] = Field(
        description="Each legal action exactly as validate takes it: a mark on each empty "
        "cell in cell order, then resign; none when it is not the player's turn or the game "
        "is over.")
    truncated: bool = Field(description="More than ``limit`` actions are legal.")
    count: int = Field(description="Actions listed (at most ``limit``).")


def run_legal_actions(request: TicTacToeLegalActionsRequest) -> TicTacToeLegalActionsResponse:
    board = compile_board(request.state)
    check_player(board, request.player, at=("player",))
    found = first_legal(judge, board, candidates(board, request.player), request.limit)
    return TicTacToeLegalActionsResponse(player=request.player, actions=found.actions,
                                         truncated=found.truncated, count=len(found.actions))

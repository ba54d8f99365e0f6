"""Resigning: the ``resign`` action. On their turn, while the game goes on, a player may
give up; the other player wins. Out of turn it is illegal but well defined, so advisory
mode (a companion app at a table where players resign when they please) applies it."""

from __future__ import annotations

from arbiter.engine.draft import Draft
from arbiter.engine.judging import Judgement
from arbiter.engine.ledger import Ledger
from arbiter.engine.outcome import Verdict

from .board import Board, check_player
from .models import TicTacToeResign


def judge_resign(board: Board, action: TicTacToeResign, verdict: Verdict) -> Judgement:
    check_player(board, action.player)
    player = action.player
    ending = board.ending
    if ending is not None:
        verdict.violate("game_over", fatal=True, ending=ending)
    if player != board.state.turn:
        verdict.violate("not_your_turn", player=player, turn_player=board.state.turn)

    def apply() -> Draft:
        ledger = Ledger(board.state)
        ledger["resigned"] = player
        verdict.event("player_resigned", player=player, winner=board.opponent(player))
        return ledger.draft

    return Judgement(verdict, apply)

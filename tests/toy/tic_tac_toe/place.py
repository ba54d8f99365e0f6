"""Placing a mark: the ``place`` action.

A mark goes on an empty cell, on the player's turn, while the game goes on; then the turn
passes. The mark that completes three in a row wins the game (loses it, in misère), the
one that fills the grid without a line draws it.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.engine.draft import Draft
from arbiter.engine.judging import Judgement
from arbiter.engine.ledger import Ledger
from arbiter.engine.outcome import Verdict

from .board import Board, check_player
from .lines import completed, full
from .models import Mark, TicTacToePlace


def judge_place(board: Board, action: TicTacToePlace, verdict: Verdict) -> Judgement:
    check_player(board, action.player)
    player, cell = action.player, action.cell
    ending = board.ending
    # Every reason is reported, not just the first. Each is fatal: a mark placed anyway
    # would make a state no game reaches (marks out of turn, on top of another, after the
    # end), so advisory mode cannot apply it either.
    if ending is not None:
        verdict.violate("game_over", fatal=True, ending=ending)
    if player != board.state.turn:
        verdict.violate("not_your_turn", fatal=True, player=player,
                        turn_player=board.state.turn)
    held = board.cells[cell]
    if held is not None:
        verdict.violate("cell_taken", fatal=True, cell=cell, mark=held)

    def apply() -> Draft:
        ledger = Ledger(board.state)
        mark = board.mark_of(player)
        cells = ledger["board"]         # the cells as JSON, changed in place
        cells[cell] = mark
        ledger["turn"] = board.opponent(player)
        verdict.event("mark_placed", player=player, mark=mark, cell=cell)
        announce_end(board, cells, verdict)
        return ledger.draft

    return Judgement(verdict, apply)


def announce_end(board: Board, cells: Sequence[Mark | None], verdict: Verdict) -> None:
    """The event of a mark that ends the game: three in a row, or the last empty cell."""
    lines = completed(cells)
    if lines:
        mark, line = lines[0]
        verdict.event("game_won", winner=board.winner(mark), mark=mark, line=list(line))
    elif full(cells):
        verdict.event("game_drawn")

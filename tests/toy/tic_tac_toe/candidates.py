"""The pseudo-legal generator of tic_tac_toe: the actions worth judging for a player now.
``judge`` filters them (``arbiter.engine.legal``), so what ``legal-actions`` lists
is exactly what ``validate`` accepts. In the documented order: a mark on each empty cell
in cell order, then resigning. Whose turn it is and whether the game is over are left to
``judge``: the generator knows the geometry, not the rules."""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board
from .models import TicTacToeAnyAction, TicTacToePlace, TicTacToeResign


def candidates(board: Board, player: str) -> Iterator[TicTacToeAnyAction]:
    if player not in board.players:
        return
    for cell, mark in enumerate(board.cells):
        if mark is None:
            yield TicTacToePlace(type="place", player=player, cell=cell)
    yield TicTacToeResign(type="resign", player=player)

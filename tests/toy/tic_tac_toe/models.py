"""The wire shapes of ``tic_tac_toe``: the state (two players with their marks, the nine
cells, whose turn it is, who resigned) and the two actions, ``place`` and ``resign``.
Pure data with bounds; whether a state is consistent (marks that alternate, a turn that
follows from them) is checked in ``board.py``, and the rules live in the other modules.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, RootModel

from arbiter.engine.wire import Frozen, Id

Mark = Literal["X", "O"]
# Cells are numbered 0 to 8 row by row from the top left: 0 1 2 / 3 4 5 / 6 7 8.
Cell = Annotated[int, Field(ge=0, le=8)]


class TicTacToeOptions(Frozen):
    """Variants and house rules."""

    misere: bool = Field(default=False, description="Misère: the player who completes "
                         "three in a row loses instead of winning.")


class TicTacToePlayer(Frozen):
    id: Id
    mark: Mark


class TicTacToeState(Frozen):
    options: TicTacToeOptions = Field(default_factory=TicTacToeOptions)
    players: list[TicTacToePlayer] = Field(min_length=2, max_length=2,
                                           description="The two players, one mark each.")
    board: list[Mark | None] = Field(min_length=9, max_length=9,
                                     description="The nine cells row by row, null when empty.")
    turn: Id = Field(description="The player whose turn it is.")
    resigned: Id | None = Field(default=None, description="The player who resigned, "
                                "which ended the game.")


class TicTacToePlace(Frozen):
    """Put the player's mark on an empty cell."""

    type: Literal["place"]
    player: Id
    cell: Cell


class TicTacToeResign(Frozen):
    """Give up: the other player wins."""

    type: Literal["resign"]
    player: Id


# One action of the union, as ``judge`` takes it.
TicTacToeAnyAction = TicTacToePlace | TicTacToeResign


class TicTacToeAction(RootModel[Annotated[TicTacToeAnyAction, Field(discriminator="type")]]):
    pass

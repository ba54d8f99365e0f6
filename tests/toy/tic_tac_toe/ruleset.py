"""The ``tic_tac_toe`` ruleset, assembled from its parts: models, catalogue,
``compile_board``, ``judge``, the ``candidates`` generator and what its legal-actions
lists. The engine runs the pipeline and answers legal-actions
(``arbiter.engine.ruleset.Ruleset``)."""

from __future__ import annotations

from arbiter.engine.legal import Listing
from arbiter.engine.ruleset import Query, Ruleset

from .board import Board, compile_board
from .candidates import candidates
from .catalogue import CATALOGUE
from .examples import EXAMPLE_STATE, EXAMPLES
from .judge import judge
from .models import TicTacToeAction, TicTacToeAnyAction, TicTacToeOptions, TicTacToeState
from .why_not import TicTacToeWhyNotRequest, TicTacToeWhyNotResponse, run_why_not

LISTING: Listing[Board, TicTacToeAnyAction] = Listing(
    summary="What the player may do now: a mark on each empty cell, and resigning.",
    order="a mark on each empty cell in cell order, then resign; none when it is not the "
          "player's turn or the game is over.",
    examples=({"state": EXAMPLE_STATE, "player": "alice"},))

WHY_NOT = Query(
    name="why-not", summary="Why a player cannot mark a cell: the mark judged as validate "
    "judges it.", request=TicTacToeWhyNotRequest, response=TicTacToeWhyNotResponse,
    run=run_why_not, examples=({"state": EXAMPLE_STATE, "player": "alice", "cell": 4},))

RULESET: Ruleset[TicTacToeState, TicTacToeAnyAction, Board] = Ruleset(
    catalogue=CATALOGUE,
    state_model=TicTacToeState,
    action_model=TicTacToeAction,
    options_model=TicTacToeOptions,
    compile=compile_board,
    judge=judge,
    candidates=candidates,
    listing=LISTING,
    queries={},
    examples=EXAMPLES,
    why_not=WHY_NOT,
)

"""The ``tic_tac_toe`` ruleset, assembled from its parts: models, catalogue,
``compile_board``, ``judge``, the ``candidates`` generator and the legal-actions query.
The engine runs the pipeline (``arbiter.engine.ruleset.Ruleset``)."""

from __future__ import annotations

from arbiter.engine.ruleset import Query, Ruleset

from .board import Board, compile_board
from .candidates import candidates
from .catalogue import CATALOGUE
from .examples import EXAMPLE_STATE, EXAMPLES
from .judge import judge
from .models import TicTacToeAction, TicTacToeAnyAction, TicTacToeOptions, TicTacToeState
from .queries import (
    TicTacToeLegalActionsRequest,
    TicTacToeLegalActionsResponse,
    run_legal_actions,
)

QUERIES = {q.name: q for q in (
    Query(name="legal-actions",
          summary="What the player may do now: a mark on each empty cell, and resigning.",
          request=TicTacToeLegalActionsRequest, response=TicTacToeLegalActionsResponse,
          run=run_legal_actions,
          examples=({"state": EXAMPLE_STATE, "player": "alice"},)),
)}

RULESET: Ruleset[TicTacToeState, TicTacToeAnyAction, Board] = Ruleset(
    catalogue=CATALOGUE,
    state_model=TicTacToeState,
    action_model=TicTacToeAction,
    options_model=TicTacToeOptions,
    compile=compile_board,
    judge=judge,
    candidates=candidates,
    queries=QUERIES,
    examples=EXAMPLES,
)

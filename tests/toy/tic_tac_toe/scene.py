"""What a ``tic_tac_toe`` state looks like (``render``): the nine cells as nodes placed on
their grid (the state fixes the geometry, so nothing is laid out), each mark a piece of
its player; the completed line's cells are named in the picture's description.

Overlay: ``moves`` shades the empty cells where the player may place a mark now, each
with its ``place`` action (the legal-actions query's answer). A proposed action is drawn
as a ring on its cell; its violations are marked by ``render``.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from arbiter.engine.legal import legal
from arbiter.engine.wire import Frozen, Id
from arbiter.pictures.scene import Arrow, Node, Picture, Piece, Scene, Shade

from .board import Board
from .candidates import candidates
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE
from .judge import judge
from .models import TicTacToeAnyAction, TicTacToePlace


class TicTacToeMovesOverlay(Frozen):
    player: Id


class TicTacToeOverlay(Frozen):
    """What to draw over a tic-tac-toe grid."""

    moves: TicTacToeMovesOverlay | None = Field(
        default=None, description="Shade the cells where the player may place a mark now.")


def scene(board: Board, overlay: TicTacToeOverlay | None,
          action: TicTacToeAnyAction | None) -> Scene:
    state = board.state
    nodes = tuple(Node(id=str(i), kind="square", label=str(i), title=f"cell {i}",
                       x=float(i % 3), y=float(i // 3)) for i in range(9))
    pieces = tuple(Piece(id=f"{mark}@{i}", at=str(i), owner=board.by_mark[mark], label=mark,
                         title=f"{board.by_mark[mark]}'s {mark} on cell {i}",
                         desc=f"a mark of {board.by_mark[mark]}",
                         select={"moves": {"player": state.turn}})
                   for i, mark in enumerate(state.board) if mark is not None)
    caption = ""
    shades: tuple[Shade, ...] = ()
    if overlay is not None and overlay.moves is not None:
        player = overlay.moves.player
        shades = tuple(Shade(at=str(a.cell), cost=0, label=f"{player} may place here",
                             action=a.model_dump(mode="json"))
                       for a in legal(judge, board, candidates(board, player))
                       if isinstance(a, TicTacToePlace))
        caption = f"where {player} may place a mark"
    arrows = ((Arrow(path=(str(action.cell),), owner=action.player,
                     label=f"{action.player} places on cell {action.cell}"),)
              if isinstance(action, TicTacToePlace) else ())
    line = f" Three in a row: cells {board.line[1]}." if board.line else ""
    return Scene(title=f"tic_tac_toe: {state.turn} to play",
                 desc=f"A 3×3 grid, cells 0 to 8 row by row.{line}",
                 players=tuple(p.id for p in state.players), nodes=nodes, pieces=pieces,
                 shades=shades, arrows=arrows, caption=caption, shade_unit="moves")


EXAMPLES: tuple[dict[str, Any], ...] = (
    {"state": EXAMPLE_STATE},
    {"state": EXAMPLE_STATE, "overlay": {"moves": {"player": "alice"}}},
    {"state": EXAMPLE_STATE, "overlay": {"action": EXAMPLE_ACTION}},
)

PICTURE: Picture[Board] = Picture(overlay=TicTacToeOverlay, scene=scene, examples=EXAMPLES)

"""The order of movement: census order with the A.S.T. breaking ties (order.1, order.2),
whose turn it is, and the refusals of a plan sent out of turn or after its player has
declared the end of his movement (plan.2). With the ``simultaneous_movement`` option
every player may move as soon as he likes (order.3).

Whose turn it is (``turn``) is what the service computes from the census order and the
players' ``movement_ended`` flags, answered as it is (census-order, validate's
``derived.turn``) so that a client never computes it again."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from arbiter.engine.outcome import Verdict

from .board import Board


def waiting_for(board: Board, player: str) -> list[str]:
    """The players before ``player`` in census order who have not declared their end."""
    before = board.order[:board.order.index(player)]
    return [p for p in before if not board.players[p].movement_ended]


def turn(board: Board, ended: Collection[str] | None = None) -> dict[str, Any]:
    """Whose turn it is (``AreaMovementTurn``): the player who moves now in census order,
    every player who may move now (that one, or with simultaneous movement every player
    who has not declared his end, in census order), and whether movement is simultaneous.
    ``ended``: the players who have declared their end, when not the state's flags (the
    turn a plan leaves)."""
    if ended is None:
        ended = {p for p in board.order if board.players[p].movement_ended}
    waiting = [p for p in board.order if p not in ended]
    simultaneous = board.state.options.simultaneous_movement
    moving = waiting[0] if waiting else None
    return {"moving": moving, "may_move": waiting if simultaneous else waiting[:1],
            "simultaneous": simultaneous}


def judge_turn(board: Board, player: str, verdict: Verdict) -> bool:
    """Refuse any plan of ``player`` now, whatever its steps, into ``verdict``; whether the
    player may move now. Each refusal leaves the plan's effect well defined (advisory mode
    applies it). These refusals concern the whole plan (``at.step`` null): ``judge`` lists
    them before the first illegal step's."""
    if board.players[player].movement_ended:
        verdict.violate("movement_already_ended", player=player)
        return False
    if board.state.options.simultaneous_movement:
        return True
    waiting = waiting_for(board, player)
    if waiting:
        verdict.violate("out_of_turn", player=player, waiting_for=waiting)
        return False
    return True

"""The order of movement: census order with the A.S.T. breaking ties (order.1, order.2),
whose turn it is, and the refusals of a plan sent out of turn or after its player has
declared the end of his movement (plan.2). With the ``simultaneous_movement`` option
every player may move as soon as he likes (order.3)."""

from __future__ import annotations

from arbiter.engine.outcome import Verdict

from .board import Board


def mover(board: Board) -> str | None:
    """The player whose turn it is in census order: the first who has not declared the end
    of his movement (None once all have)."""
    return next((p for p in board.order if not board.players[p].movement_ended), None)


def waiting_for(board: Board, player: str) -> list[str]:
    """The players before ``player`` in census order who have not declared their end."""
    before = board.order[:board.order.index(player)]
    return [p for p in before if not board.players[p].movement_ended]


def judge_turn(board: Board, player: str, verdict: Verdict) -> bool:
    """Refuse any plan of ``player`` now, whatever its steps, into ``verdict``; whether the
    player may move now. Each refusal leaves the plan's effect well defined (advisory mode
    applies it)."""
    if board.players[player].movement_ended:
        verdict.violate("movement_ended", player=player)
        return False
    if board.state.options.simultaneous_movement:
        return True
    waiting = waiting_for(board, player)
    if waiting:
        verdict.violate("out_of_turn", player=player, waiting_for=waiting)
        return False
    return True

"""The ``legal-actions`` query: a player's legal recruits, moves (bounded by the request's
limit) and whether they may stop. Moves are built from the same reach, majority and token
rules that ``validate`` judges with, so the two cannot disagree (a property test checks).

A move is listed once per destination and count of pawns from each source, in the
canonical form a player would usually want: pawns leave from off bonus locations first
(keeping bonuses), and survivors take the destination's free bonus locations in order.
Other choices of which pawns leave and where survivors stand are legal too; listing every
one would multiply the list without telling a frontend anything new."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from .board import Board, compile_board
from .derived import known_player
from .models import (
    Id,
    TerritoryConquestMove,
    TerritoryConquestRecruit,
    TerritoryConquestState,
)
from .move import draw_pawns, free_locations, holds_double_move, reach
from .order import phase_ended, to_act


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TerritoryConquestLegalActionsRequest(_Frozen):
    state: TerritoryConquestState
    player: Id
    limit: Annotated[int, Field(ge=1, le=10_000)] = Field(
        default=100, description="At most this many moves are listed.")


class TerritoryConquestLegalActionsResponse(_Frozen):
    player: str
    to_act: bool = Field(description="It is this player's action (nothing is legal "
                         "otherwise).")
    phase_ended: bool
    recruits: list[TerritoryConquestRecruit]
    moves: list[TerritoryConquestMove]
    can_stop: bool
    truncated: bool = Field(description="More legal moves exist than the limit allowed.")
    count: int = Field(description="Moves listed (at most ``limit``).")


def legal_actions(request: TerritoryConquestLegalActionsRequest
                  ) -> TerritoryConquestLegalActionsResponse:
    state = request.state
    board = compile_board(state)
    known_player(board, request.player)
    player = request.player
    acting = to_act(state) == player
    recruits: list[TerritoryConquestRecruit] = []
    moves: list[TerritoryConquestMove] = []
    truncated = False
    if acting:
        p = board.players[player]
        recruits = [TerritoryConquestRecruit(type="recruit", player=player, count=n)
                    for n in range(1, min(board.reserve(player), p.soldier_tokens) + 1)]
        for move in legal_moves(board, player):
            if len(moves) == request.limit:
                truncated = True
                break
            moves.append(move)
    return TerritoryConquestLegalActionsResponse(
        player=player, to_act=acting, phase_ended=phase_ended(state), recruits=recruits,
        moves=moves, can_stop=acting, truncated=truncated, count=len(moves))


def legal_moves(board: Board, player: str) -> Iterator[TerritoryConquestMove]:
    """Every legal move of ``player`` (turn aside), by destination, then by pawns moved."""
    opponent = board.opponent(player)
    double_move = holds_double_move(board, player)
    soldier_tokens = board.players[player].soldier_tokens
    for dest in sorted(board.territories):
        if dest == board.castle[opponent]:
            continue
        sources = list(reach(board, player, dest, double_move=double_move))
        if not sources:
            continue
        enemy = board.pawns(opponent, dest)
        caps = [board.pawns(player, t) for t in sources]
        free = free_locations(board, player, dest)
        for total in range(enemy + 1, min(soldier_tokens, sum(caps)) + 1):
            for counts in _compositions(total, caps):
                yield TerritoryConquestMove(
                    type="move", player=player, destination=dest,
                    sources=[draw_pawns(board, player, t, n)
                             for t, n in zip(sources, counts, strict=True) if n > 0],
                    placement=free[:total - enemy])


def _compositions(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``total`` pawns with at most ``caps[i]`` from source i."""
    if not caps:
        if total == 0:
            yield ()
        return
    rest = sum(caps[1:])
    for first in range(max(0, total - rest), min(caps[0], total) + 1):
        for tail in _compositions(total - first, caps[1:]):
            yield (first, *tail)

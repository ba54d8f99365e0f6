"""The pseudo-legal generator of territory_conquest: the actions worth judging for a player
now. ``judge`` filters them (``arbiter.engine.legal``), so what ``legal-actions``
lists is exactly what ``validate`` accepts.

In the documented order: recruits of 1 pawn up to the whole reserve, then moves by
destination (territory order), then by pawns moved and by how many leave each source, then
the stop. Only the player to act has candidates: ``judge`` refuses any action of the other
player (``order.judge_turn`` asks the very question ``order.to_act`` answers), and judging
each of their moves only to refuse it would cost the whole enumeration.

A move is proposed once per destination and count of pawns from each source, in the
canonical form a player would usually want: pawns leave from off bonus locations first
(keeping bonuses), and survivors take the destination's free bonus locations in order.
Other choices of which pawns leave and where survivors stand are legal too; listing every
one would multiply the list without telling a frontend anything new. The enumeration stops
where ``judge`` would refuse every move further on — no more pawns than the soldier tokens
pay for, no fewer than a majority, never into the opponent's castle — so that a player
with no legal move costs no judging.
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board
from .models import (
    TerritoryConquestAnyAction,
    TerritoryConquestMove,
    TerritoryConquestRecruit,
    TerritoryConquestSource,
    TerritoryConquestStop,
)
from .move import free_locations, holds_double_move, reach
from .order import to_act


def candidates(board: Board, player: str) -> Iterator[TerritoryConquestAnyAction]:
    yield from recruits(board, player)
    yield from moves(board, player)
    yield from stops(board, player)


def acting(board: Board, player: str) -> bool:
    """Is it ``player``'s action (the phase under way)?"""
    return player in board.players and to_act(board.state) == player


def recruits(board: Board, player: str) -> Iterator[TerritoryConquestRecruit]:
    """Recruits of 1 pawn up to the reserve; the soldier tokens are ``judge``'s to count."""
    if not acting(board, player):
        return
    for count in range(1, board.reserve(player) + 1):
        yield TerritoryConquestRecruit(type="recruit", player=player, count=count)


def moves(board: Board, player: str) -> Iterator[TerritoryConquestMove]:
    """Moves by destination, then by pawns moved, then by pawns from each source."""
    if not acting(board, player):
        return
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


def stops(board: Board, player: str) -> Iterator[TerritoryConquestStop]:
    if acting(board, player):
        yield TerritoryConquestStop(type="stop", player=player)


def draw_pawns(board: Board, player: str, territory: str, count: int) -> TerritoryConquestSource:
    """``count`` pawns leaving ``territory``, the way that keeps bonuses: pawns standing off
    bonus locations first, then pawns on bonus locations in location order."""
    plain = board.plain_pawns(player, territory)
    from_bonus = board.held_locations(player, territory)[:max(count - plain, 0)]
    return TerritoryConquestSource(territory=territory, count=count,
                                   from_bonus_locations=from_bonus)


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

"""The mutable copy of both players' pieces that an action changes while it is applied —
reserve, pawns per territory, occupied bonus locations, soldier, trap and spy tokens — and
the resulting state's fields it writes: ``players`` and the turn record ``conquest``, into
a ``Draft`` of the state. The request's models are never touched; the pipeline checks the
result against the state model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.engine.draft import Draft

from .board import Board
from .models import BonusEffect


@dataclass(slots=True)
class Side:
    """One player's pieces."""

    player: str
    castle: str
    reserve: int
    armies: dict[str, int]
    on_bonus: set[str]
    soldier_tokens: int
    trap_tokens: int
    spy_tokens: int

    def add(self, territory: str, pawns: int) -> None:
        self.armies[territory] = self.armies.get(territory, 0) + pawns

    def remove(self, territory: str, pawns: int) -> None:
        self.armies[territory] = self.armies.get(territory, 0) - pawns
        if self.armies[territory] == 0:
            del self.armies[territory]


class Pieces:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.sides = {
            p.id: Side(player=p.id, castle=p.castle, reserve=board.reserve(p.id),
                       armies=dict(board.armies[p.id]),
                       on_bonus={loc for loc, who in board.occupant.items() if who == p.id},
                       soldier_tokens=p.soldier_tokens,
                       trap_tokens=board.tokens(p.id, BonusEffect.trap_token),
                       spy_tokens=board.tokens(p.id, BonusEffect.spy_token))
            for p in board.state.players}

    def side(self, player: str) -> Side:
        return self.sides[player]

    def to_draft(self, record: dict[str, Any]) -> Draft:
        """The resulting state: every player's pieces spelled out (a reserve or token count
        the request left out is written, armies listed by territory with empty territories
        left out, bonus locations sorted) and ``record`` as the turn record."""
        draft = Draft(self.board.state)
        for player in draft["players"]:
            side = self.sides[player["id"]]
            player.update(
                reserve=side.reserve,
                armies={t: n for t, n in sorted(side.armies.items()) if n > 0},
                on_bonus_locations=sorted(side.on_bonus),
                soldier_tokens=side.soldier_tokens,
                trap_tokens=side.trap_tokens,
                spy_tokens=side.spy_tokens,
            )
        draft["conquest"] = record
        return draft

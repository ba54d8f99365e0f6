"""The ledger of territory_conquest (``arbiter.engine.ledger``): the working copy an
action's effect is written into, a ``Draft`` of the state with both players indexed by id,
and the moves the rules make on a player's pieces: pawns put into and taken out of a
territory, a pawn occupying or leaving a bonus location, soldier, trap and spy tokens
spent and taken. A recruit, a move and its equal losses read as entries against each
player's counts.

Every action writes both players out in full (a reserve or token count the request left
out is written, armies listed by territory with empty territories left out, bonus
locations sorted), a stop too: the ledger spells them out when it is opened, and each
move keeps them so.
"""

from __future__ import annotations

import bisect

from arbiter.engine import ledger
from arbiter.engine.ledger import Record

from .board import Board
from .models import BonusEffect


class Ledger(ledger.Ledger):
    __slots__ = ()

    def __init__(self, board: Board) -> None:
        super().__init__(board.state)
        for pid, player in self.players.items():
            player.update(
                reserve=board.reserve(pid),
                armies=dict(sorted(board.armies[pid].items())),
                on_bonus_locations=sorted(loc for loc, who in board.occupant.items()
                                          if who == pid),
                trap_tokens=board.tokens(pid, BonusEffect.trap_token),
                spy_tokens=board.tokens(pid, BonusEffect.spy_token))

    @property
    def players(self) -> dict[str, Record]:
        return self.by_id("players")

    def armies(self, player: str) -> dict[str, int]:
        """The player's pawns by territory, as the ledger holds them now."""
        armies: dict[str, int] = self.players[player]["armies"]
        return armies

    def put(self, player: str, territory: str, pawns: int) -> None:
        armies = self.armies(player)
        if territory in armies:
            armies[territory] += pawns
        else:
            armies[territory] = pawns
            self.players[player]["armies"] = dict(sorted(armies.items()))

    def take(self, player: str, territory: str, pawns: int) -> None:
        """Pawns leave a territory; one left with none is no longer listed."""
        armies = self.armies(player)
        armies[territory] = armies.get(territory, 0) - pawns
        if armies[territory] == 0:
            del armies[territory]

    def occupy(self, player: str, location: str) -> None:
        held: list[str] = self.players[player]["on_bonus_locations"]
        if location not in held:
            bisect.insort(held, location)

    def vacate(self, player: str, location: str) -> None:
        held: list[str] = self.players[player]["on_bonus_locations"]
        if location in held:
            held.remove(location)

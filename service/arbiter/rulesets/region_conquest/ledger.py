"""The ledger of region_conquest (``arbiter.engine.ledger``): the working copy an action's
effect is written into, a ``Draft`` of the state with its regions and players indexed by
id as the rules touch them, and the two token moves the rules make (into a region, out of
a region). Tokens are what the game counts and moves, so the effect reads as entries in a
ledger: a hand spent, a region's tokens put or taken, a tray or a coin pile grown.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine import ledger
from arbiter.engine.ledger import Record


class Ledger(ledger.Ledger):
    __slots__ = ()

    @property
    def regions(self) -> dict[str, Record]:
        return self.by_id("regions")

    @property
    def players(self) -> dict[str, Record]:
        return self.by_id("players")

    @property
    def turn(self) -> dict[str, Any]:
        turn: dict[str, Any] = self["turn"]
        return turn

    def put(self, player: str, region: str, tokens: int, race: str = "active") -> None:
        held = self.players[player][race]
        held[region] = held.get(region, 0) + tokens

    def take(self, player: str, region: str, tokens: int, race: str = "active") -> None:
        """Remove tokens from a region; a region left with none is no longer listed."""
        held = self.players[player][race]
        left = held.get(region, 0) - tokens
        if left > 0:
            held[region] = left
        else:
            held.pop(region, None)

"""The ledger of phased_orders (``arbiter.engine.ledger``): the working copy a turn's effect
is written into as the phases run, a ``Draft`` of the state with its units, players and
strongholds indexed by id as the turn first changes them. Every change the turn makes to
the state (a unit moved, wounded, levelled, lost or come into play; a pool, a relation or
a stronghold's store; the seed after a draw) is entered here when it happens, so the
resulting state is the ledger's draft and a field the turn never changed is never
written out. The phases read the turn's own view of the board (``world.World``).
"""

from __future__ import annotations

from typing import Any

from arbiter.engine import ledger
from arbiter.engine.ledger import Record


class Ledger(ledger.Ledger):
    __slots__ = ()

    @property
    def units(self) -> dict[str, Record]:
        return self.by_id("units")

    @property
    def players(self) -> dict[str, Record]:
        return self.by_id("players")

    @property
    def strongholds(self) -> dict[str, Record]:
        return self.by_id("strongholds")

    def unit(self, uid: str, fields: dict[str, Any]) -> None:
        """A unit's fields as they now stand (``world.Piece.fields``)."""
        self.units[uid].update(fields)

"""The ledger of hex_maneuver (``arbiter.engine.ledger``): the working copy an action's
effect is written into, a ``Draft`` of the state with its armies and players indexed by id
as the rules touch them, and the army moves a maneuver makes: units taken out of an army
(which leaves the map once empty), units landing on a hex (joining the player's army there
or forming a new one with a fresh id). What a maneuver or an exploration changes reads as
its entries: an army's units and depletion cubes, a tile off the stack, a relic out of the
bag, a voting cube spent. The map's JSON comes ready from the board's map index (dumped
once per map), so a maneuver, which leaves the map as it is, never dumps it again.
"""

from __future__ import annotations

from arbiter.engine import ledger
from arbiter.engine.hexgrid import Hex, as_dict
from arbiter.engine.ledger import Record

from .board import Board
from .maneuver import Units, add, sub


class Ledger(ledger.Ledger):
    __slots__ = ()

    def __init__(self, board: Board) -> None:
        super().__init__(board.state, ready=board.ready())

    @property
    def armies(self) -> dict[str, Record]:
        return self.by_id("armies")

    @property
    def players(self) -> dict[str, Record]:
        return self.by_id("players")

    def own_at(self, player: str, h: Hex) -> Record | None:
        """The player's army on ``h`` (the first by id, should a state hold two)."""
        here = [a for a in self.armies.values()
                if a["owner"] == player and (a["hex"]["q"], a["hex"]["r"]) == h]
        return min(here, key=lambda a: a["id"]) if here else None

    def take(self, army_id: str, units: Units, packers_taken_unpacked: int = 0) -> None:
        """``units`` leave the army; an army left with none leaves the map."""
        army = self.armies[army_id]
        army["units"] = sub(army["units"], units)
        army["unpacked"] = max(0, army.get("unpacked", 0) - packers_taken_unpacked)
        if not army["units"]:
            self.remove("armies", army_id)

    def new_id(self, base: str) -> str:
        """The first ``base.n`` no army of the state holds (split.1)."""
        n = 1
        while f"{base}.{n}" in self.armies:
            n += 1
        return f"{base}.{n}"

    def land(self, player: str, h: Hex, units: Units, cubes: int, *,
             keep_id: str | None, base: str, unpacked: int = 0) -> tuple[str, str | None]:
        """Put ``units`` on ``h`` with ``cubes`` depletion: join the player's army there, or
        form a new one (named ``keep_id`` when that is free, else a fresh ``base.n``).
        ``unpacked``: how many of the packing units among ``units`` still stand unpacked.
        Returns (army id, id of the army joined or None)."""
        host = self.own_at(player, h)
        if host is not None:
            host["units"] = add(host["units"], units)
            host["depletion"] = max(host["depletion"], cubes)
            host["unpacked"] = host.get("unpacked", 0) + unpacked
            return host["id"], host["id"]
        army_id = keep_id if keep_id is not None and keep_id not in self.armies \
            else self.new_id(base)
        self.add("armies", {"id": army_id, "owner": player, "hex": as_dict(h), "units": units,
                            "depletion": cubes, "unpacked": unpacked})
        return army_id, None

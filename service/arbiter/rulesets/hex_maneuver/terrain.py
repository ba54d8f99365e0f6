"""What it costs a column of units to enter one hex, and why it may not.

One function, ``enter``, answers for both the path checker (which reports every reason)
and the pathfinder (which only needs the cost): terrain prices (terrain.1-3), vessels on
water only (vessel.1), peasants wading into the sea (peasant_sea.1), ferrying at 0 MP next
to a vessel (ferry.1-2) and the candidate free entry into an own city or castle
(terrain.4, decided over the whole path by the caller).

A column that contains a vessel carries its land units: they are on the vessel's hex at
every step, so they spend nothing and the column pays the vessel's price.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from arbiter.engine.hexgrid import Hex, as_dict

from .board import Board
from .models import Terrain

LAND_PRICE = {
    Terrain.plains: 1, Terrain.forest: 1, Terrain.hills: 1,
    Terrain.mountains: 2, Terrain.swamp: 2,
}
UNEXPLORED_PRICE = 2
SEA_WADING_PRICE = 2


@dataclass(frozen=True, slots=True)
class Column:
    """The make-up of the moving units that matters for entering a hex."""

    land: tuple[str, ...]       # land unit types present
    vessels: tuple[str, ...]    # vessel types present
    waders_only: bool           # every land unit may wade into the sea (peasants)

    @classmethod
    def of(cls, board: Board, units: dict[str, int]) -> Column:
        present = sorted(u for u, c in units.items() if c > 0)
        land = tuple(u for u in present if u not in board.vessel_types)
        vessels = tuple(u for u in present if u in board.vessel_types)
        waders = all(board.unit_types[u].enters_sea for u in land)
        return cls(land, vessels, waders)

    @property
    def carried_by_vessel(self) -> bool:
        return bool(self.vessels)


@dataclass(frozen=True, slots=True)
class Entry:
    """The price of entering one hex. ``free_candidate``: an own city or castle, whose
    price the once-per-maneuver free entry may waive. ``blocked``: (code, params) reasons,
    the params as the verdict's message params take them (hexes as ``{"q", "r"}``)."""

    cost: int
    free_candidate: bool = False
    ferried: bool = False
    blocked: tuple[tuple[str, dict[str, Any]], ...] = ()


def enter(board: Board, h: Hex, column: Column, ferry_zone: set[Hex],
          own_structures: AbstractSet[Hex]) -> Entry:
    terrain = board.terrain.get(h)
    if terrain is None:  # unexplored province: price known, terrain not yet
        if column.land and not column.vessels and h in ferry_zone:
            return Entry(0, ferried=True)
        return Entry(UNEXPLORED_PRICE)
    water = terrain in (Terrain.sea, Terrain.ocean)
    if column.vessels:
        if not water:
            return Entry(1, blocked=(("vessel_off_water",
                                      {"hex": as_dict(h), "terrain": terrain.value}),))
        return Entry(1)
    # A column of land units only.
    if h in ferry_zone:
        return Entry(0, ferried=True)
    if water:
        if terrain is Terrain.sea and column.waders_only:
            return Entry(SEA_WADING_PRICE)
        if terrain is Terrain.ocean and column.waders_only:
            return Entry(SEA_WADING_PRICE,
                         blocked=(("peasants_into_ocean", {"hex": as_dict(h)}),))
        stuck = [u for u in column.land
                 if not board.unit_types[u].enters_sea or terrain is Terrain.ocean]
        return Entry(1, blocked=(("water_needs_ferry", {"hex": as_dict(h), "terrain": terrain.value,
                                                        "units": stuck}),))
    price = LAND_PRICE[terrain]
    return Entry(price, free_candidate=h in own_structures)

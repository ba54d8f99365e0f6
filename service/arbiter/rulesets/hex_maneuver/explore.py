"""Exploration: fitting the flipped province tile with a rotation, the two placement
conditions and their priority (explore.3-4), landing on the claimed hex or staying put
(explore.5), relics by solid and outlined symbols (relic.1-3) and the event card with the
explorer's voting cube (event.1-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.engine.hexgrid import Hex, as_dict, neighbours, rotate
from arbiter.engine.rng import SeededRng

from .board import Board
from .models import WATER, HexManeuverTile, RelicSymbol, Terrain
from .terrain import Column

ROTATIONS = range(6)


@dataclass(frozen=True, slots=True)
class Placement:
    """The tile turned ``rotation`` sixths, laid on the province (or not fitting)."""

    rotation: int
    fits: bool
    terrain: dict[Hex, Terrain]
    relic_hex: Hex | None
    relic_symbol: RelicSymbol | None
    continues_water: bool   # condition 1
    can_land: bool          # condition 2

    @property
    def level(self) -> int:
        """explore.4's priority, as the Reading to implement settles it: a rotation meeting
        both conditions is required when one exists; otherwise one meeting condition 1;
        otherwise any (condition 2 alone ranks no higher than no condition)."""
        if not self.fits:
            return -1
        if self.continues_water and self.can_land:
            return 2
        return 1 if self.continues_water else 0

    def conditions(self) -> list[str]:
        met = []
        if self.continues_water:
            met.append("water_continues")
        if self.can_land:
            met.append("army_can_land")
        return met


def place(board: Board, tile: HexManeuverTile, province: str, rotation: int, claimed: Hex,
          column: Column, ferry_zone: set[Hex]) -> Placement:
    province_hexes = set(board.province_hexes[province])
    offsets = [(rotate((t.dq, t.dr), (0, 0), rotation), t) for t in tile.hexes]
    # The tile's centre goes on the province hex that makes the rotated tile cover the
    # province exactly; the first such hex in sorted order when several would.
    for center in sorted(province_hexes):
        cells = {(center[0] + o[0], center[1] + o[1]): t for o, t in offsets}
        if set(cells) == province_hexes:
            break
    else:
        return Placement(rotation, False, {}, None, None, False, False)
    terrain = {h: t.terrain for h, t in cells.items()}
    relic = next(((h, t.relic_symbol) for h, t in cells.items() if t.relic_symbol), None)
    water = [h for h, t in terrain.items() if t in WATER]
    continues = not water or any(
        n not in province_hexes and board.terrain.get(n) in WATER
        for h in water for n in neighbours(h))
    return Placement(rotation, True, terrain, relic[0] if relic else None,
                     relic[1] if relic else None, continues,
                     may_end_on(terrain[claimed], claimed, column, ferry_zone))


def may_end_on(terrain: Terrain, h: Hex, column: Column, ferry_zone: set[Hex]) -> bool:
    """Condition 2: the exploring column may stand on the claimed hex once it is revealed."""
    water = terrain in WATER
    if column.vessels:
        return water
    if not water:
        return True
    if h in ferry_zone:
        return True
    return terrain is Terrain.sea and column.waders_only


def placements(board: Board, tile: HexManeuverTile, province: str, claimed: Hex,
               column: Column, ferry_zone: set[Hex]) -> list[Placement]:
    return [place(board, tile, province, r, claimed, column, ferry_zone) for r in ROTATIONS]


def relic_due(board: Board, symbol: RelicSymbol | None, province: str) -> tuple[bool, str]:
    """Whether this tile receives a relic, and why (relic.1, relic.2)."""
    relics = board.state.relics
    if symbol is None:
        return False, "the tile shows no relic symbol"
    left = relics.to_place if relics is not None else 0
    if left <= 0:
        return False, "no relics remain to be placed"
    if symbol is RelicSymbol.solid:
        return True, "solid symbol"
    remaining = len(board.unexplored_provinces() - {province})
    if left > remaining:
        return True, f"outlined symbol: {left} relics left > {remaining} unexplored provinces"
    return False, f"outlined symbol: {left} relics left <= {remaining} unexplored provinces"


def draw_relic(bag: list[str], rng: SeededRng) -> str:
    return bag[rng.below(len(bag))]


def lay_tile(state: dict[str, Any], placement: Placement, province: str) -> None:
    for hx in state["hexes"]:
        h = (hx["q"], hx["r"])
        if hx["province"] == province and h in placement.terrain:
            hx["terrain"] = placement.terrain[h].value
            hx["explored"] = True


def add_event_card(state: dict[str, Any], card: str, player: str, cube: bool) -> int:
    """Put ``card`` in the last row of up to three (a full row starts another); returns the
    row's index."""
    rows: list[list[dict[str, Any]]] = state["events"]["rows"]
    if not rows or len(rows[-1]) >= 3:
        rows.append([])
    rows[-1].append({"card": card, "voting_cubes": [player] if cube else []})
    return len(rows) - 1


def relic_entry(relic: str, h: Hex) -> dict[str, Any]:
    return {"relic": relic, "hex": as_dict(h)}

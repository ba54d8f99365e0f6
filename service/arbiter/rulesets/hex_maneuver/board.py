"""The state compiled for fast questions: terrain by hex, provinces, the unit catalogue,
pieces by hex; and the consistency checks that make a state malformed (422) rather than
merely illegal to move in. Built once per request and shared by every question in it."""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter

from arbiter.engine.errors import Problem, Problems, pointer
from arbiter.engine.hexgrid import Hex, neighbours

from .catalogue import DEFAULT_UNIT_TYPES
from .models import (
    WATER,
    HexManeuverArmy,
    HexManeuverHex,
    HexManeuverState,
    HexManeuverStructure,
    HexManeuverTile,
    HexManeuverUnitType,
    StructureKind,
    Terrain,
)


@dataclass(slots=True)
class Board:
    state: HexManeuverState
    unit_types: dict[str, HexManeuverUnitType]
    terrain: dict[Hex, Terrain | None]
    province: dict[Hex, str]
    unexplored: frozenset[Hex]
    province_hexes: dict[str, list[Hex]]
    armies: dict[str, HexManeuverArmy]
    army_index: dict[str, int]
    hex_map: MapIndex  # what terrain, province, unexplored and province_hexes come from
    armies_at: dict[Hex, list[HexManeuverArmy]] = field(default_factory=dict)
    structures_at: dict[Hex, list[HexManeuverStructure]] = field(default_factory=dict)
    players: set[str] = field(default_factory=set)

    def on_map(self, h: Hex) -> bool:
        return h in self.terrain

    def unexplored_provinces(self) -> set[str]:
        return {self.province[h] for h in self.unexplored}

    def enemies_at(self, h: Hex, player: str) -> list[str]:
        """Ids of the enemy objects on ``h``: other players' armies and structures."""
        out = [a.id for a in self.armies_at.get(h, ()) if a.owner != player and a.units]
        out += [s.id for s in self.structures_at.get(h, ()) if s.owner != player]
        return out

    def enemy_hexes(self, player: str) -> set[Hex]:
        hexes = {h for h, armies in self.armies_at.items()
                 if any(a.owner != player and any(a.units.values()) for a in armies)}
        hexes |= {h for h, structures in self.structures_at.items()
                  if any(s.owner != player for s in structures)}
        return hexes

    def own_structure_hexes(self, player: str) -> set[Hex]:
        return {h for h, structures in self.structures_at.items()
                if any(s.owner == player and s.kind in (StructureKind.city, StructureKind.castle)
                       for s in structures)}

    def vessel_hexes(self, player: str,
                     moving: dict[str, dict[str, int]] | None = None) -> set[Hex]:
        """Hexes holding at least one of ``player``'s vessels (depleted or not), leaving out
        the vessels that are themselves moving (``moving``: army id -> units taken)."""
        hexes: set[Hex] = set()
        for army in self.armies.values():
            if army.owner != player:
                continue
            taken = (moving or {}).get(army.id, {})
            for unit, count in army.units.items():
                if self.unit_types[unit].vessel and count - taken.get(unit, 0) > 0:
                    hexes.add(army.hex.key)
                    break
        return hexes

    def ferry_zone(self, vessel_hexes: set[Hex]) -> set[Hex]:
        zone = set(vessel_hexes)
        for h in vessel_hexes:
            zone.update(neighbours(h))
        return zone

    def is_water(self, h: Hex) -> bool:
        return self.terrain.get(h) in WATER


@dataclass(slots=True)
class MapIndex:
    """The hexes of a state indexed: terrain (None where unexplored), province, the
    unexplored hexes, each province's hexes, and what makes the map malformed. Shared
    between requests on the same map (``map_index``), so nobody may mutate it."""

    terrain: dict[Hex, Terrain | None]
    province: dict[Hex, str]
    unexplored: frozenset[Hex]
    province_hexes: dict[str, list[Hex]]
    problems: tuple[Problem, ...]
    _json: list[dict[str, Any]] | None = None

    def hexes_json(self, hexes: list[HexManeuverHex]) -> list[dict[str, Any]]:
        """The hexes as the state's JSON has them: dumped once per map (a maneuver leaves
        the map as it is, and dumping it was most of the cost of returning the new state),
        then copied for each outcome, whose state its caller may change."""
        if self._json is None:
            self._json = _HEXES.dump_python(hexes, mode="json")
        return [dict(hx) for hx in self._json]


_HEXES = TypeAdapter(list[HexManeuverHex])


# Frontends ask many questions about the same board, and indexing its hexes costs several
# times more than the search itself. The key is the hexes' own fields in order (a tuple,
# compared in full on a hit: a hash collision can never hand back another map). The cache
# is bounded in maps and in hexes (a few hundred bytes each, key and JSON included): it
# drops its oldest maps when full, and a map larger than the whole bound is not kept.
MAP_CACHE_MAPS = 64
MAP_CACHE_HEXES = 100_000
_maps: dict[tuple[tuple[int, int, Terrain | None, str, bool], ...], MapIndex] = {}
_maps_lock = threading.Lock()


def map_index(hexes: list[HexManeuverHex]) -> MapIndex:
    key = tuple([(hx.q, hx.r, hx.terrain, hx.province, hx.explored) for hx in hexes])
    found = _maps.get(key)
    if found is None:
        found = _index_hexes(hexes)
        if len(key) <= MAP_CACHE_HEXES:
            with _maps_lock:
                held = sum(len(k) for k in _maps)
                while _maps and (len(_maps) >= MAP_CACHE_MAPS
                                 or held + len(key) > MAP_CACHE_HEXES):
                    oldest = next(iter(_maps))
                    held -= len(oldest)
                    del _maps[oldest]
                _maps[key] = found
    return found


def _index_hexes(hexes: list[HexManeuverHex]) -> MapIndex:
    problems = Problems()
    terrain: dict[Hex, Terrain | None] = {}
    province: dict[Hex, str] = {}
    unexplored: set[Hex] = set()
    province_hexes: dict[str, list[Hex]] = defaultdict(list)
    province_explored: dict[str, bool] = {}
    for i, hx in enumerate(hexes):
        key = (hx.q, hx.r)
        if key in terrain:
            problems.add(pointer("state", "hexes", i), f"hex ({hx.q},{hx.r}) is listed twice")
            continue
        if hx.explored and hx.terrain is None:
            problems.add(pointer("state", "hexes", i, "terrain"),
                         "an explored hex needs a terrain")
        seen = province_explored.setdefault(hx.province, hx.explored)
        if seen != hx.explored:
            problems.add(pointer("state", "hexes", i, "explored"),
                         f"province {hx.province} is partly explored")
        terrain[key] = hx.terrain if hx.explored else None
        province[key] = hx.province
        province_hexes[hx.province].append(key)
        if not hx.explored:
            unexplored.add(key)
    return MapIndex(terrain=terrain, province=province, unexplored=frozenset(unexplored),
                    province_hexes=dict(province_hexes), problems=tuple(problems.items))


def compile_board(state: HexManeuverState) -> Board:
    """Check the state's consistency and index it. Raises InvalidInput (422)."""
    problems = Problems()
    unit_types = {**DEFAULT_UNIT_TYPES, **state.unit_types}
    for name, ut in state.unit_types.items():
        if ut.range_min > ut.range_max:
            problems.add(pointer("state", "unit_types", name, "range_min"),
                         "range_min is larger than range_max")

    hex_map = map_index(state.hexes)
    problems.items.extend(hex_map.problems)
    terrain, province, unexplored = hex_map.terrain, hex_map.province, hex_map.unexplored

    players = set()
    for i, p in enumerate(state.players):
        if p.id in players:
            problems.add(pointer("state", "players", i, "id"), f"player {p.id} is listed twice")
        players.add(p.id)

    armies: dict[str, HexManeuverArmy] = {}
    army_index: dict[str, int] = {}
    armies_at: dict[Hex, list[HexManeuverArmy]] = defaultdict(list)
    for i, a in enumerate(state.armies):
        at = ("state", "armies", i)
        if a.id in armies:
            problems.add(pointer(*at, "id"), f"army {a.id} is listed twice")
            continue
        if a.owner not in players:
            problems.add(pointer(*at, "owner"), f"unknown player {a.owner}")
        if a.hex.key not in terrain:
            problems.add(pointer(*at, "hex"), f"hex ({a.hex.q},{a.hex.r}) is not on the map")
        for unit in a.units:
            if unit not in unit_types:
                problems.add(pointer(*at, "units", unit), f"unknown unit type {unit}")
        if sum(a.units.values()) == 0:
            problems.add(pointer(*at, "units"), "an army has at least one unit")
        packers = sum(c for u, c in a.units.items() if u in unit_types and unit_types[u].packs)
        if a.unpacked > packers:
            problems.add(pointer(*at, "unpacked"),
                         f"{a.unpacked} unpacked, but the army has {packers} packing units")
        armies[a.id] = a
        army_index[a.id] = i
        armies_at[a.hex.key].append(a)

    structures_at: dict[Hex, list[HexManeuverStructure]] = defaultdict(list)
    structure_ids: set[str] = set()
    for i, s in enumerate(state.structures):
        at = ("state", "structures", i)
        if s.id in structure_ids:
            problems.add(pointer(*at, "id"), f"structure {s.id} is listed twice")
        structure_ids.add(s.id)
        if s.owner not in players:
            problems.add(pointer(*at, "owner"), f"unknown player {s.owner}")
        if s.hex.key not in terrain:
            problems.add(pointer(*at, "hex"), f"hex ({s.hex.q},{s.hex.r}) is not on the map")
        structures_at[s.hex.key].append(s)

    if state.relics is not None:
        rel = state.relics
        if rel.total != len(state.players) + 1:
            problems.add(pointer("state", "relics", "total"),
                         f"the game uses exactly players + 1 = {len(state.players) + 1} relics")
        if rel.to_place + len(rel.placed) > rel.total:
            problems.add(pointer("state", "relics", "to_place"),
                         "more relics to place and placed than the game uses")
        if len(set(rel.bag)) != len(rel.bag):
            problems.add(pointer("state", "relics", "bag"), "a relic is in the bag twice")
        for i, placed in enumerate(rel.placed):
            if placed.hex.key not in terrain:
                problems.add(pointer("state", "relics", "placed", i, "hex"),
                             "hex is not on the map")

    for t, tile in enumerate(state.tiles):
        problems.items.extend(tile_problems(tile, ("state", "tiles", t)).items)

    problems.raise_if_any()
    return Board(state=state, unit_types=unit_types, terrain=terrain, province=province,
                 unexplored=unexplored, province_hexes=hex_map.province_hexes, armies=armies,
                 army_index=army_index, armies_at=dict(armies_at),
                 structures_at=dict(structures_at), players=players, hex_map=hex_map)


def tile_problems(tile: HexManeuverTile, at: tuple[object, ...]) -> Problems:
    problems = Problems()
    seen: set[Hex] = set()
    symbols = 0
    for i, th in enumerate(tile.hexes):
        if (th.dq, th.dr) in seen:
            problems.add(pointer(*at, "hexes", i), f"offset ({th.dq},{th.dr}) is listed twice")
        seen.add((th.dq, th.dr))
        symbols += th.relic_symbol is not None
    if symbols > 1:
        problems.add(pointer(*at, "hexes"), "a tile shows at most one relic symbol")
    return problems

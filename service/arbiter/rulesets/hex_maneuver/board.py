"""The state compiled for fast questions, and the consistency checks that make a state
malformed (422) rather than merely illegal to move in.

A state is malformed when it cannot be judged: a hex listed twice or a province partly
explored, two armies with one id, an army of an unknown player or on a hex off the map, a
unit type nobody defines, a vessel on a land hex (vessel.1: vessels stand only on water;
named at the vessel's pile, ``/state/armies/<i>/units/<type>``, as the army's other units
may stand there), more unpacked trebuchets than the army holds, a relic count that is
not players + 1. ``compile_board`` finds every such problem, raises them together
as ``InvalidInput`` with JSON pointers into ``/state``, and otherwise returns a ``Board``:
terrain and province by hex (the map indexed once per map and cached, ``map_index``), the
unit catalogue, armies by id, pieces by hex. Built once per request, shared by every
question asked of it, never changed (but for its memo of facts derived from it).
"""

from __future__ import annotations

import hashlib
import threading
from collections import defaultdict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import TypeAdapter

from arbiter.engine.draft import Ready
from arbiter.engine.errors import Problem, Problems, pointer
from arbiter.engine.hexgrid import Axial, Hex, neighbours
from arbiter.engine.index import check_ref, index_by_id

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


@dataclass(frozen=True, slots=True)
class Board:
    state: HexManeuverState
    unit_types: dict[str, HexManeuverUnitType]
    terrain: dict[Hex, Terrain | None]
    province: dict[Hex, str]
    unexplored: frozenset[Hex]
    province_hexes: dict[str, list[Hex]]
    armies: dict[str, HexManeuverArmy]
    hex_map: MapIndex  # what terrain, province, unexplored and province_hexes come from
    # The unit types (of ``unit_types``) that are vessels and that pack to move: asked of
    # many units per request, so named once rather than through each type's properties.
    vessel_types: frozenset[str]
    packing_types: frozenset[str]
    armies_at: dict[Hex, list[HexManeuverArmy]] = field(default_factory=dict)
    structures_at: dict[Hex, list[HexManeuverStructure]] = field(default_factory=dict)
    players: frozenset[str] = frozenset()
    # Facts derived from the board once per board by whoever asks first: legal-actions
    # judges every candidate on one board, and each would compute them again. Keyed by
    # (what, ...); see the methods below and ``reach.range_finder``.
    memo: dict[Hashable, object] = field(default_factory=dict, repr=False, compare=False)

    def ready(self) -> dict[str, Ready]:
        """The map as JSON, kept by the map index: for the ledger's draft, and for the
        state's hash (``Ruleset.ready``), which a signed state's check computes on every
        request."""
        hex_map, hexes = self.hex_map, self.state.hexes
        return {"hexes": Ready(json=lambda: hex_map.hexes_json(hexes),
                               canonical=lambda: hex_map.hexes_canonical(hexes),
                               digest=lambda: hex_map.hexes_digest(hexes))}

    def on_map(self, h: Hex) -> bool:
        return h in self.terrain

    def unexplored_provinces(self) -> set[str]:
        return {self.province[h] for h in self.unexplored}

    def enemies_at(self, h: Hex, player: str) -> list[str]:
        """Ids of the enemy objects on ``h``: other players' armies and structures."""
        out = [a.id for a in self.armies_at.get(h, ()) if a.owner != player and a.units]
        out += [s.id for s in self.structures_at.get(h, ()) if s.owner != player]
        return out

    def enemy_hexes(self, player: str) -> frozenset[Hex]:
        """The hexes holding objects of ``player``'s enemies (maneuver.2)."""
        found = self.memo.get(("enemy_hexes", player))
        if isinstance(found, frozenset):
            return found
        # Flat loops over the pieces, with no generator per hex: the board is compiled per
        # request, so each reachable or legal-actions query makes this set once.
        hexes = {h for h, armies in self.armies_at.items() for a in armies
                 if a.owner != player and any(a.units.values())}
        hexes.update(h for h, structures in self.structures_at.items() for s in structures
                     if s.owner != player)
        self.memo[("enemy_hexes", player)] = out = frozenset(hexes)
        return out

    def own_structure_hexes(self, player: str) -> frozenset[Hex]:
        """The hexes of ``player``'s own cities and castles (terrain.4)."""
        found = self.memo.get(("own_structure_hexes", player))
        if isinstance(found, frozenset):
            return found
        self.memo[("own_structure_hexes", player)] = out = frozenset(
            h for h, structures in self.structures_at.items() for s in structures
            if s.owner == player and s.kind in (StructureKind.city, StructureKind.castle))
        return out

    def vessel_hexes(self, player: str,
                     moving: dict[str, dict[str, int]] | None = None) -> set[Hex]:
        """Hexes holding at least one of ``player``'s vessels (depleted or not), leaving out
        the vessels that are themselves moving (``moving``: army id -> units taken)."""
        hexes: set[Hex] = set()
        for army in self._fleets(player):
            taken = (moving or {}).get(army.id, {})
            for unit, count in army.units.items():
                if unit in self.vessel_types and count - taken.get(unit, 0) > 0:
                    hexes.add(army.hex.key)
                    break
        return hexes

    def _fleets(self, player: str) -> tuple[HexManeuverArmy, ...]:
        """``player``'s armies with a vessel among their units, in the state's order."""
        found = self.memo.get(("fleets", player))
        if isinstance(found, tuple):
            return found
        self.memo[("fleets", player)] = out = tuple(
            a for a in self.armies.values()
            if a.owner == player and not self.vessel_types.isdisjoint(a.units))
        return out

    def ferry_zone(self, vessel_hexes: set[Hex]) -> set[Hex]:
        zone = set(vessel_hexes)
        for h in vessel_hexes:
            zone.update(neighbours(h))
        return zone


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
    _canonical: bytes | None = None
    _digest: str | None = None

    def hexes_json(self, hexes: list[HexManeuverHex]) -> list[dict[str, Any]]:
        """The hexes as the state's JSON has them: dumped once per map (a maneuver leaves
        the map as it is, and dumping it was most of the cost of returning the new state),
        then copied for each outcome, whose state its caller may change."""
        if self._json is None:
            self._json = _HEXES.dump_python(hexes, mode="json")
        return list(map(dict, self._json))

    def hexes_canonical(self, hexes: list[HexManeuverHex]) -> bytes:
        """The hexes' JSON with sorted keys, for the state's hash: made once per map."""
        if self._canonical is None:
            self._canonical = orjson.dumps(self.hexes_json(hexes), option=orjson.OPT_SORT_KEYS)
        return self._canonical

    def hexes_digest(self, hexes: list[HexManeuverHex]) -> str:
        """The hex sha256 of that, for a signed state's signing digest: once per map."""
        if self._digest is None:
            self._digest = hashlib.sha256(self.hexes_canonical(hexes)).hexdigest()
        return self._digest


_HEXES = TypeAdapter(list[HexManeuverHex])


# Frontends ask many questions about the same board, and indexing its hexes costs several
# times more than the search itself: on the 10,000-hex map, in process on a loaded 2-core
# machine (medians of 7), ``compile_board`` took 36 ms without this cache and 0.05 ms on a
# hit by identity; a hit by content (its key built) 22 ms against 30 to index it. One
# cache, two ways in:
# - by content: the key is the hexes' own fields in order (a tuple, compared in full on a
#   hit: a hash collision can never hand back another map);
# - by identity: a board sent by reference comes back as the very same list of hexes
#   request after request (the service keeps it parsed), found without a key. The entry
#   holds the list itself, so its id cannot be reused while it is cached; a list sent
#   inline is then held past its request, so the entry counts its models too.
# Each entry counts its hexes at the bytes one hex was measured to hold (tracemalloc, the
# 10,000-hex map): its key 87 and its index 128 by content; its list's models 515 and the
# index by identity. Past ``MAP_CACHE_BYTES`` the oldest entries go; a map larger than the
# whole bound is not kept. Full of 10,000-hex maps, 30.7 MiB counted held 27.1 MiB
# (tracemalloc). (Bounded in maps alone, 64 validates each with its own 10,000-hex map
# inline held 700 MiB.)
MAP_CACHE_BYTES = 32 << 20
KEYED_HEX_BYTES = 87 + 128
LISTED_HEX_BYTES = 515 + 128
MapKey = tuple[tuple[int, int, Terrain | None, str, bool], ...]


@dataclass(slots=True)
class _Cached:
    index: MapIndex
    cost: int
    hexes: list[HexManeuverHex] | None = None  # held when found by identity


_maps: dict[MapKey | int, _Cached] = {}  # oldest first
_held = 0
_maps_lock = threading.Lock()


def map_cache_bytes() -> int:
    """The bytes the map cache holds, as counted against ``MAP_CACHE_BYTES``."""
    return _held


def map_index(hexes: list[HexManeuverHex]) -> MapIndex:
    same = _maps.get(id(hexes))
    if same is not None and same.hexes is hexes:
        return same.index
    key = tuple([(hx.q, hx.r, hx.terrain, hx.province, hx.explored) for hx in hexes])
    cached = _maps.get(key)
    found = cached.index if cached is not None else _index_hexes(hexes)
    if cached is None:
        _keep(key, _Cached(found, len(key) * KEYED_HEX_BYTES))
    _keep(id(hexes), _Cached(found, len(hexes) * LISTED_HEX_BYTES, hexes))
    return found


def _keep(key: MapKey | int, entry: _Cached) -> None:
    """``entry`` kept under ``key`` once the oldest entries made room for it; not kept
    when it alone is over the bound."""
    global _held
    if entry.cost > MAP_CACHE_BYTES:
        return
    with _maps_lock:
        old = _maps.pop(key, None)
        _held -= old.cost if old is not None else 0
        while _maps and _held + entry.cost > MAP_CACHE_BYTES:
            _held -= _maps.pop(next(iter(_maps))).cost
        _maps[key] = entry
        _held += entry.cost


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
    unit_types = _unit_types(state, problems)
    vessel_types = frozenset(u for u, kind in unit_types.items() if kind.vessel)
    packing_types = frozenset(u for u, kind in unit_types.items() if kind.packs)
    hex_map = map_index(state.hexes)
    problems.items.extend(hex_map.problems)
    players = frozenset(index_by_id(state.players, ("state", "players"), "player", problems))
    armies, armies_at = _armies(state, unit_types, vessel_types, players, hex_map.terrain,
                                problems)
    structures_at = _structures(state, players, hex_map.terrain, problems)
    _check_relics(state, hex_map.terrain, problems)
    for t, tile in enumerate(state.tiles):
        problems.items.extend(tile_problems(tile, ("state", "tiles", t)).items)
    problems.raise_if_any()
    return Board(state=state, unit_types=unit_types, terrain=hex_map.terrain,
                 province=hex_map.province, unexplored=hex_map.unexplored,
                 province_hexes=hex_map.province_hexes, armies=armies, hex_map=hex_map,
                 vessel_types=vessel_types, packing_types=packing_types,
                 armies_at=armies_at, structures_at=structures_at, players=players)


def _unit_types(state: HexManeuverState, problems: Problems) -> dict[str, HexManeuverUnitType]:
    """The default catalogue with the state's overrides and additions."""
    for name, ut in state.unit_types.items():
        if ut.range_min > ut.range_max:
            problems.add(pointer("state", "unit_types", name, "range_min"),
                         "range_min is larger than range_max")
    return {**DEFAULT_UNIT_TYPES, **state.unit_types}


def _off_map(h: Axial, at: tuple[object, ...], problems: Problems) -> None:
    problems.add(pointer(*at), f"hex ({h.q},{h.r}) is not on the map")


def _armies(state: HexManeuverState, unit_types: Mapping[str, HexManeuverUnitType],
            vessels: frozenset[str], players: frozenset[str],
            terrain: Mapping[Hex, Terrain | None], problems: Problems
            ) -> tuple[dict[str, HexManeuverArmy], dict[Hex, list[HexManeuverArmy]]]:
    """The armies by id and by hex. An army listed twice is checked no further."""
    index = index_by_id(state.armies, ("state", "armies"), "army", problems)
    armies: dict[str, HexManeuverArmy] = {}
    armies_at: dict[Hex, list[HexManeuverArmy]] = defaultdict(list)
    # Every request compiles its board: each check tests first and builds a pointer only
    # for a problem (``check_ref`` then words it). Most armies hold no vessel: only those
    # that do are looked at unit by unit for vessel.1.
    for army_id, i in index.items():
        a = state.armies[i]
        h = a.hex.key
        if a.owner not in players:
            check_ref(a.owner, players, ("state", "armies", i, "owner"), "player", problems)
        if h not in terrain:
            _off_map(a.hex, ("state", "armies", i, "hex"), problems)
        if not a.units.keys() <= unit_types.keys():
            for unit in a.units:
                if unit not in unit_types:
                    check_ref(unit, unit_types, ("state", "armies", i, "units", unit),
                              "unit type", problems)
        if not vessels.isdisjoint(a.units):
            _vessels_on_water(a, i, unit_types, terrain.get(h), problems)
        if sum(a.units.values()) == 0:
            problems.add(pointer("state", "armies", i, "units"), "an army has at least one unit")
        if a.unpacked:
            packers = sum(c for u, c in a.units.items()
                          if u in unit_types and unit_types[u].packs)
            if a.unpacked > packers:
                problems.add(pointer("state", "armies", i, "unpacked"),
                             f"{a.unpacked} unpacked, but the army has {packers} packing units")
        armies[army_id] = a
        armies_at[h].append(a)
    return armies, dict(armies_at)


def _vessels_on_water(army: HexManeuverArmy, i: int,
                      unit_types: Mapping[str, HexManeuverUnitType], terrain: Terrain | None,
                      problems: Problems) -> None:
    """vessel.1: vessels are placed on sea and ocean only, so a vessel on a known land hex
    is no position of the game. (An unexplored hex has no terrain yet: nothing to say.)"""
    if terrain is None or terrain in WATER:
        return
    for unit, count in army.units.items():
        kind = unit_types.get(unit)
        if count > 0 and kind is not None and kind.vessel:
            problems.add(pointer("state", "armies", i, "units", unit),
                         f"{unit} is a vessel, but hex ({army.hex.q},{army.hex.r}) is "
                         f"{terrain.value}: vessels stand only on sea or ocean")


def _structures(state: HexManeuverState, players: frozenset[str],
                terrain: Mapping[Hex, object], problems: Problems
                ) -> dict[Hex, list[HexManeuverStructure]]:
    index_by_id(state.structures, ("state", "structures"), "structure", problems)
    structures_at: dict[Hex, list[HexManeuverStructure]] = defaultdict(list)
    for i, s in enumerate(state.structures):
        h = s.hex.key
        if s.owner not in players:
            check_ref(s.owner, players, ("state", "structures", i, "owner"), "player", problems)
        if h not in terrain:
            _off_map(s.hex, ("state", "structures", i, "hex"), problems)
        structures_at[h].append(s)
    return dict(structures_at)


def _check_relics(state: HexManeuverState, terrain: Mapping[Hex, object],
                  problems: Problems) -> None:
    """relic.3: the game uses exactly players + 1 relics, each in one place."""
    rel = state.relics
    if rel is None:
        return
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

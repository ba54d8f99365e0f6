"""Where a column of units can go: every hex it may end on with its cost, one cheapest
path, whether it needs ferrying or a march, and what enemy objects its attackers would
have in range there. The pathfinder uses the same ``enter`` as the path checker, and
leaves out the ends that ``ferry.strands`` (the judge's own rule) says would leave land
units out of a vessel's reach, so what it lists the checker accepts.

A packing unit (the trebuchet) attacks only while unpacked (trebuchet.1): one that moves
ends packed (the query does not unpack it; a maneuver may ask to), so it has nothing in
range at any hex but its own, where it keeps standing as it stood.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from arbiter.engine.hexgrid import Hex, neighbours, spiral
from arbiter.engine.paths import reachable

from .board import Board
from .ferry import strands
from .maneuver import Units
from .terrain import Column, Entry, enter

Node = tuple[Hex, int]   # (hex, own-structure free entries used so far)


@dataclass(frozen=True, slots=True)
class Destination:
    hex: Hex
    cost: int
    path: list[Hex]
    march: bool
    ferry: bool
    explore: bool


def movement_points(board: Board, units: Units) -> int:
    """The column's movement points: its vessels' when it has any (they carry the land
    units), else its slowest unit's (movement.1)."""
    column = Column.of(board, units)
    pool = column.vessels or column.land
    return min(board.unit_types[u].movement for u in pool) if pool else 0


def needs_packing(board: Board, army_units: Units, unpacked: int, moving: Units) -> bool:
    packers = sum(c for u, c in army_units.items() if board.unit_types[u].packs)
    moving_packers = sum(c for u, c in moving.items() if board.unit_types[u].packs)
    return moving_packers > packers - unpacked


def destinations(board: Board, player: str, army_id: str, units: Units | None,
                 march: bool) -> tuple[int, list[Destination]]:
    """The movement points left to move with (after any packing) and every hex the units
    of ``army_id`` may end a maneuver or an exploration on, cheapest first, then in map
    order."""
    army = board.armies[army_id]
    moving = {u: c for u, c in (units if units is not None else army.units).items() if c > 0}
    column = Column.of(board, moving)
    bonus = 1 if march and board.state.options.march else 0
    packing = not column.carried_by_vessel and needs_packing(board, army.units, army.unpacked,
                                                              moving)
    # trebuchet.1: a packing unit that must pack first has 1 MP less to move with.
    pool = column.vessels or column.land
    effective = min((board.unit_types[u].movement
                     - (1 if packing and board.unit_types[u].packs else 0) for u in pool),
                    default=0)
    ferry_zone = board.ferry_zone(board.vessel_hexes(player, {army.id: moving}))
    steps = _steps(board, player, moving, column, ferry_zone)
    start = army.hex.key
    reach = reachable((start, 0), max(effective + bonus, 0), steps)
    best: dict[Hex, Node] = {}
    for node, cost in reach.cost.items():
        h = node[0]
        if h not in best or cost < reach.cost[best[h]]:
            best[h] = node
    # split.1: units split off must form a new army on another hex (validate refuses
    # split_needs_a_move), so a split never ends where it started.
    splitting = moving != {u: c for u, c in army.units.items() if c > 0}
    out = []
    for h, node in best.items():
        if splitting and h == start:
            continue
        # ferry.1: no end that strands land units at sea (the judge refuses it).
        if strands(board, army, moving, h, ferry_zone):
            continue
        cost = reach.cost[node]
        path = [n[0] for n in reach.path_to(node)]
        # ferry.2: land units aboard the moving vessels are ferried on every step.
        ferry = (bool(column.land) and bool(path)) if column.carried_by_vessel else any(
            p in ferry_zone for p in path)
        out.append(Destination(h, cost, path, cost > effective, ferry, h in board.unexplored))
    out.sort(key=lambda d: (d.cost, d.hex[1], d.hex[0]))
    return effective, out


def _steps(board: Board, player: str, moving: Units, column: Column, ferry_zone: set[Hex]
           ) -> Callable[[Node], Iterator[tuple[Node, int]]]:
    """The search's steps for this column: the hexes it may enter from a node, with their
    price (0 for an own city or castle while free entries remain)."""
    enemies = board.enemy_hexes(player)
    own = board.own_structure_hexes(player)
    military = all(board.unit_types[u].military for u in moving)
    free_entries = 0 if column.carried_by_vessel else board.state.options.free_own_structure_entries
    terrain = board.terrain
    unexplored = board.unexplored
    # A hex costs this column the same whichever side it is entered from: price it once.
    entries: dict[Hex, Entry] = {}

    def steps(node: Node) -> Iterator[tuple[Node, int]]:
        h, used = node
        if h in unexplored:  # an exploration ends on its claimed hex
            return
        for n in neighbours(h):
            if n not in terrain or n in enemies or (n in unexplored and not military):
                continue
            entry = entries.get(n)
            if entry is None:
                entry = entries[n] = enter(board, n, column, ferry_zone, own)
            if entry.blocked:
                continue
            if entry.free_candidate and used < free_entries:
                yield (n, used + 1), 0
            yield (n, used), entry.cost

    return steps


@dataclass(frozen=True, slots=True)
class Target:
    kind: str          # "army" | "structure"
    id: str
    owner: str
    hex: Hex
    distance: int
    units: list[str]   # the moving unit types that reach it


class RangeFinder:
    """Enemy objects within the attack range of some units, from any hex they stand on."""

    def __init__(self, board: Board, player: str, units: Units) -> None:
        self.attackers = [(u, board.unit_types[u]) for u in sorted(units)
                          if units[u] > 0 and board.unit_types[u].military]
        self.reach = max((t.range_max for _u, t in self.attackers), default=0)
        # Every validate of a maneuver makes one: the player's own pieces are left out
        # before their entries are built (in the state's order, armies then structures).
        self.enemies: list[tuple[str, str, str, Hex]] = []
        if self.attackers:
            self.enemies = [("army", a.id, a.owner, a.hex.key) for a in board.state.armies
                            if a.owner != player]
            self.enemies += [("structure", s.id, s.owner, s.hex.key)
                             for s in board.state.structures if s.owner != player]
        # Asked once per destination: look only at the hexes within reach when they are
        # fewer than the enemy objects (the usual case on a crowded board).
        self.disc = _disc(self.reach)
        self.enemies_at: dict[Hex, list[tuple[str, str, str, Hex]]] = {}
        for enemy in self.enemies:
            self.enemies_at.setdefault(enemy[3], []).append(enemy)

    def at(self, h: Hex) -> list[Target]:
        if len(self.disc) < len(self.enemies):
            near = [e for dq, dr in self.disc
                    for e in self.enemies_at.get((h[0] + dq, h[1] + dr), ())]
        else:
            near = self.enemies
        found = []
        q, r = h
        for kind, oid, owner, where in near:
            dq, dr = q - where[0], r - where[1]
            d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2  # hexgrid.distance, inlined: hot
            if d > self.reach:
                continue
            who = [u for u, t in self.attackers if t.range_min <= d <= t.range_max]
            if who:
                found.append(Target(kind, oid, owner, where, d, who))
        found.sort(key=lambda t: (t.distance, t.kind, t.id))
        return found


@functools.cache
def _disc(reach: int) -> tuple[Hex, ...]:
    """The offsets of the hexes within ``reach`` of a hex, nearest first: one per range
    (a unit type's range is at most 20), shared by every range finder."""
    return tuple(spiral((0, 0), reach))


def attackers(board: Board, units: Units, unpacked: int) -> Units:
    """The units that can attack: a packing unit (trebuchet) only while some stand
    unpacked (``unpacked`` of them; trebuchet.1)."""
    if unpacked > 0:
        return units
    return {u: c for u, c in units.items() if not board.unit_types[u].packs}


def in_range(board: Board, player: str, at: Hex, units: Units) -> list[Target]:
    """Enemy objects within the attack range of ``units`` standing on ``at``."""
    return range_finder(board, player, units).at(at)


def range_finder(board: Board, player: str, units: Units) -> RangeFinder:
    """The board's range finder for ``player``'s units of these types (a finder depends on
    which types are present, not on how many)."""
    key = ("range_finder", player, tuple(sorted(u for u, c in units.items() if c > 0)))
    found = board.memo.get(key)
    if isinstance(found, RangeFinder):
        return found
    board.memo[key] = finder = RangeFinder(board, player, units)
    return finder


@dataclass(frozen=True, slots=True)
class Unbounded:
    """Where the column could go with no movement-point limit: the cheapest cost and one
    cheapest path to ``target`` when any path is open, and every hex the open search met
    (what ``why-not`` reads the blockers around)."""

    cost: int | None
    path: list[Hex]
    met: frozenset[Hex]


def unbounded(board: Board, player: str, army_id: str, units: Units | None,
              target: Hex) -> Unbounded:
    """The search ``destinations`` makes, with the same steps (so the same blocking and
    prices) and no budget: how much a path to ``target`` would cost, if one is open."""
    army = board.armies[army_id]
    moving = {u: c for u, c in (units if units is not None else army.units).items() if c > 0}
    column = Column.of(board, moving)
    ferry_zone = board.ferry_zone(board.vessel_hexes(player, {army.id: moving}))
    steps = _steps(board, player, moving, column, ferry_zone)
    reach = reachable((army.hex.key, 0), None, steps)
    ends = [n for n in reach.cost if n[0] == target]
    met = frozenset(n[0] for n in reach.cost)
    if not ends:
        return Unbounded(None, [], met)
    end = min(ends, key=lambda n: reach.cost[n])
    return Unbounded(reach.cost[end], [n[0] for n in reach.path_to(end)], met)

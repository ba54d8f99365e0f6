"""Judging a maneuver's path: the army and its units, pick-ups and drops along the way,
every step's price and legality, the movement points of each group of units over the
stretch it travels, and the free entry into an own city or castle (given to whichever
entry lets every group arrive, the cheapest such choice). Exploration reuses all of it
for the stretch before the claimed hex.

``plan_path`` raises InvalidInput for what cannot be judged (unknown army or unit type,
counts larger than the pile) and records violations for what breaks a rule.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, field

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.hexgrid import Hex, are_adjacent, as_dict
from arbiter.engine.index import check_ref
from arbiter.engine.outcome import Verdict, location

from .board import Board
from .models import HexManeuverArmy, HexManeuverExplore, HexManeuverManeuver
from .terrain import Column, enter

Units = dict[str, int]

# Beyond this many ways to hand out the free entries, give them to the dearest entries.
MAX_FREE_ENTRY_CHOICES = 256


def add(a: Units, b: Units) -> Units:
    out = Counter(a)
    out.update(b)
    return {u: c for u, c in sorted(out.items()) if c > 0}


def sub(a: Units, b: Units) -> Units:
    out = dict(a)
    for u, c in b.items():
        out[u] = out.get(u, 0) - c
    return {u: c for u, c in sorted(out.items()) if c > 0}


def covers(a: Units, b: Units) -> bool:
    return all(a.get(u, 0) >= c for u, c in b.items())


@dataclass(slots=True)
class Leg:
    """Units that leave the column at path ``index`` (a drop, or the arrival)."""

    index: int
    hex: Hex
    units: Units
    order: int = 0   # position of the drop in the request, for pointers


@dataclass(slots=True)
class Pickup:
    index: int       # path index where the units join (-1: the start hex)
    army: HexManeuverArmy
    units: Units


@dataclass(slots=True)
class PathPlan:
    army: HexManeuverArmy
    start: Hex
    path: list[Hex]
    moving: Units
    pickups: list[Pickup]
    drops: list[Leg]
    arriving: Units
    land_steps: list[int] = field(default_factory=list)    # price per step, land units
    vessel_steps: list[int] = field(default_factory=list)  # price per step, vessels
    free: tuple[int, ...] = ()                              # steps entered for free
    ferried: bool = False
    unferried: set[Hex] = field(default_factory=set)  # water entered with no ferry: refused
    packing: bool = False       # packing units standing unpacked pack before they move
    unpack: bool = False        # the action asks to unpack the arriving packing units
    unpacking: bool = False     # ... and some of them stand packed then: 1 MP to unpack
    unpacked: int = 0           # arriving packing units that end the maneuver unpacked
    cost: int = 0

    @property
    def destination(self) -> Hex:
        return self.path[-1] if self.path else self.start


def _known_units(board: Board, units: Units, at: tuple[object, ...], problems: Problems
                 ) -> Units:
    """The named units with a count, after refusing unknown unit types."""
    for unit in units:
        check_ref(unit, board.unit_types, (*at, unit), "unit type", problems)
    return {u: c for u, c in units.items() if c > 0 and u in board.unit_types}


def _take(units: Units, available: Units, at: tuple[object, ...], problems: Problems,
          what: str) -> None:
    for unit, count in units.items():
        if count > available.get(unit, 0):
            problems.add(pointer(*at, unit),
                         f"{count} {unit} asked for, {what} has {available.get(unit, 0)}")


def plan_path(board: Board, action: HexManeuverManeuver | HexManeuverExplore,
              verdict: Verdict, *, explore: bool) -> PathPlan:
    problems = Problems()
    check_ref(action.player, board.players, ("action", "player"), "player", problems)
    if not check_ref(action.army, board.armies, ("action", "army"), "army", problems):
        problems.raise_if_any()
    army = board.armies[action.army]
    moving = _moving_units(board, action, army, problems)
    start = army.hex.key
    path = [h.key for h in action.path]
    if path and path[0] == start:
        path = path[1:]
    for i, h in enumerate(action.path):
        if not board.on_map(h.key):
            problems.add(pointer("action", "path", i), f"hex ({h.q},{h.r}) is not on the map")

    pickups: list[Pickup] = []
    drops: list[Leg] = []
    if isinstance(action, HexManeuverManeuver):
        pickups = _pickups(board, action, army, start, path, verdict, problems)
        drops = _drops(board, action, start, path, moving, pickups, verdict, problems)
    problems.raise_if_any()

    arriving = dict(moving)
    for pickup in pickups:
        arriving = add(arriving, pickup.units)
    for leg in drops:
        arriving = sub(arriving, leg.units)
    _check_column(path, moving, pickups, drops, arriving, problems)
    unpack = isinstance(action, HexManeuverManeuver) and action.unpack
    if unpack and not packers(board, arriving):
        problems.add("/action/unpack", "no packing unit (trebuchet) arrives to be unpacked")
    problems.raise_if_any()
    return PathPlan(army=army, start=start, path=path, moving=moving, pickups=pickups,
                    drops=drops, arriving=arriving, unpack=unpack)


def _moving_units(board: Board, action: HexManeuverManeuver | HexManeuverExplore,
                  army: HexManeuverArmy, problems: Problems) -> Units:
    """The units named to move (all the army's when none are named)."""
    if action.units is not None:
        moving = _known_units(board, action.units, ("action", "units"), problems)
        _take(moving, army.units, ("action", "units"), problems, f"army {army.id}")
    else:
        moving = {u: c for u, c in army.units.items() if c > 0}
    if not moving:
        problems.add("/action/units", "at least one unit must move")
    return moving


def _check_column(path: list[Hex], moving: Units, pickups: list[Pickup], drops: list[Leg],
                  arriving: Units, problems: Problems) -> None:
    """Some units arrive, and the column is never empty between two hexes."""
    if not arriving and path:
        problems.add("/action/drops", "every unit is dropped before the destination")
        return
    # split.2, pickup.1: units are dropped and picked up "along the way" of the moving
    # army, so the column is never empty between two hexes: units left behind cannot be
    # replaced by units picked up further on that nobody came to fetch.
    for i in range(1, len(path)):
        if not _carried_after(i - 1, moving, pickups, drops):
            problems.add("/action/drops", f"every unit is dropped before hex "
                         f"({path[i][0]},{path[i][1]}): the army no longer moves on to "
                         "pick up units further along the path")
            break


def _pickups(board: Board, action: HexManeuverManeuver, army: HexManeuverArmy, start: Hex,
             path: list[Hex], verdict: Verdict, problems: Problems) -> list[Pickup]:
    found: list[Pickup] = []
    taken: dict[str, Units] = {}
    for i, pick in enumerate(action.pickups):
        at = ("action", "pickups", i)
        if not check_ref(pick.army, board.armies, (*at, "army"), "army", problems):
            continue
        source = board.armies[pick.army]
        if source.id == army.id:
            problems.add(pointer(*at, "army"), "the moving army cannot pick up from itself")
            continue
        units = _known_units(board, pick.units, (*at, "units"), problems)
        if not units:
            problems.add(pointer(*at, "units"), "a pick-up takes at least one unit")
            continue
        # Several pick-ups from one army together take no more than it has.
        taken[source.id] = add(taken.get(source.id, {}), units)
        _take(taken[source.id], source.units, (*at, "units"), problems, f"army {source.id}")
        where = location(hex=source.hex.key, piece=source.id)
        if source.owner != action.player:
            verdict.violate("pickup_not_own", where, army=source.id, owner=source.owner)
        if source.depletion > 0:
            verdict.violate("pickup_depleted", where, army=source.id)
        if source.hex.key == start:
            index: int | None = -1
        else:
            index = next((j for j, h in enumerate(path) if h == source.hex.key), None)
        if index is None:
            verdict.violate("pickup_not_on_path", where, army=source.id, hex=source.hex)
            continue
        found.append(Pickup(index, source, units))
    found.sort(key=lambda p: p.index)
    return found


def _drops(board: Board, action: HexManeuverManeuver, start: Hex, path: list[Hex],
           moving: Units, pickups: list[Pickup], verdict: Verdict, problems: Problems
           ) -> list[Leg]:
    """Place each drop at the first visit of its hex (before the destination) where the
    column carries the units dropped, given the pick-ups and the drops placed so far."""
    placed: list[Leg] = []
    for order, drop in enumerate(action.drops):
        at = ("action", "drops", order, "units")
        units = _known_units(board, drop.units, at, problems)
        if not units:
            problems.add(pointer(*at), "a drop leaves at least one unit")
            continue
        visits = [j for j, h in enumerate(path[:-1]) if h == drop.hex.key]
        if not visits:
            verdict.violate("drop_not_on_path", location(hex=drop.hex.key), hex=drop.hex)
            continue
        chosen = next((j for j in visits
                       if covers(_carried_after(j, moving, pickups, placed), units)), None)
        if chosen is None:
            carried = _carried_after(visits[0], moving, pickups, placed)
            _take(units, carried, at, problems, f"the column at {drop.hex.q},{drop.hex.r}")
            continue
        placed.append(Leg(chosen, drop.hex.key, units, order))
    placed.sort(key=lambda leg: (leg.index, leg.order))
    return placed


def _carried_after(index: int, moving: Units, pickups: list[Pickup], drops: list[Leg]
                   ) -> Units:
    """The column once it has entered path[index] and taken that hex's pick-ups, less the
    drops already placed up to there."""
    column = dict(moving)
    for p in pickups:
        if p.index <= index:
            column = add(column, p.units)
    for leg in drops:
        if leg.index <= index:
            column = sub(column, leg.units)
    return column


def column_entering(plan: PathPlan, index: int) -> Units:
    """The units in the column as it enters path[index]."""
    return _carried_after(index - 1, plan.moving, plan.pickups, plan.drops)


def _vessels_at_step(board: Board, plan: PathPlan, player: str, index: int,
                     static: set[Hex]) -> set[Hex]:
    """Hexes holding one of the player's vessels while the column enters path[index]:
    vessels not moving, vessels still waiting to be picked up, vessels already dropped."""
    hexes = set(static)
    for p in plan.pickups:
        if p.index >= index and not board.vessel_types.isdisjoint(p.units):
            hexes.add(p.army.hex.key)
    for leg in plan.drops:
        if leg.index < index and not board.vessel_types.isdisjoint(leg.units):
            hexes.add(leg.hex)
    return hexes


def judge_steps(board: Board, plan: PathPlan, player: str, verdict: Verdict, *,
                explore: bool, march: bool) -> None:
    """Price and check every step; then the movement points of every group of units."""
    options = board.state.options
    candidates = _price_steps(board, plan, player, verdict, explore=explore)
    # trebuchet.1: packing units standing unpacked spend 1 MP packing before they move;
    # those that moved stand packed at the end unless the action asks to unpack them,
    # which costs the army 1 MP more.
    plan.packing = bool(plan.path) and _needs_packing(board, plan)
    arriving_packers = packers(board, plan.arriving)
    still_unpacked = 0 if plan.path else min(arriving_packers, carried_unpacked(board, plan))
    plan.unpacking = plan.unpack and still_unpacked < arriving_packers
    plan.unpacked = arriving_packers if plan.unpack else still_unpacked
    bonus = 1 if march else 0
    if march and not options.march:
        verdict.violate("march_not_allowed")

    overruns, plan.free = _best_free_entries(board, plan, candidates, bonus,
                                             options.free_own_structure_entries)
    plan.cost = _spent(board, plan, plan.arriving, len(plan.path) - 1, plan.free,
                       packing=False)
    for code, leg, unit, spent, points in overruns:
        if code == "dropped_beyond_reach":
            verdict.violate(code, location(step=leg.index + 1, hex=leg.hex), units=leg.units,
                            hex=as_dict(leg.hex), cost=spent, unit=unit,
                            movement_points=points)
        elif code == "unpack_needs_a_movement_point":
            verdict.violate(code, location(hex=plan.destination), hex=as_dict(plan.destination),
                            unit=unit, cost=spent - 1, movement_points=points)
        else:
            verdict.violate(code, location(hex=plan.destination), cost=spent, unit=unit,
                            movement_points=points)


def _price_steps(board: Board, plan: PathPlan, player: str, verdict: Verdict, *,
                 explore: bool) -> list[int]:
    """Check and price every step into ``plan`` (its land and vessel prices, whether it
    ferries); returns the steps into an own city or castle, priced by terrain, that the
    free entry may waive."""
    own_structures = board.own_structure_hexes(player)
    taken: dict[str, Units] = {plan.army.id: plan.moving}
    for p in plan.pickups:
        taken[p.army.id] = add(taken.get(p.army.id, {}), p.units)
    static_vessels = board.vessel_hexes(player, taken)
    static_zone = board.ferry_zone(static_vessels)
    dynamic = any(not board.vessel_types.isdisjoint(p.units) for p in plan.pickups) or any(
        not board.vessel_types.isdisjoint(leg.units) for leg in plan.drops)

    # Without pick-ups or drops the column is the same at every step.
    steady = Column.of(board, plan.moving) if not plan.pickups and not plan.drops else None
    candidates: list[int] = []
    # vessel.1: where vessels stay on a land hex (dropped there, or arriving), the effect
    # would be no state of the game (board.py refuses it), so advisory mode cannot apply it.
    stays = _vessels_stay(board, plan)
    prev = plan.start
    for i, h in enumerate(plan.path):
        _check_step(board, plan, i, prev, player, verdict, explore=explore)
        zone = static_zone
        if dynamic:
            zone = board.ferry_zone(_vessels_at_step(board, plan, player, i, static_vessels))
        column = steady or Column.of(board, column_entering(plan, i))
        entry = enter(board, h, column, zone, own_structures)
        for code, params in entry.blocked:
            verdict.violate(code, location(step=i + 1, hex=h),
                            fatal=code == "vessel_off_water" and i in stays, **params)
            if code in ("water_needs_ferry", "peasants_into_ocean"):
                plan.unferried.add(h)
        # ferry.2: land units aboard a moving vessel are ferried across the water too.
        plan.ferried = plan.ferried or entry.ferried or (column.carried_by_vessel
                                                         and bool(column.land))
        if column.carried_by_vessel:
            plan.land_steps.append(0)
            plan.vessel_steps.append(entry.cost)
        else:
            plan.land_steps.append(entry.cost)
            plan.vessel_steps.append(0)
            if entry.free_candidate and entry.cost > 0:
                candidates.append(i)
        prev = h
    return candidates


def _vessels_stay(board: Board, plan: PathPlan) -> set[int]:
    """The path indexes where some of the column's vessels stay: their drops, the end."""
    stays = {leg.index for leg in plan.drops if has_vessel(board, leg.units)}
    if plan.path and has_vessel(board, plan.arriving):
        stays.add(len(plan.path) - 1)
    return stays


def _check_step(board: Board, plan: PathPlan, i: int, prev: Hex, player: str,
                verdict: Verdict, *, explore: bool) -> None:
    """The step into path[i] from ``prev``: adjacent, free of enemy objects, explored
    (only an exploration's last step enters an unexplored hex)."""
    h = plan.path[i]
    last = i == len(plan.path) - 1
    if not are_adjacent(prev, h):
        verdict.violate("path_not_adjacent", location(step=i + 1, hex=h), step=i + 1,
                        from_hex=as_dict(prev), hex=as_dict(h))
    # Only a hex with pieces on it can hold enemies: looked at there, without making the
    # set of every enemy hex (``Board.enemy_hexes``, for the pathfinder) for a short path.
    has_pieces = h in board.armies_at or h in board.structures_at
    foes = board.enemies_at(h, player) if has_pieces else []
    if foes:
        code = "enemy_at_destination" if last else "enemy_in_path"
        verdict.violate(code, location(step=i + 1, hex=h), hex=as_dict(h), enemies=foes)
    if h in board.unexplored and not (explore and last):
        verdict.violate("unexplored_needs_explore", location(step=i + 1, hex=h),
                        hex=as_dict(h), province=board.province[h])


Overrun = tuple[str, Leg, str, int, int]


def _best_free_entries(board: Board, plan: PathPlan, candidates: list[int], bonus: int,
                       allowed: int) -> tuple[list[Overrun], tuple[int, ...]]:
    """terrain.4: choose which own-structure entries are free so that as many groups as
    possible arrive within their movement points, then the cheapest path; among equals the
    earliest entries. Returns the groups still over their points and the free steps."""
    k = min(allowed, len(candidates))
    choices: list[tuple[int, ...]]
    if not k:
        choices = [()]
    elif math.comb(len(candidates), k) <= MAX_FREE_ENTRY_CHOICES:
        choices = list(itertools.combinations(candidates, k))
    else:
        dearest = sorted(candidates, key=lambda i: (-plan.land_steps[i], i))[:k]
        choices = [tuple(sorted(dearest))]
    best: tuple[tuple[int, int], list[Overrun], tuple[int, ...]] | None = None
    last = len(plan.path) - 1
    for free in choices:
        overruns = _overruns(board, plan, bonus, free)
        rank = (len(overruns), _spent(board, plan, plan.arriving, last, free, packing=False))
        if best is None or rank < best[0]:
            best = (rank, overruns, free)
    assert best is not None
    return best[1], best[2]


def _overruns(board: Board, plan: PathPlan, bonus: int, free: tuple[int, ...]
              ) -> list[Overrun]:
    out: list[Overrun] = []
    for leg in plan.drops:
        over = _over(board, plan, leg.units, leg.index, bonus, free)
        if over is not None:
            out.append(("dropped_beyond_reach", leg, *over))
    if plan.path or plan.unpacking:
        arrival = Leg(len(plan.path) - 1, plan.destination, plan.arriving)
        # trebuchet.1: unpacking at the end takes 1 MP the army must still have.
        extra = 1 if plan.unpacking else 0
        over = _over(board, plan, plan.arriving, arrival.index, bonus, free, extra)
        if over is not None:
            code = "over_movement_points"
            if extra and _over(board, plan, plan.arriving, arrival.index, bonus, free) is None:
                code = "unpack_needs_a_movement_point"
            out.append((code, arrival, *over))
    return out


def _over(board: Board, plan: PathPlan, units: Units, index: int, bonus: int,
          free: tuple[int, ...], extra: int = 0) -> tuple[str, int, int] | None:
    """The slowest of ``units`` that spends more than its movement points (+ march) from
    the start hex to path[index] (movement.1 measures picked-up units from the start hex
    too), ``extra`` MP more each: (unit, spent, points), or None."""
    worst = None
    for unit in sorted(units, key=lambda u: (board.unit_types[u].movement, u)):
        spent = _spent(board, plan, {unit: 1}, index, free, packing=True) + extra
        points = board.unit_types[unit].movement + bonus
        if spent > points and worst is None:
            worst = (unit, spent, points)
    return worst


def _spent(board: Board, plan: PathPlan, units: Units, index: int, free: tuple[int, ...],
           *, packing: bool) -> int:
    """The most MP any of ``units`` spends up to path[index]; with ``packing``, a packing
    unit that must pack first spends 1 more."""
    if index < 0 or not plan.path:
        return 0
    spent = 0
    for unit in units:
        steps = plan.vessel_steps if unit in board.vessel_types else plan.land_steps
        cost = sum(c for i, c in enumerate(steps[: index + 1]) if i not in free)
        if packing and plan.packing and unit in board.packing_types:
            cost += 1
        spent = max(spent, cost)
    return spent


def has_vessel(board: Board, units: Units) -> bool:
    return any(c > 0 and u in board.vessel_types for u, c in units.items())


def packers(board: Board, units: Units) -> int:
    """How many of ``units`` pack to move (trebuchets)."""
    return sum(c for u, c in units.items() if u in board.packing_types)


def carried_unpacked(board: Board, plan: PathPlan) -> int:
    """How many packing units the column takes that stand unpacked: from each army, its
    packed ones go first (as ``moves`` takes them)."""
    sources = [(plan.army, plan.moving)] + [(p.army, p.units) for p in plan.pickups]
    return sum(max(0, packers(board, units) - (packers(board, army.units) - army.unpacked))
               for army, units in sources)


def _needs_packing(board: Board, plan: PathPlan) -> bool:
    sources = [(plan.army, plan.moving)] + [(p.army, p.units) for p in plan.pickups]
    for army, units in sources:
        packers = sum(c for u, c in army.units.items() if u in board.packing_types)
        moving_packers = sum(c for u, c in units.items() if u in board.packing_types)
        if moving_packers > packers - army.unpacked:
            return True
    return False

"""Judging a maneuver's path: the army and its units, pick-ups and drops along the way,
every step's price and legality, the movement points of each group of units over the
stretch it travels, and the free entry into an own city or castle (chosen over the whole
path so the path costs as little as the rules allow). Exploration reuses all of it for
the stretch before the claimed hex.

``plan_path`` raises InvalidInput for what cannot be judged (unknown army, counts larger
than the pile) and records violations for what breaks a rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.hexgrid import Hex, are_adjacent
from arbiter.engine.outcome import Verdict, location

from .board import Board
from .models import HexManeuverArmy, HexManeuverExplore, HexManeuverManeuver
from .terrain import Column, enter

Units = dict[str, int]


def add(a: Units, b: Units) -> Units:
    out = Counter(a)
    out.update(b)
    return {u: c for u, c in sorted(out.items()) if c > 0}


def sub(a: Units, b: Units) -> Units:
    out = dict(a)
    for u, c in b.items():
        out[u] = out.get(u, 0) - c
    return {u: c for u, c in sorted(out.items()) if c > 0}


@dataclass(slots=True)
class Leg:
    """Units that leave the column at ``index`` (a drop, or the arrival at the end)."""

    index: int
    hex: Hex
    units: Units


@dataclass(slots=True)
class PathPlan:
    army: HexManeuverArmy
    start: Hex
    path: list[Hex]
    moving: Units
    pickups: list[tuple[int, HexManeuverArmy, Units]]   # (path index, army, units)
    drops: list[Leg]
    arriving: Units
    land_spent: list[int] = field(default_factory=list)    # cumulative, per path index
    vessel_spent: list[int] = field(default_factory=list)
    ferried: bool = False
    packing: bool = False
    movement_points: int = 0
    slowest: str = ""
    cost: int = 0

    @property
    def destination(self) -> Hex:
        return self.path[-1] if self.path else self.start


def _units_problems(units: Units, available: Units, at: tuple[object, ...],
                    problems: Problems, what: str) -> None:
    for unit, count in units.items():
        if count > available.get(unit, 0):
            problems.add(pointer(*at, unit),
                         f"{count} {unit} asked for, {what} has {available.get(unit, 0)}")
    if units and sum(units.values()) == 0:
        problems.add(pointer(*at), "at least one unit must be named")


def plan_path(board: Board, action: HexManeuverManeuver | HexManeuverExplore,
              verdict: Verdict, *, explore: bool) -> PathPlan:
    problems = Problems()
    if action.player not in board.players:
        problems.add("/action/player", f"unknown player {action.player}")
    army = board.armies.get(action.army)
    if army is None:
        problems.add("/action/army", f"unknown army {action.army}")
        problems.raise_if_any()
    assert army is not None
    moving = dict(action.units) if action.units is not None else dict(army.units)
    moving = {u: c for u, c in moving.items() if c > 0}
    if action.units is not None:
        _units_problems(action.units, army.units, ("action", "units"), problems,
                        f"army {army.id}")
    if not moving:
        problems.add("/action/units", "at least one unit must move")

    start = army.hex.key
    path = [h.key for h in action.path]
    if path and path[0] == start:
        path = path[1:]
    for i, h in enumerate(action.path):
        if not board.on_map(h.key):
            problems.add(pointer("action", "path", i), f"hex ({h.q},{h.r}) is not on the map")

    pickups: list[tuple[int, HexManeuverArmy, Units]] = []
    drops: list[Leg] = []
    if isinstance(action, HexManeuverManeuver):
        for i, pick in enumerate(action.pickups):
            source = board.armies.get(pick.army)
            if source is None:
                problems.add(pointer("action", "pickups", i, "army"), f"unknown army {pick.army}")
                continue
            if source.id == army.id:
                problems.add(pointer("action", "pickups", i, "army"),
                             "the moving army cannot pick up from itself")
                continue
            _units_problems(pick.units, source.units, ("action", "pickups", i, "units"),
                            problems, f"army {source.id}")
            index = _first_index(start, path, source.hex.key, allow_start=True)
            where = location(hex=source.hex.key, piece=source.id)
            if source.owner != action.player:
                verdict.violate("pickup_not_own", where, army=source.id, owner=source.owner)
            if source.depletion > 0:
                verdict.violate("pickup_depleted", where, army=source.id)
            if index is None:
                verdict.violate("pickup_not_on_path", where, army=source.id,
                                hex=source.hex.key)
                continue
            pickups.append((index, source, dict(pick.units)))
        for drop in action.drops:
            index = _first_index(start, path[:-1], drop.hex.key, allow_start=False)
            if index is None:
                verdict.violate("drop_not_on_path", location(hex=drop.hex.key), hex=drop.hex.key)
                continue
            drops.append(Leg(index, drop.hex.key, dict(drop.units)))
    problems.raise_if_any()

    pickups.sort(key=lambda p: p[0])
    drops.sort(key=lambda d: d.index)
    plan = PathPlan(army=army, start=start, path=path, moving=moving, pickups=pickups,
                    drops=drops, arriving={})
    _check_column_counts(plan, problems)
    problems.raise_if_any()
    return plan


def _first_index(start: Hex, path: list[Hex], h: Hex, *, allow_start: bool) -> int | None:
    """Path index of the first visit of ``h``: -1 for the start hex, None if never."""
    if allow_start and h == start:
        return -1
    for i, p in enumerate(path):
        if p == h:
            return i
    return None


def _column_at(plan: PathPlan, index: int) -> Units:
    """The units in the column as it enters path[index] (before that hex's pick-ups/drops)."""
    column = dict(plan.moving)
    for i, _army, units in plan.pickups:
        if i < index:
            column = add(column, units)
    for leg in plan.drops:
        if leg.index < index:
            column = sub(column, leg.units)
    return column


def _check_column_counts(plan: PathPlan, problems: Problems) -> None:
    for n, leg in enumerate(plan.drops):
        carried = add(_column_at(plan, leg.index), _picked_at(plan, leg.index))
        before = [d for d in plan.drops[:n] if d.index == leg.index]
        for d in before:
            carried = sub(carried, d.units)
        for unit, count in leg.units.items():
            if count > carried.get(unit, 0):
                problems.add(pointer("action", "drops", n, "units", unit),
                             f"{count} {unit} dropped, the column carries "
                             f"{carried.get(unit, 0)} there")
    arriving = _column_at(plan, len(plan.path) + 1)
    plan.arriving = arriving
    if not arriving and plan.path:
        problems.add("/action/drops", "every unit is dropped before the destination")


def _picked_at(plan: PathPlan, index: int) -> Units:
    out: Units = {}
    for i, _army, units in plan.pickups:
        if i == index:
            out = add(out, units)
    return out


def judge_steps(board: Board, plan: PathPlan, player: str, verdict: Verdict, *,
                explore: bool, march: bool) -> None:
    """Price and check every step; then the movement points of every group of units."""
    state = board.state
    enemies = board.enemy_hexes(player)
    own_structures = board.own_structure_hexes(player)
    taken: dict[str, Units] = {plan.army.id: plan.moving}
    for _i, source, units in plan.pickups:
        taken[source.id] = add(taken.get(source.id, {}), units)
    ferry_zone = board.ferry_zone(board.vessel_hexes(player, taken))

    land_costs: list[int] = []
    vessel_costs: list[int] = []
    candidates: list[tuple[int, int]] = []  # (price, index) of own-structure entries
    prev = plan.start
    last = len(plan.path) - 1
    for i, h in enumerate(plan.path):
        at = location(step=i + 1, hex=h)
        if not are_adjacent(prev, h):
            verdict.violate("path_not_adjacent", at, step=i + 1, from_hex=prev, hex=h)
        foes = board.enemies_at(h, player) if h in enemies else []
        if foes:
            code = "enemy_at_destination" if i == last else "enemy_in_path"
            verdict.violate(code, at, hex=h, enemies=foes)
        if h in board.unexplored and not (explore and i == last):
            verdict.violate("unexplored_needs_explore", at, hex=h, province=board.province[h])
        column = Column.of(board, _column_at(plan, i))
        entry = enter(board, h, column, ferry_zone, own_structures)
        for code, params in entry.blocked:
            verdict.violate(code, at, **params)
        plan.ferried = plan.ferried or entry.ferried
        if column.carried_by_vessel:
            land_costs.append(0)
            vessel_costs.append(entry.cost)
        else:
            land_costs.append(entry.cost)
            vessel_costs.append(0)
            if entry.free_candidate:
                candidates.append((entry.cost, i))
        prev = h

    # terrain.4: waive the dearest own-structure entries (earliest first among equals).
    allowed = state.options.free_own_structure_entries
    free = sorted(candidates, key=lambda c: (-c[0], c[1]))[:allowed]
    for _price, i in free:
        land_costs[i] = 0

    # trebuchet.1: units that stand unpacked must pack (1 MP) before they move.
    plan.packing = bool(plan.path) and _needs_packing(board, plan)
    land_cum, vessel_cum = _cumulative(land_costs), _cumulative(vessel_costs)
    if plan.packing:
        land_cum = [c + 1 for c in land_cum]
    plan.land_spent, plan.vessel_spent = land_cum, vessel_cum

    bonus = 1 if march else 0
    if march and not state.options.march:
        verdict.violate("march_not_allowed")

    for leg in plan.drops:
        slowest, points = _slowest(board, leg.units)
        spent = _spent_by(board, plan, leg.units, leg.index)
        if spent > points + bonus:
            verdict.violate("dropped_beyond_reach", location(step=leg.index + 1, hex=leg.hex),
                            units=leg.units, hex=leg.hex, cost=spent, unit=slowest,
                            movement_points=points + bonus)
    slowest, points = _slowest(board, plan.arriving)
    plan.movement_points = points
    plan.slowest = slowest
    plan.cost = _spent_by(board, plan, plan.arriving, last) if plan.path else 0
    over = [u for u in plan.arriving
            if _spent_by(board, plan, {u: 1}, last) > board.unit_types[u].movement + bonus]
    if plan.path and over:
        worst = min(over, key=lambda u: (board.unit_types[u].movement, u))
        verdict.violate("over_movement_points", location(hex=plan.destination),
                        cost=_spent_by(board, plan, {worst: 1}, last), unit=worst,
                        movement_points=board.unit_types[worst].movement + bonus)


def _cumulative(costs: list[int]) -> list[int]:
    out, total = [], 0
    for c in costs:
        total += c
        out.append(total)
    return out


def _spent_by(board: Board, plan: PathPlan, units: Units, index: int) -> int:
    """The most MP any of ``units`` spends from the start hex to path[index] (movement.1
    measures picked-up units from the start hex too)."""
    if index < 0 or not plan.path:
        return 0
    spent = 0
    for unit in units:
        cum = plan.vessel_spent if board.unit_types[unit].vessel else plan.land_spent
        spent = max(spent, cum[index])
    return spent


def _slowest(board: Board, units: Units) -> tuple[str, int]:
    if not units:
        return "", 0
    unit = min(units, key=lambda u: (board.unit_types[u].movement, u))
    return unit, board.unit_types[unit].movement


def _needs_packing(board: Board, plan: PathPlan) -> bool:
    sources = [(plan.army, plan.moving)] + [(a, u) for _i, a, u in plan.pickups]
    for army, units in sources:
        packers = sum(c for u, c in army.units.items() if board.unit_types[u].packs)
        moving_packers = sum(c for u, c in units.items() if board.unit_types[u].packs)
        if moving_packers > packers - army.unpacked:
            return True
    return False

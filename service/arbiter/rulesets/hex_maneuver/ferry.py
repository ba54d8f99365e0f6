"""Land units are not stranded at sea (ferry.1, as the Reading to implement settles it).

A land unit may end a maneuver on a sea or ocean hex only where it could be ferried as
the vessels stand when the maneuver ends: on or next to one of the player's vessels.
Peasants on a sea hex are excepted (they wade in on their own, peasant_sea.1). "Ending a
maneuver" there covers the units that arrive, the units dropped along the way, and the
units an army is left with when the maneuver takes its vessel away (a vessel that sails
on from its passengers drops them where they stand).

``judge_stranding`` judges a planned maneuver; ``strands`` answers the same question for
the pathfinder (a whole column ending on one hex), so that ``reachable`` and
``legal-actions`` list no destination the judge refuses.
"""

from __future__ import annotations

from collections.abc import Iterator

from arbiter.engine.hexgrid import Hex, as_dict, distance
from arbiter.engine.outcome import Verdict, location

from .board import Board
from .maneuver import PathPlan, Units, add, has_vessel, sub
from .models import HexManeuverArmy, Terrain


def unaided(board: Board, h: Hex, units: Units) -> Units:
    """The units of ``units`` that may stand on ``h`` only within a vessel's reach: every
    land unit on an ocean hex, every land unit but the waders (peasants) on a sea hex;
    none on land (nor on an unexplored hex, where no maneuver ends)."""
    terrain = board.terrain.get(h)
    if terrain is not Terrain.sea and terrain is not Terrain.ocean:
        return {}
    return {u: c for u, c in units.items()
            if c > 0 and not board.unit_types[u].vessel
            and not (terrain is Terrain.sea and board.unit_types[u].enters_sea)}


def _taken(plan: PathPlan) -> dict[str, Units]:
    """The units the maneuver takes from each army: the moving ones and the picked up."""
    taken: dict[str, Units] = {plan.army.id: plan.moving}
    for p in plan.pickups:
        taken[p.army.id] = add(taken.get(p.army.id, {}), p.units)
    return taken


def vessels_at_end(board: Board, plan: PathPlan, player: str) -> set[Hex]:
    """The hexes holding one of ``player``'s vessels once the maneuver is over: those it
    did not move, those it dropped, and the destination when vessels arrive there."""
    hexes = board.vessel_hexes(player, _taken(plan))
    hexes.update(leg.hex for leg in plan.drops if has_vessel(board, leg.units))
    if has_vessel(board, plan.arriving):
        hexes.add(plan.destination)
    return hexes


def _left(board: Board, plan: PathPlan, arrival: bool
          ) -> Iterator[tuple[int | None, Hex, str | None, Units]]:
    """Where the maneuver leaves units: (step, hex, army left behind, units)."""
    for leg in plan.drops:
        yield leg.index + 1, leg.hex, None, leg.units
    if arrival:
        yield len(plan.path) or None, plan.destination, None, plan.arriving
    for army_id, units in _taken(plan).items():
        if has_vessel(board, units):
            army = board.armies[army_id]
            yield None, army.hex.key, army.id, sub(army.units, units)


def judge_stranding(board: Board, plan: PathPlan, player: str, verdict: Verdict, *,
                    arrival: bool = True) -> None:
    """Every group of land units the maneuver leaves on water is within reach of a vessel
    at the end. Water the column could not enter is reported as that, and only that, by
    ``maneuver`` (``water_needs_ferry``, ``peasants_into_ocean``). ``arrival``: judge the
    arriving units too (an exploration leaves that to its placement condition 2, where
    failing to land is no violation)."""
    zone: set[Hex] | None = None
    for step, h, army_id, units in _left(board, plan, arrival):
        stuck = unaided(board, h, units)
        # A hex the column was refused entry to for want of a ferry is that one fault.
        if not stuck or h in plan.unferried:
            continue
        if zone is None:  # only once land units are left on water: most maneuvers end on land
            zone = board.ferry_zone(vessels_at_end(board, plan, player))
        if h not in zone:
            terrain = board.terrain[h]
            assert terrain is not None  # unaided() found water there
            verdict.violate("stranded_at_sea", location(step=step, hex=h, piece=army_id),
                            units=stuck, hex=as_dict(h), terrain=terrain.value)


def strands(board: Board, army: HexManeuverArmy, moving: Units, dest: Hex,
            static_zone: set[Hex]) -> bool:
    """Whether the column ``moving`` of ``army``, ending whole on ``dest`` (no drops, no
    pick-ups), leaves land units out of a vessel's reach. ``static_zone``: the ferry zone
    of the player's vessels that do not move."""
    carried = has_vessel(board, moving)
    if not carried and unaided(board, dest, moving) and dest not in static_zone:
        return True
    start = army.hex.key
    if carried and start not in static_zone and distance(start, dest) > 1:
        return bool(unaided(board, start, sub(army.units, moving)))
    return False

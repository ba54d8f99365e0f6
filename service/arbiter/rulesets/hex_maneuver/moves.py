"""Applying a judged maneuver to the state: units leave their armies, dropped units form
(or join) depleted armies, the column arrives and joins any army of the player already
there, and depletion cubes go on (maneuver.3, split.1-2, merge.1, pickup.1).

Writes into the armies of the ledger (``ledger.py``: a draft of the resulting state, its
armies indexed by id); the request's own models are never touched.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from arbiter.engine.hexgrid import as_dict
from arbiter.engine.outcome import Verdict, location

from .ledger import Ledger
from .maneuver import PathPlan, Units


def _unpacked_taken(packers: int, unpacked: int, moving_packers: int) -> int:
    """Packed units go first; beyond them, unpacked ones are packed to move."""
    return max(0, moving_packers - (packers - unpacked))


def apply_maneuver(ledger: Ledger, plan: PathPlan, player: str, cubes: int,
                   verdict: Verdict, packs: AbstractSet[str]) -> None:
    source = plan.army

    def packers_of(units: Units) -> int:
        return sum(c for u, c in units.items() if u in packs)

    whole = plan.moving == {u: c for u, c in source.units.items() if c > 0}
    ledger.take(source.id, plan.moving, _unpacked_taken(packers_of(source.units),
                                                       source.unpacked,
                                                       packers_of(plan.moving)))
    for pickup in plan.pickups:
        index, picked, units = pickup.index, pickup.army, pickup.units
        taken_unpacked = _unpacked_taken(packers_of(picked.units), picked.unpacked,
                                         packers_of(units))
        ledger.take(picked.id, units, taken_unpacked)
        h = plan.path[index] if index >= 0 else plan.start
        verdict.event("units_picked_up", location(step=index + 1, hex=h, piece=picked.id),
                      units=units, army=picked.id, hex=as_dict(h))
    for leg in plan.drops:
        army_id, joined = ledger.land(player, leg.hex, leg.units, 1, keep_id=None, base=source.id)
        verdict.event("units_dropped", location(step=leg.index + 1, hex=leg.hex, piece=army_id),
                      units=leg.units, hex=as_dict(leg.hex), army=army_id)
        if joined:
            verdict.event("armies_merged", location(hex=leg.hex, piece=army_id),
                          army=army_id, into=joined, hex=as_dict(leg.hex))

    dest = plan.destination
    # A whole army keeps its id; a split-off column gets a fresh one (split.1).
    # trebuchet.1: units pack only to move and end packed unless the action unpacks them
    # (1 MP); an army that stays (maneuver.3: it may move 0 hexes) keeps its unpacked
    # trebuchets unpacked. ``judge_steps`` counted them (``plan.unpacked``).
    army_id, joined = ledger.land(player, dest, plan.arriving, cubes,
                                keep_id=source.id if whole else None, base=source.id,
                                unpacked=plan.unpacked)
    # Every event of the arrival happens at the same place: one (immutable) location.
    arrival = location(hex=dest, piece=army_id)
    if joined is None and army_id != source.id:
        verdict.event("army_split", arrival, army=army_id, source=source.id,
                      units=plan.arriving)
    verdict.event("army_moved", arrival, army=army_id, hex=as_dict(dest), cost=plan.cost)
    if joined is not None:
        verdict.event("armies_merged", arrival, army=source.id, into=joined,
                      hex=as_dict(dest))
    verdict.event("depletion_placed", arrival, cubes=cubes, army=army_id, hex=as_dict(dest))

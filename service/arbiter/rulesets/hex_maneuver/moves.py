"""Applying a judged maneuver to the state: units leave their armies, dropped units form
(or join) depleted armies, the column arrives and joins any army of the player already
there, and depletion cubes go on (maneuver.3, split.1-2, merge.1, pickup.1).

Writes into the armies of a ``Draft`` of the resulting state (handed out as JSON); the
request's own models are never touched.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from arbiter.engine.draft import Draft
from arbiter.engine.hexgrid import Hex, as_dict
from arbiter.engine.outcome import Verdict, location

from .maneuver import PathPlan, Units, add, sub


class ArmyBook:
    """The armies of the resulting state (JSON, changed in place), with fresh ids for new
    armies."""

    def __init__(self, armies: list[dict[str, Any]]) -> None:
        self.armies = armies
        self.ids = {a["id"] for a in armies}

    def get(self, army_id: str) -> dict[str, Any]:
        return next(a for a in self.armies if a["id"] == army_id)

    def own_at(self, player: str, h: Hex) -> dict[str, Any] | None:
        here = [a for a in self.armies
                if a["owner"] == player and (a["hex"]["q"], a["hex"]["r"]) == h]
        return min(here, key=lambda a: a["id"]) if here else None

    def take(self, army_id: str, units: Units, packers_taken_unpacked: int = 0) -> None:
        army = self.get(army_id)
        army["units"] = sub(army["units"], units)
        army["unpacked"] = max(0, army.get("unpacked", 0) - packers_taken_unpacked)
        if not army["units"]:
            self.armies.remove(army)
            self.ids.discard(army_id)

    def new_id(self, base: str) -> str:
        n = 1
        while f"{base}.{n}" in self.ids:
            n += 1
        self.ids.add(f"{base}.{n}")
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
        if keep_id is not None and keep_id not in self.ids:
            army_id = keep_id
            self.ids.add(army_id)
        else:
            army_id = self.new_id(base)
        self.armies.append({"id": army_id, "owner": player, "hex": as_dict(h), "units": units,
                            "depletion": cubes, "unpacked": unpacked})
        return army_id, None


def _unpacked_taken(packers: int, unpacked: int, moving_packers: int) -> int:
    """Packed units go first; beyond them, unpacked ones are packed to move."""
    return max(0, moving_packers - (packers - unpacked))


def apply_maneuver(draft: Draft, plan: PathPlan, player: str, cubes: int,
                   verdict: Verdict, packs: AbstractSet[str]) -> None:
    book = ArmyBook(draft["armies"])
    source = plan.army

    def packers_of(units: Units) -> int:
        return sum(c for u, c in units.items() if u in packs)

    whole = plan.moving == {u: c for u, c in source.units.items() if c > 0}
    book.take(source.id, plan.moving, _unpacked_taken(packers_of(source.units),
                                                       source.unpacked,
                                                       packers_of(plan.moving)))
    for pickup in plan.pickups:
        index, picked, units = pickup.index, pickup.army, pickup.units
        taken_unpacked = _unpacked_taken(packers_of(picked.units), picked.unpacked,
                                         packers_of(units))
        book.take(picked.id, units, taken_unpacked)
        h = plan.path[index] if index >= 0 else plan.start
        verdict.event("units_picked_up", location(step=index + 1, hex=h, piece=picked.id),
                      units=units, army=picked.id, hex=as_dict(h))
    for leg in plan.drops:
        army_id, joined = book.land(player, leg.hex, leg.units, 1, keep_id=None, base=source.id)
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
    army_id, joined = book.land(player, dest, plan.arriving, cubes,
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

"""Phase 13 - Healing: "All healing occurs here, this includes healing from recuperation.
Healing caused by a spell happens in phase 2." (healing.1; spells: ``disband.py``)

Reading: recuperation is what a unit ordered to hold does: it recovers the option
``recuperation`` hit points (1 by default), unless it fought a melee this turn. Healing
abilities used in phase 8 heal their target now. No unit heals above its maximum. A hold
order is settled here.
"""

from __future__ import annotations

from .models import PhasedOrdersHold
from .world import Piece, World


def phase_healing(world: World) -> None:
    amount = world.options.recuperation
    for i, order in world.orders(PhasedOrdersHold):
        piece = world.actor(i, order.unit)
        if piece is None:
            continue
        if piece.id not in world.fought:
            heal(world, piece, amount, "recuperation")
        world.results.settle(i, "held", 13, unit=piece.id)
    for i, target, gain in world.heals:
        piece = world.pieces.get(target)
        if piece is None:
            world.results.settle(i, "target_lost", 13, target=target, by_phase=13)
        else:
            heal(world, piece, gain, "ability")


def heal(world: World, piece: Piece, amount: int, source: str) -> None:
    healed = min(piece.max_hit_points, piece.hit_points + amount) - piece.hit_points
    if healed <= 0:
        return
    world.alter(piece, hit_points=piece.hit_points + healed)
    world.trace.event("unit_healed", unit=piece.id, amount=healed,
                      hit_points=piece.hit_points, source=source)

"""Phase 6 - Commission: "Players that order strongholds to produce armies pay for the
armies in this phase." (commission.1)

The unit type and its cost are data in the state (``unit_types``). Reading: the cost is
paid from the stronghold's own resources (the option ``commission_paid_from`` makes it
the player's pool instead); a payer that does not hold the whole cost pays nothing and
the stronghold produces nothing. The unit appears in phase 15.
"""

from __future__ import annotations

from .models import PhasedOrdersCommission, PhasedOrdersUnit
from .world import Piece, Waiting, World


def phase_commission(world: World) -> None:
    from_stronghold = world.options.commission_paid_from == "stronghold"
    for i, order in world.orders(PhasedOrdersCommission):
        kind = world.board.unit_types[order.unit_type]
        stronghold = world.board.strongholds[order.stronghold]
        payer = stronghold.id if from_stronghold else order.player
        available = world.stored[payer] if from_stronghold else world.resources(payer)
        if kind.cost > available:
            world.results.settle(i, "cannot_afford", 6, stronghold=stronghold.id,
                                 cost=kind.cost, unit_type=kind.id, payer=payer,
                                 available=available)
            continue
        left = available - kind.cost
        if from_stronghold:
            world.set_stored(payer, left)
        else:
            world.set_resources(payer, left)
        unit = PhasedOrdersUnit(
            id=order.new_unit, owner=stronghold.owner, type=kind.id, hex=stronghold.hex,
            move=kind.move, flying=kind.flying, archer=kind.archer, range=kind.range,
            hit_points=kind.hit_points, max_hit_points=kind.hit_points,
            strength=kind.strength, free_upkeep=kind.free_upkeep, undead=kind.undead)
        world.recruits.append(Waiting(Piece.of(unit), order=i))
        world.trace.event("unit_commissioned", stronghold=stronghold.id, unit=unit.id,
                          unit_type=kind.id, cost=kind.cost, payer=payer,
                          paid_from="stronghold" if from_stronghold else "player",
                          resources=left)
        world.results.settle(i, "commissioned", 6, stronghold=stronghold.id, unit=unit.id,
                             unit_type=kind.id, cost=kind.cost)

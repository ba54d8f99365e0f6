"""Phase 14 - Repairing: "Caravans can issue the repair order to reset their durability to
5 here." (repair.1; the option ``repair_durability`` holds the 5)"""

from __future__ import annotations

from .models import PhasedOrdersRepair
from .world import World


def phase_repair(world: World) -> None:
    durability = world.options.repair_durability
    for i, order in world.orders(PhasedOrdersRepair):
        caravan = world.actor(i, order.unit)
        if caravan is None:
            continue
        world.alter(caravan, durability=durability)
        world.trace.event("caravan_repaired", unit=caravan.id, durability=durability)
        world.results.settle(i, "repaired", 14, unit=caravan.id, durability=durability)

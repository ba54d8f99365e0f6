"""Phase 9 - Caravan Orders: "Caravan specific orders take place in this phase.
(Loading/Unload resources)" (caravan.1)

Reading: a caravan loads from, and unloads into, a stronghold of its owner on the hex
where it stands (movement comes later, in phase 10). It moves what there is, up to the
amount ordered: a stronghold holding less, or a caravan carrying less, makes the order
partly carried out. Unloading may take a stronghold above its maximum; the excess goes in
phase 17. The repair order is a caravan order too, carried out in phase 14.
"""

from __future__ import annotations

from .models import PhasedOrdersLoad, PhasedOrdersUnload
from .world import World


def phase_caravans(world: World) -> None:
    for i, order in enumerate(world.plan.orders):
        if i not in world.plan.refused and isinstance(order, PhasedOrdersLoad | PhasedOrdersUnload):
            _trade(world, i, order)


def _trade(world: World, index: int, order: PhasedOrdersLoad | PhasedOrdersUnload) -> None:
    caravan = world.actor(index, order.unit)
    if caravan is None or caravan.carried is None:
        return
    stronghold = world.board.stronghold_at[caravan.hex]
    loading = isinstance(order, PhasedOrdersLoad)
    stored = world.stored[stronghold]
    amount = min(order.amount, stored if loading else caravan.carried)
    if amount:
        world.alter(caravan, carried=caravan.carried + (amount if loading else -amount))
        world.set_stored(stronghold, stored - amount if loading else stored + amount)
        world.trace.event("caravan_loaded" if loading else "caravan_unloaded",
                          unit=caravan.id, stronghold=stronghold, amount=amount,
                          carried=caravan.carried, stored=world.stored[stronghold])
    done = "loaded" if loading else "unloaded"
    code = done if amount == order.amount else ("load_short" if loading else "unload_short")
    world.results.settle(index, code, 9, unit=caravan.id, stronghold=stronghold,
                         amount=amount, ordered=order.amount)

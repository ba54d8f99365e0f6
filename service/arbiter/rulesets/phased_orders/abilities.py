"""Phase 8 - Abilities: "Leader abilities such as Scavenging and Stargazing take place in
this phase." (abilities.1)

The source names abilities without defining them, so they are data in the state
(``abilities``), each with one effect of a small documented set: ``gain_resources`` and
``gain_gems`` add their amount to the player's pool or gems now; ``heal`` takes place now
and heals its target (the user when the order names none) in phase 13, where "all
healing occurs" (``healing.py``); ``report`` changes nothing and is for the game master
to read in the trace (Stargazing, say).
"""

from __future__ import annotations

from .models import PhasedOrdersUseAbility
from .world import World


def phase_abilities(world: World) -> None:
    for i, order in world.orders(PhasedOrdersUseAbility):
        user = world.actor(i, order.unit)
        if user is None:
            continue
        ability = world.board.abilities[order.ability]
        world.trace.event("ability_used", unit=user.id, ability=ability.id,
                          effect=ability.effect)
        player = order.player
        if ability.effect == "gain_resources":
            world.set_resources(player, world.resources(player) + ability.amount)
            world.trace.event("resources_gained", player=player, amount=ability.amount,
                              resources=world.resources(player))
        elif ability.effect == "gain_gems":
            world.set_gems(player, world.gems(player) + ability.amount)
            world.trace.event("gems_gained", player=player, amount=ability.amount,
                              gems=world.gems(player))
        elif ability.effect == "heal":
            world.heals.append((i, order.target or user.id, ability.amount))
        world.results.settle(i, "ability_used", 8, unit=user.id, ability=ability.id)

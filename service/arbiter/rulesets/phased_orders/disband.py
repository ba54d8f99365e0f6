"""Phase 2 - Disband: "Units ordered to disband disband in this phase." (disband.1)

Phase 2 is also when a healing spell heals: "Healing caused by a spell happens in phase
2." (healing.2). Disbands come first, so a heal cast on a unit that disbands finds no
target. The spell's gems are spent when it is cast (ranged.2).
"""

from __future__ import annotations

from arbiter.engine.hexgrid import as_dict

from .models import PhasedOrdersCast, PhasedOrdersDisband
from .world import World


def phase_disband(world: World) -> None:
    for i, order in world.orders(PhasedOrdersDisband):
        piece = world.actor(i, order.unit)
        if piece is None:
            continue
        world.remove(piece)
        world.trace.event("unit_disbanded", unit=piece.id, hex=as_dict(piece.hex))
        world.results.settle(i, "disbanded", 2, unit=piece.id)
    for i, cast in world.orders(PhasedOrdersCast):
        if world.board.spells[cast.spell].effect == "heal":
            heal_by_spell(world, i, cast)


def pay_gems(world: World, index: int, cast: PhasedOrdersCast) -> bool:
    """ranged.2: spend the spell's gems; False (the order failed) when the player no longer
    holds enough, earlier spells of the turn having spent them."""
    cost = world.board.spells[cast.spell].gems
    gems = world.gems(cast.player)
    if cost > gems:
        world.results.settle(index, "gems_exhausted", world.trace.phase, spell=cast.spell,
                             cost=cost, player=cast.player, gems=gems)
        return False
    world.set_gems(cast.player, gems - cost)
    return True


def heal_by_spell(world: World, index: int, cast: PhasedOrdersCast) -> None:
    caster = world.actor(index, cast.unit)
    if caster is None:
        return
    target = world.pieces.get(cast.target)
    if target is None:
        world.results.settle(index, "target_lost", 2, target=cast.target, by_phase=2)
        return
    if not pay_gems(world, index, cast):
        return
    amount = world.board.spells[cast.spell].amount
    world.alter(target, hit_points=min(target.max_hit_points, target.hit_points + amount))
    world.trace.event("spell_healed", unit=caster.id, spell=cast.spell, target=target.id,
                      hit_points=target.hit_points, player=cast.player,
                      gems=world.gems(cast.player))
    world.results.settle(index, "spell_healed", 2, unit=caster.id, spell=cast.spell,
                         target=target.id)

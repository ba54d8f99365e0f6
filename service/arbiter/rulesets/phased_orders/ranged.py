"""Phase 7 - Spells/Ranged Attacks: "Ranged attacks and spells trigger in this phase. A
player must have enough gems to complete a spell before s/he can attempt to cast it."

Every ranged attack and damaging spell of the phase triggers at once (ranged.1): an
archer or caster destroyed in this phase still shoots, and the damage is added up before
any unit is removed. A ranged attack deals the archer's strength, or the damage its order
gives (table mode); a spell deals its amount (ranged.3). Spells are paid in the order the
action lists them: a spell the player's gems no longer cover when its turn comes fails
and costs nothing (ranged.2). A unit left without hit points is destroyed. Healing spells
healed in phase 2 (``disband.py``).
"""

from __future__ import annotations

from arbiter.engine.hexgrid import as_dict

from .disband import pay_gems
from .models import PhasedOrdersCast, PhasedOrdersRangedAttack
from .world import World


def phase_ranged(world: World) -> None:
    hits: dict[str, int] = {}
    for i, order in enumerate(world.plan.orders):
        if i in world.plan.refused:
            continue
        if isinstance(order, PhasedOrdersRangedAttack):
            _shoot(world, i, order, hits)
        elif isinstance(order, PhasedOrdersCast) \
                and world.board.spells[order.spell].effect == "damage":
            _cast(world, i, order, hits)
    for target, damage in hits.items():
        piece = world.pieces[target]
        world.alter(piece, hit_points=piece.hit_points - damage)
        if piece.hit_points <= 0:
            world.remove(piece)
            world.trace.event("unit_destroyed", unit=target, hex=as_dict(piece.hex))
        elif damage:
            world.trace.event("unit_damaged", unit=target, hit_points=piece.hit_points)


def _target(world: World, index: int, unit: str, target: str) -> bool:
    """The shooter and its target are both still on the board (else the order fails)."""
    if world.actor(index, unit) is None:
        return False
    if target not in world.pieces:
        world.results.settle(index, "target_lost", 7, target=target, by_phase=7)
        return False
    return True


def _shoot(world: World, index: int, order: PhasedOrdersRangedAttack,
           hits: dict[str, int]) -> None:
    if not _target(world, index, order.unit, order.target):
        return
    archer = world.pieces[order.unit]
    damage = archer.strength if order.damage is None else order.damage
    hits[order.target] = hits.get(order.target, 0) + damage
    world.trace.event("ranged_attack", unit=archer.id, target=order.target, damage=damage)
    world.results.settle(index, "attacked", 7, unit=archer.id, target=order.target,
                         damage=damage)


def _cast(world: World, index: int, order: PhasedOrdersCast, hits: dict[str, int]) -> None:
    if not _target(world, index, order.unit, order.target) or not pay_gems(world, index, order):
        return
    spell = world.board.spells[order.spell]
    hits[order.target] = hits.get(order.target, 0) + spell.amount
    world.trace.event("spell_cast", unit=order.unit, spell=spell.id, target=order.target,
                      player=order.player, gems=world.gems(order.player))
    world.results.settle(index, "spell_cast", 7, unit=order.unit, spell=spell.id,
                         target=order.target)

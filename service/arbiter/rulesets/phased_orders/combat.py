"""Phase 12 - Combat: "If two or more units occupy the same space at the end of the
movement phase and neither is ejected melee combat begins. Combat continues until only
one remains." (combat.1)

Reading: after logistics, the units on a hex form sides (units whose owners are allied,
or one owner, joined through allies); a hex with two sides or more is a melee, fought
until exactly one side remains - never none. The source gives no arithmetic, so the
default is deterministic (combat.2): in each round every side deals the total strength
of its standing units to the enemy units, the one with the fewest hit points first
(then by id), each taking up to its hit points before the rest passes to the next; the
blows land at once (orders are executed simultaneously), and units at 0 hit points
fall. Strength is at least 1, so every melee ends.

Blows landing at once could fell the last units of every side in the same round, which
the text rules out ("Combat continues until only one remains"). Such a round is struck
in turn instead (combat.4): the sides strike one after another, a unit at 0 falls at
once and does not strike back, and the melee ends the moment one side is left. Who
strikes first: the sides that moved in (every unit of theirs on the hex came to it this
turn: the attackers) before the sides that held the hex - the text makes entering an
enemy's hex the attack (a ground unit "will instead halt it's movement there", bandits
"will move to attack", an archer attacks "and thus halt[s]" a flyer), so the attacker
has the initiative. Sides alike in this (both moved in, or both held it) strike in an
order drawn from the state's seed (the Reading: randomness "combat if dice are used"
comes from the seed), so no unit's id or place in the request decides it. Only such a
round uses the order: every other round, and every melee that ends without one, is as
before, and draws nothing. ``combat_won`` then gives the ``striking_order`` and, when a
draw was made, the seed after it (``rng``).

A request may instead give a hex's result (table mode): the survivors, at least one and
all of one side, with their hit points; every other unit there is slain. A result that
cannot be (a unit not in the melee, survivors of two sides or of none, hit points above
the maximum) is a violation, and the default decides that melee. Players not at war who
meet in melee are at war from then on (combat.3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter.engine.bounds import checkpoint
from arbiter.engine.hexgrid import Hex, as_dict
from arbiter.engine.outcome import location

from .models import RESERVED_OWNERS, PhasedOrdersCombatResult
from .world import Piece, World


def phase_combat(world: World) -> None:
    explicit = {r.hex.key: (i, r) for i, r in enumerate(world.action.combat_results)}
    used: set[int] = set()
    for h in sorted(world.at, key=world.board.hex_order.__getitem__):
        pieces = world.occupants(h)
        sides = world.allied_groups(pieces) if len(pieces) > 1 else []
        if len(sides) < 2:
            continue
        given = explicit.get(h)
        if given is not None:
            used.add(given[0])
        _melee(world, h, sides, given[1] if given else None)
    world.unused_combat_results = [i for i in range(len(world.action.combat_results))
                                   if i not in used]


def _melee(world: World, h: Hex, sides: list[list[Piece]],
           given: PhasedOrdersCombatResult | None) -> None:
    at = as_dict(h)
    world.trace.event("combat_began", hex=at, units=[p.id for s in sides for p in s],
                      sides=[[p.id for p in s] for s in sides])
    _wars(world, h, sides)
    pieces = [p for s in sides for p in s]
    world.fought.update(p.id for p in pieces)
    table = _table(world, h, sides, given) if given is not None else None
    order: list[list[Piece]] = []
    drawn: list[bool] = []

    def striking_order() -> list[list[Piece]]:
        # Settled once per melee: a later round struck in turn keeps the same order.
        if not order:
            sorted_sides, drew = _striking_order(world, sides)
            order.extend(sorted_sides)
            drawn.append(drew)
        return order

    hit_points, rounds = (table, 0) if table is not None else fight(sides, striking_order)
    for p in pieces:
        left = hit_points[p.id]
        if left <= 0:
            world.remove(p)
            world.trace.event("unit_slain", unit=p.id, hex=at)
        elif left != p.hit_points:
            world.alter(p, hit_points=left)
            world.trace.event("melee_damage", unit=p.id, hit_points=left)
    extra: dict[str, Any] = {}
    if order:
        extra["striking_order"] = [[p.id for p in s] for s in order]
    if any(drawn):
        extra["rng"] = world.rng.state
    world.trace.event("combat_won", hex=at, rounds=rounds, table=table is not None,
                      winners=[p.id for p in pieces if hit_points[p.id] > 0], **extra)


def _striking_order(world: World, sides: list[list[Piece]]
                    ) -> tuple[list[list[Piece]], bool]:
    """combat.4: the attackers (sides whose every unit here came to it this turn) before
    the holders; within each, an order drawn from the seed when there are two or more.
    Also whether it drew."""
    attackers = [s for s in sides if all(p.arrived for p in s)]
    holders = [s for s in sides if not all(p.arrived for p in s)]
    drew = False
    for group in (attackers, holders):
        # Fisher-Yates from the seed: every order of the group equally likely.
        for i in range(len(group) - 1, 0, -1):
            j = world.draw(i + 1)
            group[i], group[j] = group[j], group[i]
            drew = True
    return attackers + holders, drew


def _wars(world: World, h: Hex, sides: list[list[Piece]]) -> None:
    """combat.3: owners of different sides who were neither allied nor at war."""
    owners = [sorted({p.owner for p in s} - RESERVED_OWNERS) for s in sides]
    for i, mine in enumerate(owners):
        for theirs in owners[i + 1:]:
            for a in mine:
                for b in theirs:
                    if world.relation(a, b) == "neutral":
                        world.declare_war(a, b)
                        world.trace.event("melee_declares_war", hex=as_dict(h),
                                          players=sorted((a, b)))


def fight(sides: list[list[Piece]], striking_order: Callable[[], list[list[Piece]]]
          ) -> tuple[dict[str, int], int]:
    """The default melee: every unit's hit points at the end (above 0 for the units of
    exactly one side), and the rounds fought. ``striking_order`` is asked only for a round
    whose blows, landing at once, would leave no side standing (the same order each time:
    with three sides or more, one such round may leave two standing)."""
    hp = {p.id: p.hit_points for s in sides for p in s}
    rounds = 0
    while _standing(sides, hp) > 1:
        rounds += 1
        checkpoint()
        damage: dict[str, int] = {}
        for side in sides:
            for uid, d in _blow(side, sides, hp).items():
                damage[uid] = damage.get(uid, 0) + d
        after = {uid: left - damage.get(uid, 0) for uid, left in hp.items()}
        if _standing(sides, after) > 0:
            hp = after
            continue
        # combat.4: this round is struck in turn, and the melee ends with one side.
        for side in striking_order():
            for uid, d in _blow(side, sides, hp).items():
                hp[uid] -= d
            if _standing(sides, hp) == 1:
                break
    return hp, rounds


def _standing(sides: list[list[Piece]], hp: dict[str, int]) -> int:
    return sum(1 for s in sides if any(hp[p.id] > 0 for p in s))


def _blow(side: list[Piece], sides: list[list[Piece]], hp: dict[str, int]) -> dict[str, int]:
    """The damage one side deals: its standing units' total strength, to the enemy units
    standing, the one with the fewest hit points first (then by id), each taking up to its
    hit points before the rest passes to the next."""
    power = sum(p.strength for p in side if hp[p.id] > 0)
    damage: dict[str, int] = {}
    foes = sorted((p for s in sides if s is not side for p in s if hp[p.id] > 0),
                  key=lambda p: (hp[p.id], p.id))
    for foe in foes:
        if not power:
            break
        take = min(power, hp[foe.id])
        damage[foe.id] = take
        power -= take
    return damage


def _table(world: World, h: Hex, sides: list[list[Piece]], given: PhasedOrdersCombatResult
           ) -> dict[str, int] | None:
    """The hit points the request's result gives; None (a violation) when it cannot be."""
    side_of = {p.id: k for k, s in enumerate(sides) for p in s}
    pieces = {p.id: p for s in sides for p in s}
    reason = None
    seen: set[str] = set()
    for s in given.survivors:
        if s.unit not in side_of:
            reason = f"{s.unit} does not fight there"
        elif s.unit in seen:
            reason = f"{s.unit} is listed twice"
        elif s.hit_points > pieces[s.unit].max_hit_points:
            reason = (f"{s.unit} cannot have {s.hit_points} hit points; its maximum is "
                      f"{pieces[s.unit].max_hit_points}")
        seen.add(s.unit)
    if reason is None and len({side_of[s.unit] for s in given.survivors}) > 1:
        reason = "survivors of more than one side: melee goes on until one side remains"
    if reason is None and not given.survivors:
        reason = "no survivor: melee goes on until one side remains, so one side stands"
    if reason is not None:
        world.verdict.violate("combat_result_invalid", at=location(hex=h), hex=as_dict(h),
                              reason=reason)
        return None
    out = {uid: 0 for uid in side_of}
    out.update({s.unit: s.hit_points for s in given.survivors})
    return out

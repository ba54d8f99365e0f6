"""Phase 12 - Combat: "If two or more units occupy the same space at the end of the
movement phase and neither is ejected melee combat begins. Combat continues until only
one remains." (combat.1)

Reading: after logistics, the units on a hex form sides (units whose owners are allied,
or one owner, joined through allies); a hex with two sides or more is a melee, fought
until one side remains (or none). The source gives no arithmetic, so the default is
deterministic (combat.2): in each round every side deals the total strength of its
standing units to the enemy units, the one with the fewest hit points first (then by
id), each taking up to its hit points before the rest passes to the next; all sides
strike at once, and units at 0 hit points fall. Strength is at least 1, so every melee
ends. A request may instead give a hex's result (table mode): the survivors, all of one
side, with their hit points; every other unit there is slain. A result that cannot be
(a unit not in the melee, survivors of two sides, hit points above the maximum) is a
violation, and the default decides that melee. Players not at war who meet in melee are
at war from then on (combat.3).
"""

from __future__ import annotations

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
    hit_points, rounds = (table, 0) if table is not None else fight(sides)
    for p in pieces:
        left = hit_points[p.id]
        if left <= 0:
            world.remove(p)
            world.trace.event("unit_slain", unit=p.id, hex=at)
        elif left != p.hit_points:
            world.alter(p, hit_points=left)
            world.trace.event("melee_damage", unit=p.id, hit_points=left)
    winners = [p.id for p in pieces if hit_points[p.id] > 0]
    if winners:
        world.trace.event("combat_won", hex=at, winners=winners, rounds=rounds,
                          table=table is not None)
    else:
        world.trace.event("combat_annihilation", hex=at, rounds=rounds,
                          table=table is not None)


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


def fight(sides: list[list[Piece]]) -> tuple[dict[str, int], int]:
    """The default melee: every unit's hit points at the end, and the rounds fought."""
    hp = {p.id: p.hit_points for s in sides for p in s}
    rounds = 0
    while sum(1 for s in sides if any(hp[p.id] > 0 for p in s)) > 1:
        rounds += 1
        checkpoint()
        damage: dict[str, int] = {}
        for side in sides:
            power = sum(p.strength for p in side if hp[p.id] > 0)
            if not power:
                continue
            foes = sorted((p for s in sides if s is not side for p in s if hp[p.id] > 0),
                          key=lambda p: (hp[p.id], p.id))
            for foe in foes:
                take = min(power, hp[foe.id])
                damage[foe.id] = damage.get(foe.id, 0) + take
                power -= take
                if not power:
                    break
        for uid, d in damage.items():
            hp[uid] -= d
    return hp, rounds


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
    if reason is not None:
        world.verdict.violate("combat_result_invalid", at=location(hex=h), hex=as_dict(h),
                              reason=reason)
        return None
    out = {uid: 0 for uid in side_of}
    out.update({s.unit: s.hit_points for s in given.survivors})
    return out

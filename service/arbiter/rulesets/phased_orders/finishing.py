"""Phase 18 - Finishing: "Any units in an illegal position are shunted at the GM's
discretion, and Units level up. Units ordered to change sides do so."

Illegal positions (finishing.1). Reading: a position is illegal when a unit shares its
hex with another (one unit per hex) - allies logistics could not separate (their paths
exhausted), a unit commissioned onto an occupied stronghold, a bandit spawned on a hex
held only by units no player controls (phase 16). Of the units on such a hex the one
that came there first stays; each other one is shunted where the game master decides:
the decision ``placement:<unit>``, whose options are the free hexes of the map nearest to
it (all of the nearest ring that has any, within 20 hexes), each ``place``; ``disband``
is offered only when no hex within 20 is free, and then alone. A placement with a single
option (one free hex, or none) is no choice and is carried out without a decision, as
an ejection with a single candidate is. The decisions are asked one at a time, in order
(map order of the hexes, then the order the units came), and a hex an earlier placement
took is no longer an option. The turn stays well defined: every unit that gives way is
placed on a free hex or disbanded, so no turn ends with two units on one hex.

Levelling (finishing.2): the source does not say when a unit levels up, so the request
says who does and what the level gives (``level_ups``: strength and maximum hit points,
the latter healed too). Then units ordered to change sides go over (finishing.3).
"""

from __future__ import annotations

from arbiter.engine.hexgrid import Axial, Hex, as_dict, ring

from .decisions import PendingQuestion
from .models import PhasedOrdersChangeSides, PhasedOrdersOption
from .world import Piece, World

SEARCH_RADIUS = 20
DISBAND = PhasedOrdersOption(choice="disband")


def phase_finishing(world: World) -> None:
    _shunt(world)
    _level_up(world)
    for i, order in world.orders(PhasedOrdersChangeSides):
        piece = world.actor(i, order.unit)
        if piece is None:
            continue
        frm = piece.owner
        world.alter(piece, owner=order.to)
        world.trace.event("unit_changed_sides", unit=piece.id, to=order.to, **{"from": frm})
        world.results.settle(i, "changed_sides", 18, unit=piece.id, to=order.to)


def illegal_positions(world: World) -> list[tuple[Piece, Hex]]:
    """Every unit that shares a hex with one that came there before it, by hex in map
    order, then in the order they came."""
    out = []
    for h in sorted(world.at, key=world.board.hex_order.__getitem__):
        pieces = sorted(world.occupants(h), key=lambda p: p.arrived)
        out += [(p, h) for p in pieces[1:]]
    return out


def placement_options(world: World, h: Hex) -> list[PhasedOrdersOption]:
    """``place`` on each free hex of the nearest ring that has one; ``disband`` alone when
    none within ``SEARCH_RADIUS`` is free."""
    for radius in range(1, SEARCH_RADIUS + 1):
        free = [n for n in ring(h, radius) if world.on_map(n) and n not in world.at]
        if free:
            return [PhasedOrdersOption(choice="place", hex=Axial.of(n)) for n in free]
    return [DISBAND]


def _shunt(world: World) -> None:
    """One unit at a time, so each question's options are the hexes still free after the
    answers before it: the turn stops at the first unanswered (or wrongly answered) one.
    A question with one option is answered by it (``Decisions.ask``)."""
    for piece, h in illegal_positions(world):
        decision = f"placement:{piece.id}"
        answer = world.decisions.ask(PendingQuestion(
            decision, "placement", placement_options(world, h), phase=18, subphase=None,
            hex=h, units=[piece.id], unit=piece.id,
            params={"decision": decision, "unit": piece.id, "hex": as_dict(h)}))
        world.decisions.stop_if_pending()
        assert answer is not None
        if answer.choice == "disband":
            world.remove(piece)
            world.trace.event("unit_dismissed", unit=piece.id, hex=as_dict(piece.hex))
            continue
        assert answer.hex is not None
        frm = piece.hex
        world.place(piece, answer.hex.key)
        world.trace.event("unit_shunted", unit=piece.id, to=answer.hex.model_dump(),
                          **{"from": as_dict(frm)})


def _level_up(world: World) -> None:
    for level_up in world.action.level_ups:
        piece = world.pieces.get(level_up.unit)
        if piece is None:
            world.trace.event("level_up_lapsed", unit=level_up.unit)
            continue
        world.alter(piece, level=piece.level + 1,
                    strength=piece.strength + level_up.strength,
                    max_hit_points=piece.max_hit_points + level_up.max_hit_points,
                    hit_points=piece.hit_points + level_up.max_hit_points)
        world.trace.event("unit_levelled", unit=piece.id, level=piece.level,
                          strength=piece.strength, max_hit_points=piece.max_hit_points,
                          hit_points=piece.hit_points)

"""Phase 1 - Orders: "Players give an order to each of their units and strongholds."

Two layers, as for any action. A malformed order cannot be judged at all and is a 422
problem at its pointer (``/action/orders/<i>/...``): a player, unit, stronghold, target,
spell, ability or unit type that is not in the state; a unit or stronghold the player
does not own; a second order for one unit or stronghold; a path whose first hex is not
adjacent to the unit or whose hexes do not follow one another, or leave the map; a new
unit id already taken; a change of sides to the unit's own owner. A well-formed order
that breaks a rule the state alone decides (a path longer than the unit's move, a ranged
attack by a unit that is no archer or out of range, a spell the player cannot pay for, a
caravan order at no stronghold of theirs) is a violation: in strict mode the turn is
refused, in advisory mode it is resolved with that order failed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.hexgrid import Hex, as_dict, distance
from arbiter.engine.index import check_ref
from arbiter.engine.outcome import Verdict, location, render

from .board import Board, check_unit_id
from .catalogue import CATALOGUE
from .models import (
    PhasedOrdersAnyOrder,
    PhasedOrdersCast,
    PhasedOrdersChangeSides,
    PhasedOrdersCommission,
    PhasedOrdersLoad,
    PhasedOrdersMove,
    PhasedOrdersRangedAttack,
    PhasedOrdersRepair,
    PhasedOrdersUnit,
    PhasedOrdersUnload,
    PhasedOrdersUseAbility,
)

if TYPE_CHECKING:
    from .world import World

Refusal = tuple[str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Plan:
    """The orders as checked: each refused order with its violations, the order of each
    unit and stronghold."""

    orders: Sequence[PhasedOrdersAnyOrder]
    refused: dict[int, list[Refusal]] = field(default_factory=dict)
    unit_order: dict[str, int] = field(default_factory=dict)
    stronghold_order: dict[str, int] = field(default_factory=dict)


def check_orders(board: Board, orders: Sequence[PhasedOrdersAnyOrder], verdict: Verdict,
                 player: str | None = None,
                 more: Callable[[Plan, Problems], None] | None = None) -> Plan:
    """Raise every malformed order (422) together, with what ``more`` finds wrong in the
    rest of the request; report every rule breach in ``verdict``. ``player``: the orders
    are one player's submission, and every order must be theirs."""
    problems = Problems()
    plan = Plan(orders=orders)
    new_units: dict[str, int] = {}
    for i, order in enumerate(orders):
        at = ("action", "orders", i)
        if player is not None and order.player != player:
            problems.add(pointer(*at, "player"), f"an order of {order.player} among the orders "
                         f"{player} submits")
        if not check_ref(order.player, board.players, (*at, "player"), "player", problems):
            continue
        if isinstance(order, PhasedOrdersCommission):
            _check_commission(board, order, i, plan, new_units, problems)
        else:
            _check_unit_order(board, order, i, plan, problems)
    if more is not None:
        more(plan, problems)
    problems.raise_if_any()
    for i, order in enumerate(orders):
        refusals = refusals_of(board, order)
        for code, params in refusals:
            subject = order.stronghold if isinstance(order, PhasedOrdersCommission) \
                else order.unit
            verdict.violate(code, at=location(step=i, piece=subject), **params)
        if refusals:
            plan.refused[i] = refusals
    return plan


def _claim(subjects: dict[str, int], subject: str, i: int, at: tuple[object, ...],
           what: str, problems: Problems) -> None:
    if subject in subjects:
        problems.add(pointer(*at), f"{what} {subject} already has an order "
                     f"(orders/{subjects[subject]}): one order per {what}")
    else:
        subjects[subject] = i


def _check_commission(board: Board, order: PhasedOrdersCommission, i: int, plan: Plan,
                      new_units: dict[str, int], problems: Problems) -> None:
    at = ("action", "orders", i)
    if check_ref(order.stronghold, board.strongholds, (*at, "stronghold"), "stronghold",
                 problems):
        owner = board.strongholds[order.stronghold].owner
        if owner != order.player:
            problems.add(pointer(*at, "stronghold"), f"stronghold {order.stronghold} belongs "
                         f"to {owner}, not to {order.player}")
        else:
            _claim(plan.stronghold_order, order.stronghold, i, (*at, "stronghold"),
                   "stronghold", problems)
    check_ref(order.unit_type, board.unit_types, (*at, "unit_type"), "unit type", problems)
    check_unit_id(order.new_unit, (*at, "new_unit"), problems)
    if order.new_unit in board.units or order.new_unit in new_units:
        problems.add(pointer(*at, "new_unit"), f"unit id {order.new_unit} is taken")
    else:
        new_units[order.new_unit] = i


def _check_unit_order(board: Board, order: PhasedOrdersAnyOrder, i: int, plan: Plan,
                      problems: Problems) -> None:
    assert not isinstance(order, PhasedOrdersCommission)
    at = ("action", "orders", i)
    if not check_ref(order.unit, board.units, (*at, "unit"), "unit", problems):
        return
    unit = board.units[order.unit]
    if unit.owner != order.player:
        problems.add(pointer(*at, "unit"), f"unit {order.unit} belongs to {unit.owner}, not "
                     f"to {order.player}")
        return
    _claim(plan.unit_order, order.unit, i, (*at, "unit"), "unit", problems)
    if isinstance(order, PhasedOrdersMove):
        _check_path(board, unit, order, at, problems)
    elif isinstance(order, PhasedOrdersRangedAttack | PhasedOrdersCast):
        check_ref(order.target, board.units, (*at, "target"), "unit", problems)
        if isinstance(order, PhasedOrdersCast):
            check_ref(order.spell, board.spells, (*at, "spell"), "spell", problems)
    elif isinstance(order, PhasedOrdersUseAbility):
        check_ref(order.ability, board.abilities, (*at, "ability"), "ability", problems)
        if order.target is not None:
            check_ref(order.target, board.units, (*at, "target"), "unit", problems)
    elif isinstance(order, PhasedOrdersChangeSides) and check_ref(
            order.to, board.players, (*at, "to"), "player", problems) and order.to == unit.owner:
        problems.add(pointer(*at, "to"), f"unit {order.unit} already belongs to {order.to}")


def _check_path(board: Board, unit: PhasedOrdersUnit, order: PhasedOrdersMove,
                at: tuple[object, ...], problems: Problems) -> None:
    """A path is contiguous: each hex on the map and adjacent to the one before it."""
    last: Hex = unit.hex.key
    for k, step in enumerate(order.path):
        h = step.key
        if h not in board.hexes:
            problems.add(pointer(*at, "path", k), f"no hex ({h[0]},{h[1]}) on the map")
        elif distance(last, h) != 1:
            problems.add(pointer(*at, "path", k), f"({h[0]},{h[1]}) is not adjacent to "
                         f"({last[0]},{last[1]}): a path goes from hex to adjacent hex")
        last = h


def refusals_of(board: Board, order: PhasedOrdersAnyOrder) -> list[Refusal]:
    """The rule breaches of a well-formed order that the state alone decides."""
    if isinstance(order, PhasedOrdersCommission):
        return []
    unit = board.units[order.unit]
    if isinstance(order, PhasedOrdersMove):
        if len(order.path) > unit.move:
            return [("path_too_long", {"unit": unit.id, "steps": len(order.path),
                                       "move": unit.move})]
        return []
    if isinstance(order, PhasedOrdersRangedAttack):
        return _ranged_refusals(board, unit, order)
    if isinstance(order, PhasedOrdersCast):
        return _cast_refusals(board, unit, order)
    if isinstance(order, PhasedOrdersUseAbility):
        return _ability_refusals(board, unit, order)
    if isinstance(order, PhasedOrdersLoad | PhasedOrdersUnload | PhasedOrdersRepair):
        return _caravan_refusals(board, unit, order)
    return []


def _reach(board: Board, unit: PhasedOrdersUnit, target: str, reach: int) -> list[Refusal]:
    d = distance(unit.hex.key, board.units[target].hex.key)
    if d > reach:
        return [("target_out_of_range", {"unit": unit.id, "target": target, "distance": d,
                                         "range": reach})]
    return []


def _enemy(board: Board, unit: PhasedOrdersUnit, target: str) -> list[Refusal]:
    owner = board.units[target].owner
    if board.relation(unit.owner, owner) != "war":
        return [("target_not_enemy", {"target": target, "owner": owner,
                                      "player": unit.owner})]
    return []


def _ranged_refusals(board: Board, unit: PhasedOrdersUnit,
                     order: PhasedOrdersRangedAttack) -> list[Refusal]:
    out: list[Refusal] = []
    if not unit.archer:
        out.append(("not_an_archer", {"unit": unit.id}))
    return out + _reach(board, unit, order.target, unit.range) + \
        _enemy(board, unit, order.target)


def _cast_refusals(board: Board, unit: PhasedOrdersUnit, order: PhasedOrdersCast
                   ) -> list[Refusal]:
    spell = board.spells[order.spell]
    out: list[Refusal] = []
    if order.spell not in unit.spells:
        out.append(("spell_not_known", {"unit": unit.id, "spell": order.spell}))
    gems = board.players[order.player].gems
    if spell.gems > gems:
        out.append(("not_enough_gems", {"spell": spell.id, "cost": spell.gems,
                                        "player": order.player, "gems": gems}))
    out += _reach(board, unit, order.target, spell.range)
    if spell.effect == "damage":
        out += _enemy(board, unit, order.target)
    return out


def _ability_refusals(board: Board, unit: PhasedOrdersUnit, order: PhasedOrdersUseAbility
                      ) -> list[Refusal]:
    out: list[Refusal] = []
    ability = board.abilities[order.ability]
    if order.ability not in unit.abilities:
        out.append(("ability_not_held", {"unit": unit.id, "ability": order.ability}))
    if ability.effect == "heal" and order.target is not None:
        d = distance(unit.hex.key, board.units[order.target].hex.key)
        if d > ability.range:
            out.append(("ability_target_out_of_range", {
                "unit": unit.id, "target": order.target, "distance": d,
                "ability": ability.id, "range": ability.range}))
    return out


def _caravan_refusals(board: Board, unit: PhasedOrdersUnit,
                      order: PhasedOrdersLoad | PhasedOrdersUnload | PhasedOrdersRepair
                      ) -> list[Refusal]:
    if unit.caravan is None:
        return [("not_a_caravan", {"unit": unit.id, "order": order.order})]
    if isinstance(order, PhasedOrdersRepair):
        return []
    held = board.stronghold_at.get(unit.hex.key)
    if held is None or board.strongholds[held].owner != unit.owner:
        return [("no_own_stronghold", {"player": unit.owner, "hex": as_dict(unit.hex.key),
                                       "unit": unit.id})]
    return []


def phase_orders(world: World) -> None:
    """orders.1: the orders each player gave, in the trace; a refused order fails here."""
    given: dict[str, int] = {}
    for order in world.plan.orders:
        given[order.player] = given.get(order.player, 0) + 1
    for player in world.board.players:
        if player in given:
            world.trace.event("orders_received", player=player, orders=given[player])
    for i, refusals in world.plan.refused.items():
        code, params = refusals[0]
        world.results.refuse(i, code, render(CATALOGUE.codes[code].template, params), params)


def unordered(board: Board, plan: Plan, player: str | None = None) -> list[str]:
    """The units and strongholds (of ``player``, or of every player) without an order."""
    units = [u.id for u in board.state.units if u.id not in plan.unit_order
             and u.owner in board.players and player in (None, u.owner)]
    strongholds = [s.id for s in board.state.strongholds if s.id not in plan.stronghold_order
                   and player in (None, s.owner)]
    return units + strongholds

"""The pseudo-legal generator of phased_orders: for a player, one ``submit`` action per
order worth judging, each holding that one order. ``judge`` filters them
(``arbiter.engine.legal``), so what ``legal-actions`` lists is exactly what
``validate`` accepts.

In the documented order, unit by unit as the state lists them: hold, disband, a move to
every hex within the unit's move (one shortest path over the map each, searched outwards,
neighbours E, NE, NW, W, SW, SE), a ranged attack at every unit within its range, each
spell it knows at every unit within the spell's range, each of its abilities (at itself),
load all a stronghold under it holds, unload all it carries, repair, and going over to
each other player; then, stronghold by stronghold, the commission of each unit type (the
new unit named ``<stronghold>-<type>``, suffixed with a number when that is taken); last,
the game master's ``resolve`` of the turn as it stands, with no orders (every unit holds),
so that a client sees whether the turn breaks no rule now (it may still stop for decisions:
validate's ``derived.status`` is then ``pending``, with the questions).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from arbiter.engine.hexgrid import Axial, Hex, distance, neighbours, path_back

from .board import Board
from .models import (
    PhasedOrdersAnyAction,
    PhasedOrdersAnyOrder,
    PhasedOrdersCast,
    PhasedOrdersChangeSides,
    PhasedOrdersCommission,
    PhasedOrdersDisband,
    PhasedOrdersHold,
    PhasedOrdersLoad,
    PhasedOrdersMove,
    PhasedOrdersRangedAttack,
    PhasedOrdersRepair,
    PhasedOrdersResolve,
    PhasedOrdersSubmit,
    PhasedOrdersUnit,
    PhasedOrdersUnload,
    PhasedOrdersUseAbility,
)


def candidates(board: Board, player: str) -> Iterator[PhasedOrdersAnyAction]:
    if player not in board.players:
        return
    for order in unit_orders(board, player):
        yield PhasedOrdersSubmit(type="submit", player=player, orders=[order])
    for order in commissions(board, player):
        yield PhasedOrdersSubmit(type="submit", player=player, orders=[order])
    yield PhasedOrdersResolve(type="resolve")


def unit_orders(board: Board, player: str) -> Iterator[PhasedOrdersAnyOrder]:
    for unit in board.state.units:
        if unit.owner != player:
            continue
        base = {"player": player, "unit": unit.id}
        yield PhasedOrdersHold(order="hold", **base)
        yield PhasedOrdersDisband(order="disband", **base)
        for path in paths(board, unit):
            yield PhasedOrdersMove(order="move", path=[Axial.of(h) for h in path], **base)
        yield from _strikes(board, unit)
        for ability in unit.abilities:
            yield PhasedOrdersUseAbility(order="ability", ability=ability, **base)
        yield from _caravan_orders(board, unit)
        for other in board.players:
            if other != player:
                yield PhasedOrdersChangeSides(order="change_sides", to=other, **base)


def paths(board: Board, unit: PhasedOrdersUnit) -> Iterator[list[Hex]]:
    """One shortest path over the map to every hex within the unit's move."""
    start = unit.hex.key
    parent: dict[Hex, Hex] = {start: start}
    depth = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if depth[h] == unit.move:
            continue
        for n in neighbours(h):
            if n in parent or n not in board.hexes:
                continue
            parent[n] = h
            depth[n] = depth[h] + 1
            queue.append(n)
            yield path_back(parent, start, n)


def _strikes(board: Board, unit: PhasedOrdersUnit) -> Iterator[PhasedOrdersAnyOrder]:
    base = {"player": unit.owner, "unit": unit.id}
    for target in board.state.units:
        d = distance(unit.hex.key, target.hex.key)
        if unit.archer and target.id != unit.id and d <= unit.range:
            yield PhasedOrdersRangedAttack(order="ranged_attack", target=target.id, **base)
        for spell_id in unit.spells:
            if d <= board.spells[spell_id].range:
                yield PhasedOrdersCast(order="cast", spell=spell_id, target=target.id, **base)


def _caravan_orders(board: Board, unit: PhasedOrdersUnit) -> Iterator[PhasedOrdersAnyOrder]:
    caravan = unit.caravan
    if caravan is None:
        return
    base = {"player": unit.owner, "unit": unit.id}
    held = board.stronghold_at.get(unit.hex.key)
    if held is not None:
        stored = board.strongholds[held].resources
        if stored:
            yield PhasedOrdersLoad(order="load", amount=min(stored, 10_000), **base)
        if caravan.resources:
            yield PhasedOrdersUnload(order="unload", amount=caravan.resources, **base)
    yield PhasedOrdersRepair(order="repair", **base)


def commissions(board: Board, player: str) -> Iterator[PhasedOrdersCommission]:
    for stronghold in board.state.strongholds:
        if stronghold.owner != player:
            continue
        for kind in board.state.unit_types:
            name = f"{stronghold.id}-{kind.id}"[:60]
            new, n = name, 1
            while new in board.units:
                n += 1
                new = f"{name}-{n}"
            yield PhasedOrdersCommission(order="commission", player=player,
                                         stronghold=stronghold.id, unit_type=kind.id,
                                         new_unit=new)

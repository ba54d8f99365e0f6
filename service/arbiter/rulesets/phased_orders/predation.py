"""Phase 10b - Predation Movement: "If Bandits are within movement range of a caravan, or
uncontrolled Undead in movement range of any non-Undead, they will move to attack it."
(predation.1)

Reading: after the players' movement, each bandit and each uncontrolled undead, in the
order the state lists them, looks for its prey - a caravan of any player for a bandit,
any unit that is not undead for an undead - within its move in steps over the map, and
moves onto the nearest prey's hex (the first found searching outwards, neighbours in the
order E, NE, NW, W, SW, SE), where melee follows in phase 12. It passes through hexes
held by its own kind, not through a hex holding another unit it is at war with (a ground
unit would halt there; a flying one is stopped by enemy flyers and archers). One already
sharing a hex with prey stays to fight it. Events are labelled phase 10, subphase 10b.
"""

from __future__ import annotations

from collections import deque

from arbiter.engine.hexgrid import Hex, as_dict, neighbours

from .catalogue import PREDATION
from .models import BANDITS, UNDEAD
from .world import Piece, World


def phase_predation(world: World) -> None:
    world.trace.enter(10, PREDATION)
    for hunter in list(world.pieces.values()):
        if hunter.owner not in (BANDITS, UNDEAD):
            continue
        hunt = _hunt(world, hunter)
        if hunt is None:
            continue
        route, target = hunt
        for h in route:
            frm = hunter.hex
            world.place(hunter, h)
            hunter.route.append(h)
            world.trace.event("predator_moved", unit=hunter.id, to=as_dict(h), target=target,
                              **{"from": as_dict(frm)})


def is_prey(hunter: Piece, piece: Piece) -> bool:
    if piece.owner == hunter.owner:
        return False
    if hunter.owner == BANDITS:
        return piece.caravan
    return not piece.undead


def _blocks(world: World, hunter: Piece, h: Hex) -> bool:
    """A hex the hunter cannot move on through."""
    for o in world.occupants(h):
        if world.hostile(hunter.owner, o.owner) and (
                not hunter.flying or o.flying or o.archer):
            return True
    return False


def _hunt(world: World, hunter: Piece) -> tuple[list[Hex], str] | None:
    """The route to the nearest prey within the hunter's move, and the prey."""
    start = hunter.hex
    if any(is_prey(hunter, o) for o in world.occupants(start)):
        return None
    parent: dict[Hex, Hex] = {start: start}
    depth = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in neighbours(h):
            if n in parent or not world.on_map(n):
                continue
            parent[n] = h
            depth[n] = depth[h] + 1
            prey = [o for o in world.occupants(n) if is_prey(hunter, o)]
            if prey:
                return _route(parent, start, n), prey[0].id
            if depth[n] < hunter.spec.move and not _blocks(world, hunter, n):
                queue.append(n)
    return None


def _route(parent: dict[Hex, Hex], start: Hex, end: Hex) -> list[Hex]:
    out = []
    while end != start:
        out.append(end)
        end = parent[end]
    out.reverse()
    return out

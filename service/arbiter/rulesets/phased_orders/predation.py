"""Phase 10b - Predation Movement: "If Bandits are within movement range of a caravan, or
uncontrolled Undead in movement range of any non-Undead, they will move to attack it."
(predation.1)

Reading: after the players' movement, each bandit and each uncontrolled undead, in the
order the state lists them, looks for its prey - a caravan of any player for a bandit,
any unit that is not undead for an undead - within its move in steps over the map, and
moves onto the nearest prey's hex (the first found searching outwards, neighbours in the
order E, NE, NW, W, SW, SE), where melee follows in phase 12. A predator with move 0 has
no movement range and never moves. One already sharing a hex with prey stays to fight it.

Its range is counted along routes on which it would reach the prey ("they will move to
attack it"): through hexes held by its own kind, never through a hex where the rules of
movement would halt it for certain - for a ground predator a hex holding a unit it is at
war with ("A ground unit cannot*, however, move past a space occupied by an enemy and
will instead halt it's movement there"), for a flying one a hex holding an enemy flying
unit (movement.5). A flying predator flies over ground units, archers included: "Archers
can be flown over, but will be given the option to attack (and thus halt the flying
unit)" - each archer on a hex it flies over gets the decision
``archer:<archer>:<flyer>`` as for a player's flyer (its player's; the game master's for
an archer of bandits or undead), and one that attacks halts it on that hex (melee in
phase 12). Events are labelled phase 10, subphase 10b.
"""

from __future__ import annotations

from collections import deque

from arbiter.engine.hexgrid import Hex, as_dict, neighbours

from .catalogue import PREDATION
from .models import BANDITS, UNDEAD
from .movement import archers_flown_over
from .world import Piece, World


def phase_predation(world: World) -> None:
    world.trace.enter(10, PREDATION)
    for hunter in list(world.pieces.values()):
        if hunter.owner not in (BANDITS, UNDEAD):
            continue
        hunt = _hunt(world, hunter)
        if hunt is None:
            continue
        _stalk(world, hunter, *hunt)


def _stalk(world: World, hunter: Piece, route: list[Hex], target: str) -> None:
    """The predator moves along its route, unless an archer it flies over halts it."""
    for step, h in enumerate(route, 1):
        frm = hunter.hex
        world.place(hunter, h)
        hunter.route.append(h)
        world.trace.event("predator_moved", unit=hunter.id, to=as_dict(h), target=target,
                          **{"from": as_dict(frm)})
        if step < len(route) and _shot_at(world, hunter):
            return


def _shot_at(world: World, hunter: Piece) -> bool:
    """movement.6 for a flying predator: the enemy archers on the hex it flies over may
    attack it; True when one does. A missing answer stops the turn here, as a player's
    flyer's stops it after its step."""
    archers = [o for o in world.occupants(hunter.hex)
               if o.archer and world.hostile(hunter.owner, o.owner)]
    if not hunter.flying or not archers:
        return False
    attacker = archers_flown_over(world, hunter, archers)
    world.decisions.stop_if_pending()
    return attacker is not None


def is_prey(hunter: Piece, piece: Piece) -> bool:
    if piece.owner == hunter.owner:
        return False
    if hunter.owner == BANDITS:
        return piece.caravan
    return not piece.undead


def _blocks(world: World, hunter: Piece, h: Hex) -> bool:
    """A hex the hunter cannot move on through: it would halt there for certain (an archer
    only may halt a flyer, so an archer's hex does not block one)."""
    for o in world.occupants(h):
        if world.hostile(hunter.owner, o.owner) and (not hunter.flying or o.flying):
            return True
    return False


def _hunt(world: World, hunter: Piece) -> tuple[list[Hex], str] | None:
    """The route to the nearest prey within the hunter's move, and the prey."""
    start = hunter.hex
    if hunter.spec.move < 1:
        return None  # no movement range: nothing is within it, not even adjacent prey
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

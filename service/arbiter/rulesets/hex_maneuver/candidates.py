"""The pseudo-legal generator of hex_maneuver: the actions worth judging for a player now.
``judge`` filters them (``arbiter.engine.legal``), so what ``legal-actions`` lists is
exactly what ``validate`` accepts.

Stage by stage, and within a stage army by army (the player's undepleted armies, by id),
so that a listing cut by ``limit`` shows every army's whole moves first:

1. the whole army, to each hex the pathfinder (``reach.destinations``, which prices steps
   with the checker's own ``enter``) says it may end on, in its order (cheapest first,
   then map order), along one cheapest path, marching when that path needs the extra
   point (ferried where the path crosses water a vessel serves): a maneuver (the empty
   path stays put), or, to a hex of an unexplored province, an exploration in each
   rotation 0-5 (digital mode only: the stack's top tile; in table mode the tile is what
   the table flips, which no listing can know); then the same maneuvers unpacking the
   arriving packing units (trebuchets), where some arrive;
2. splits: each proper part of the army (its sub-armies in descending order of the
   counts by unit type, unit types sorted; at most ``MAX_PARTS`` of them), to its own
   destinations, as in 1;
3. drops: the whole army's maneuvers of two hexes or more, leaving one proper part of it
   on one hex of the path before the destination (hexes in path order, then parts);
4. pick-ups: the whole army's maneuvers from or through the hex of another undepleted
   army of the player, taking a part of that army with it (all of it first).

Not listed, though legal: other paths to the same hex, marching where the path does not
need it, several drops or pick-ups in one maneuver, drops or pick-ups by a split, and
explorations in table mode. The list is combinatorial: ``legal-actions`` bounds it by the
request's ``limit`` and by the engine's count of judgements (``first_legal``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from arbiter.engine.hexgrid import Axial, Hex

from .board import Board
from .maneuver import Units, packers
from .models import (
    HexManeuverAnyAction,
    HexManeuverArmy,
    HexManeuverDrop,
    HexManeuverExplore,
    HexManeuverManeuver,
    HexManeuverPickup,
)
from .reach import Destination, destinations

# The parts of one army proposed at most (splits, drops and pick-ups each): an army of
# many unit types and counts has more parts than any listing could judge.
MAX_PARTS = 512
ROTATIONS = range(6)


def candidates(board: Board, player: str) -> Iterator[HexManeuverAnyAction]:
    if player not in board.players:
        return
    # Stage by stage across the armies, so a listing cut by ``limit`` still shows what
    # every army can do whole before any army's splits, drops and pick-ups.
    armies = [(army, whole) for army in sorted(board.armies.values(), key=lambda a: a.id)
              if army.owner == player and army.depletion == 0
              and (whole := {u: c for u, c in sorted(army.units.items()) if c > 0})]
    for army, whole in armies:
        yield from _column(board, army, whole, None)
    for army, whole in armies:
        for part in parts(whole):
            yield from _column(board, army, whole, part)
    for army, whole in armies:
        yield from _drops(board, army, whole)
    for army, _whole in armies:
        yield from _pickups(board, army)


def parts(units: Units) -> Iterator[Units]:
    """The proper, non-empty parts of ``units``: descending counts by unit type (types
    sorted), at most ``MAX_PARTS``."""
    kinds = sorted(u for u, c in units.items() if c > 0)
    counts = itertools.product(*(range(units[u], -1, -1) for u in kinds))
    proper = (dict(zip(kinds, n, strict=True)) for n in counts)
    found = ({u: c for u, c in part.items() if c > 0} for part in proper)
    yield from itertools.islice((p for p in found if p and p != units), MAX_PARTS)


def _path(d: Destination) -> list[Axial]:
    return [Axial.of(h) for h in d.path]


def _column(board: Board, army: HexManeuverArmy, whole: Units, part: Units | None
            ) -> Iterator[HexManeuverAnyAction]:
    """The maneuvers and explorations of ``part`` of the army (the whole when None), then
    the same maneuvers unpacking its packing units."""
    units = whole if part is None else part
    _points, found = destinations(board, army.owner, army.id, part, True)
    base = {"player": army.owner, "army": army.id, "units": part}
    digital = bool(board.state.tiles)
    for d in found:
        if not d.explore:
            yield HexManeuverManeuver(type="maneuver", path=_path(d), march=d.march, **base)
        elif digital:
            for rotation in ROTATIONS:
                yield HexManeuverExplore(type="explore", path=_path(d), march=d.march,
                                         rotation=rotation, **base)
    if packers(board, units) == 0:
        return
    for d in found:
        if not d.explore:
            yield HexManeuverManeuver(type="maneuver", path=_path(d), march=d.march,
                                      unpack=True, **base)


def _drops(board: Board, army: HexManeuverArmy, whole: Units) -> Iterator[HexManeuverManeuver]:
    _points, found = destinations(board, army.owner, army.id, None, True)
    dropped = list(parts(whole))
    for d in found:
        if d.explore or len(d.path) < 2:
            continue
        for h in d.path[:-1]:
            for part in dropped:
                yield HexManeuverManeuver(
                    type="maneuver", player=army.owner, army=army.id, path=_path(d),
                    march=d.march, drops=[HexManeuverDrop(hex=Axial.of(h), units=part)])


def _pickups(board: Board, army: HexManeuverArmy) -> Iterator[HexManeuverManeuver]:
    others: dict[Hex, list[HexManeuverArmy]] = {}
    for other in sorted(board.armies.values(), key=lambda a: a.id):
        if other.owner == army.owner and other.id != army.id and other.depletion == 0:
            others.setdefault(other.hex.key, []).append(other)
    if not others:
        return
    _points, found = destinations(board, army.owner, army.id, None, True)
    for d in found:
        if d.explore or not d.path:
            continue
        for h in [army.hex.key, *d.path]:
            for other in others.get(h, ()):
                units = {u: c for u, c in sorted(other.units.items()) if c > 0}
                if not units:
                    continue
                for part in itertools.chain([units], parts(units)):
                    yield HexManeuverManeuver(
                        type="maneuver", player=army.owner, army=army.id, path=_path(d),
                        march=d.march,
                        pickups=[HexManeuverPickup(army=other.id, units=part)])

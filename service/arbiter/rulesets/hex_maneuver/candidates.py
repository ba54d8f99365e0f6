"""The pseudo-legal generator of hex_maneuver: the actions worth judging for a player now.
``judge`` filters them (``arbiter.engine.judging``), so what ``legal-actions`` lists is
exactly what ``validate`` accepts.

Whole-army maneuvers only: for each undepleted army of the player, by army id, a maneuver
to each hex the pathfinder (``reach.destinations``, which prices steps with the checker's
own ``enter``) says it may end on, in its order (cheapest first, then map order), along
one cheapest path, marching when that path needs the extra point. Destinations in an
unexplored province are explorations, which need a tile and are not proposed; nor are
splits, drops and pick-ups, which would multiply the list without bound.
"""

from __future__ import annotations

from collections.abc import Iterator

from arbiter.engine.hexgrid import Axial

from .board import Board
from .models import HexManeuverManeuver
from .reach import destinations


def candidates(board: Board, player: str) -> Iterator[HexManeuverManeuver]:
    if player not in board.players:
        return
    for army in sorted(board.armies.values(), key=lambda a: a.id):
        if army.owner != player or army.depletion > 0:
            continue
        _points, found = destinations(board, player, army.id, None, True)
        for d in found:
            if d.explore:
                continue
            yield HexManeuverManeuver(type="maneuver", player=player, army=army.id,
                                      path=[Axial.of(h) for h in d.path], march=d.march)

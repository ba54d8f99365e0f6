"""Where a player's tokens and ships can go from the state as it stands: each area's
unmoved tokens and the land areas they can step to (step.1, out_of_play.2), and the areas
a ship reaches within its 4 water steps (voyage.1, voyage.2), with where it may end its
voyage and land tokens (voyage.5, out_of_play.1). Shared by the ``reachable`` query and the
pseudo-legal generator."""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import Field

from arbiter.engine.paths import reachable
from arbiter.engine.wire import Frozen

from .board import Board
from .catalogue import VOYAGE_AREAS


class AreaMovementLandReach(Frozen):
    area: str
    unmoved: int = Field(description="The player's tokens here that have not moved this turn.")
    to: list[str] = Field(description="The areas adjacent by land they may step to.")


class AreaMovementWaterReach(Frozen):
    area: str
    steps: int = Field(description="Areas moved by water to get here.")
    path: list[str] = Field(description="One shortest way there, the start excluded.")
    can_end: bool = Field(description="The voyage may end here (not out of play).")
    can_disembark: bool = Field(description="Tokens may land here (land in play).")


def unmoved(board: Board, player: str) -> dict[str, int]:
    p = board.players[player]
    return {a: n - p.moved_by_land.get(a, 0) - p.moved_by_ship.get(a, 0)
            for a, n in p.tokens.items()}


def land_reach(board: Board, player: str) -> list[AreaMovementLandReach]:
    return [AreaMovementLandReach(area=a, unmoved=n,
                                  to=[b for b in sorted(board.land[a]) if board.in_play(b)]
                                  if n else [])
            for a, n in unmoved(board, player).items()]


def water_reach(board: Board, start: str) -> list[AreaMovementWaterReach]:
    """Every area within ``VOYAGE_AREAS`` water steps of ``start``, nearest first."""
    open_sea = board.state.options.open_sea_travel

    def steps(area: str) -> Iterator[tuple[str, int]]:
        for nxt in sorted(board.water.get(area, frozenset())):
            if open_sea or not board.open_sea(nxt):
                yield nxt, 1

    found = reachable(start, VOYAGE_AREAS, steps, max_step_cost=1)
    out = []
    for area, cost in sorted(found.cost.items(), key=lambda kv: (kv[1], kv[0])):
        if area == start:
            continue
        out.append(AreaMovementWaterReach(
            area=area, steps=cost, path=found.path_to(area),
            can_end=not (board.is_land(area) and not board.in_play(area)),
            can_disembark=board.in_play(area)))
    return out

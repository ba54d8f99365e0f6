"""The pseudo-legal generator of region_conquest: the actions worth judging for a player
now. ``judge`` filters them (``arbiter.engine.legal``), so what ``legal-actions``
lists is exactly what ``validate`` accepts.

In the documented order: redeploy and end_turn, then a conquest of each region in map
order, then a final conquest of each. A redeployment is proposed in its one canonical
form: no move, the player's own hand left as it is, and each defender's kept tokens all
put back on the first region (in map order) their race still holds; a final conquest
names no die when the state's seed rolls it, and a die of 0 when the table reports it
(the die decides only whether it succeeds, never whether it is legal).
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board
from .models import (
    RegionConquestAnyAction,
    RegionConquestConquer,
    RegionConquestEndTurn,
    RegionConquestFinalConquest,
    RegionConquestPlacement,
    RegionConquestRedeploy,
)


def candidates(board: Board, player: str) -> Iterator[RegionConquestAnyAction]:
    if player not in board.players:
        return
    yield redeployment(board, player)
    yield RegionConquestEndTurn(type="end_turn", player=player)
    regions = [r.id for r in board.state.regions]
    for region in regions:
        yield RegionConquestConquer(type="conquer", player=player, region=region)
    die = None if board.state.rng is not None else 0
    for region in regions:
        yield RegionConquestFinalConquest(type="final_conquest", player=player, region=region,
                                          die=die)


def redeployment(board: Board, player: str) -> RegionConquestRedeploy:
    """The canonical redeployment: every defender's kept tokens back on their first region."""
    order = {r.id: i for i, r in enumerate(board.state.regions)}
    placements = [
        RegionConquestPlacement(player=p.id, region=min(p.active, key=order.__getitem__),
                                tokens=p.awaiting_redeployment)
        for p in board.state.players
        if p.id != player and p.awaiting_redeployment and p.active]
    return RegionConquestRedeploy(type="redeploy", player=player, placements=placements)

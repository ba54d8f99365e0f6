"""The pseudo-legal generator of area_movement: the single steps worth judging for a player
now, each as a plan of one step. ``judge`` filters them (``arbiter.engine.legal``),
so what ``legal-actions`` lists is exactly what ``validate`` accepts.

In this order: the ``end_movement`` action; then plans of one step: end_movement; each
maintenance (treasury, then a token from each area the
player holds); each build in each coastal area he holds (the treasury way, the treasury
and token way, then the tokens way with 2 tokens from the ship's area or 1 from it and 1
from each other area); each ship destroyed; each land step of every count from 1 to all the
unmoved tokens; each voyage along one shortest water path to each area in reach, empty and
then with 1 up to the capacity of the tokens in the ship's area embarking at the start and
landing at the end. Voyages that drop tokens midway are legal but not listed: there are
too many to list.
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board
from .models import (
    AreaMovementAnyAction,
    AreaMovementAnyStep,
    AreaMovementBuildShip,
    AreaMovementDestroyShip,
    AreaMovementEndMovement,
    AreaMovementEndStep,
    AreaMovementMaintainShip,
    AreaMovementMoveTokens,
    AreaMovementPlan,
    AreaMovementSail,
    AreaMovementStop,
    AreaMovementTokenSource,
)
from .reach import unmoved, water_reach


def new_ship_id(board: Board) -> str:
    """The id a ship built now gets: the first ``ship-<n>`` no ship has."""
    n = 1
    while f"ship-{n}" in board.ships:
        n += 1
    return f"ship-{n}"


def _maintenances(board: Board, player: str) -> Iterator[AreaMovementAnyStep]:
    tokens = board.players[player].tokens
    for ship in board.state.ships:
        if ship.owner != player or ship.built_this_turn or ship.maintained_this_turn:
            continue
        yield AreaMovementMaintainShip(type="maintain_ship", ship=ship.id, pay="treasury")
        for area in tokens:
            yield AreaMovementMaintainShip(
                type="maintain_ship", ship=ship.id, pay="token",
                tokens=[AreaMovementTokenSource(area=area, count=1)])


def _builds(board: Board, player: str) -> Iterator[AreaMovementAnyStep]:
    tokens = board.players[player].tokens
    ship = new_ship_id(board)
    for area in tokens:
        if not board.areas[area].coastal:
            continue
        yield AreaMovementBuildShip(type="build_ship", ship=ship, area=area, pay="treasury")
        yield AreaMovementBuildShip(type="build_ship", ship=ship, area=area,
                                    pay="treasury_and_token")
        sources = [[AreaMovementTokenSource(area=area, count=2)]] if tokens[area] >= 2 else []
        sources += [[AreaMovementTokenSource(area=area, count=1),
                     AreaMovementTokenSource(area=other, count=1)]
                    for other in tokens if other != area]
        for named in sources:
            yield AreaMovementBuildShip(type="build_ship", ship=ship, area=area, pay="tokens",
                                        tokens=named)


def _moves(board: Board, player: str) -> Iterator[AreaMovementAnyStep]:
    for area, n in unmoved(board, player).items():
        for target in sorted(board.land[area]):
            for count in range(1, n + 1):
                yield AreaMovementMoveTokens(type="move_tokens", from_area=area, to_area=target,
                                             count=count)


def _voyages(board: Board, player: str) -> Iterator[AreaMovementAnyStep]:
    free = unmoved(board, player)
    capacity = board.state.options.ship_capacity
    for ship in board.state.ships:
        if ship.owner != player or ship.sailed_this_turn:
            continue
        aboard = min(capacity, free.get(ship.area, 0))
        for reached in water_reach(board, ship.area):
            path = [AreaMovementStop(area=a) for a in reached.path]
            yield AreaMovementSail(type="sail", ship=ship.id, path=path)
            if not reached.can_disembark:
                continue
            for count in range(1, aboard + 1):
                yield AreaMovementSail(type="sail", ship=ship.id, embark=count, path=path)


def candidates(board: Board, player: str) -> Iterator[AreaMovementAnyAction]:
    if player not in board.players:
        return
    # The declaration on its own, and the same step as a plan: each action type is listed.
    yield AreaMovementEndMovement(type="end_movement", player=player)
    steps: list[Iterator[AreaMovementAnyStep]] = [
        iter([AreaMovementEndStep(type="end_movement")]),
        _maintenances(board, player), _builds(board, player),
        (AreaMovementDestroyShip(type="destroy_ship", ship=s.id) for s in board.state.ships
         if s.owner == player),
        _moves(board, player), _voyages(board, player)]
    for generated in steps:
        for step in generated:
            yield AreaMovementPlan(type="movement", player=player, steps=[step])

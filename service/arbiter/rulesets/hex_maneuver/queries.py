"""The derived questions of hex_maneuver: ``reachable`` (where an army or some of its units
can go, at what cost, by which path, and what they would have in range there) and
``legal-actions`` (every maneuver destination of every undepleted army of a player)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from arbiter.engine.errors import Problems
from arbiter.engine.hexgrid import Axial, as_dict

from .board import Board, compile_board
from .models import HexManeuverManeuver, HexManeuverState, Id, UnitCounts
from .reach import RangeFinder, destinations


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class HexManeuverReachableRequest(_Frozen):
    state: HexManeuverState
    army: Id
    units: UnitCounts | None = Field(default=None, max_length=32,
                                     description="A subset of the army's units; all when "
                                     "omitted.")
    march: bool = Field(default=True, description="Include hexes that need a march (when "
                        "the game's options allow marching).")


class HexManeuverTarget(_Frozen):
    kind: str = Field(description="army or structure")
    id: str
    owner: str
    hex: Axial
    distance: int
    units: list[str] = Field(description="The moving unit types whose range covers it.")


class HexManeuverDestination(_Frozen):
    hex: Axial
    cost: int
    path: list[Axial] = Field(description="One cheapest path, start hex excluded.")
    march: bool = Field(description="Needs the march's extra movement point.")
    ferry: bool = Field(description="The path uses ferrying.")
    explore: bool = Field(description="The hex lies in an unexplored province: ending there "
                          "is an exploration.")
    in_range: list[HexManeuverTarget]


class HexManeuverReachableResponse(_Frozen):
    army: str
    movement_points: int
    depleted: bool = Field(description="A depleted army cannot maneuver this round: it has "
                           "no destinations.")
    destinations: list[HexManeuverDestination]


class HexManeuverLegalActionsRequest(_Frozen):
    state: HexManeuverState
    player: Id
    limit: Annotated[int, Field(ge=1, le=10_000)] = 1000


class HexManeuverLegalActionsResponse(_Frozen):
    actions: list[HexManeuverManeuver]
    truncated: bool
    count: int = Field(description="Actions listed (at most ``limit``).")


def _check_army(board: Board, army: str, units: dict[str, int] | None) -> None:
    problems = Problems()
    source = board.armies.get(army)
    if source is None:
        problems.add("/army", f"unknown army {army}")
    elif units is not None:
        for unit, count in units.items():
            if count > source.units.get(unit, 0):
                problems.add(f"/units/{unit}", f"{count} {unit} asked for, army {army} has "
                             f"{source.units.get(unit, 0)}")
        if sum(units.values()) == 0:
            problems.add("/units", "at least one unit must move")
    problems.raise_if_any()


def reachable(request: HexManeuverReachableRequest) -> HexManeuverReachableResponse:
    board = compile_board(request.state)
    _check_army(board, request.army, request.units)
    army = board.armies[request.army]
    units = request.units if request.units is not None else dict(army.units)
    units = {u: c for u, c in units.items() if c > 0}
    points, found = destinations(board, army.owner, army.id, units, request.march)
    if army.depletion > 0:  # maneuver.1: undepleted armies only
        found = []
    targets = RangeFinder(board, army.owner, units)
    # Plain data validated once in pydantic-core: far cheaper than a Python-level
    # constructor call per hex of every path.
    return HexManeuverReachableResponse.model_validate({
        "army": army.id,
        "movement_points": points,
        "depleted": army.depletion > 0,
        "destinations": [
            {"hex": as_dict(d.hex), "cost": d.cost, "path": [as_dict(h) for h in d.path],
             "march": d.march, "ferry": d.ferry, "explore": d.explore,
             "in_range": [{"kind": t.kind, "id": t.id, "owner": t.owner,
                           "hex": as_dict(t.hex), "distance": t.distance, "units": t.units}
                          for t in targets.at(d.hex)]}
            for d in found]})


def legal_actions(request: HexManeuverLegalActionsRequest) -> HexManeuverLegalActionsResponse:
    board = compile_board(request.state)
    if request.player not in board.players:
        problems = Problems()
        problems.add("/player", f"unknown player {request.player}")
        problems.raise_if_any()
    actions: list[HexManeuverManeuver] = []
    truncated = False
    for army in sorted(board.armies.values(), key=lambda a: a.id):
        if army.owner != request.player or army.depletion > 0:
            continue
        _points, found = destinations(board, request.player, army.id, None, True)
        for d in found:
            if d.explore:
                continue
            if len(actions) >= request.limit:
                truncated = True
                break
            actions.append(HexManeuverManeuver(
                type="maneuver", player=request.player, army=army.id,
                path=[Axial.of(h) for h in d.path], march=d.march))
        if truncated:
            break
    return HexManeuverLegalActionsResponse(actions=actions, truncated=truncated,
                                           count=len(actions))

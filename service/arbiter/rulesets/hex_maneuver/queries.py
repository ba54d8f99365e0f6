"""The derived questions a frontend asks of a state, served at
``POST /v1/rulesets/hex_maneuver/<name>``:

- ``reachable``: where an army or some of its units can go, at what cost, by which path,
  and what they would have in range there (a trebuchet that moves ends packed, with
  nothing in range; no end that strands land units at sea is listed);
- ``legal-actions``: a player's legal maneuvers and explorations, each exactly as
  ``validate`` takes it, bounded by ``limit``.

``reachable`` searches with the path checker's own ``enter`` (``reach.py``);
``legal-actions`` lists the generator's actions (``candidates.py``) that ``judge`` finds
legal, so an action listed is one ``validate`` accepts.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from arbiter.engine.errors import Problems
from arbiter.engine.hexgrid import Axial, as_dict
from arbiter.engine.index import check_ref
from arbiter.engine.judging import Bounded, first_legal
from arbiter.engine.wire import Frozen, Id

from .board import Board, compile_board
from .candidates import candidates
from .judge import judge
from .models import HexManeuverAnyAction, HexManeuverState, UnitCounts
from .reach import attackers, destinations, range_finder


class HexManeuverReachableRequest(Frozen):
    state: HexManeuverState
    army: Id
    units: UnitCounts | None = Field(default=None, max_length=32,
                                     description="A subset of the army's units; all when "
                                     "omitted.")
    march: bool = Field(default=True, description="Include hexes that need a march (when "
                        "the game's options allow marching).")


class HexManeuverTarget(Frozen):
    kind: str = Field(description="army or structure")
    id: str
    owner: str
    hex: Axial
    distance: int
    units: list[str] = Field(description="The moving unit types whose range covers it.")


class HexManeuverDestination(Frozen):
    hex: Axial
    cost: int
    path: list[Axial] = Field(description="One cheapest path, start hex excluded.")
    march: bool = Field(description="Needs the march's extra movement point.")
    ferry: bool = Field(description="The path uses ferrying.")
    explore: bool = Field(description="The hex lies in an unexplored province: ending there "
                          "is an exploration.")
    in_range: list[HexManeuverTarget] = Field(
        description="Enemy objects the column would have in range there. Packing units "
        "(trebuchets) attack only unpacked: one that moves ends packed (a maneuver may ask "
        "to unpack it, for 1 MP), so it counts only on the army's own hex, as it stands.")


class HexManeuverReachableResponse(Frozen):
    army: str
    movement_points: int
    depleted: bool = Field(description="A depleted army cannot maneuver this round: it has "
                           "no destinations.")
    destinations: list[HexManeuverDestination]


class HexManeuverLegalActionsRequest(Frozen):
    state: HexManeuverState
    player: Id
    limit: Annotated[int, Field(ge=1, le=10_000)] = 1000


class HexManeuverLegalActionsResponse(Frozen):
    player: str
    actions: list[Annotated[HexManeuverAnyAction, Field(discriminator="type")]] = Field(
        description="Each legal action exactly as validate takes it (send one back "
        "unchanged as the request's action), in the order of candidates.py: army by army, "
        "whole-army maneuvers and explorations first, then splits, unpacking, drops and "
        "pick-ups.")
    truncated: bool = Field(description="The listing stopped short: more actions are legal "
                            "than ``limit``, or the generator had more to judge than one "
                            "listing judges.")
    count: int = Field(description="Actions listed (at most ``limit``).")


def _check_army(board: Board, army: str, units: dict[str, int] | None) -> None:
    problems = Problems()
    source = board.armies.get(army)
    if source is None:
        check_ref(army, board.armies, ("army",), "army", problems)
    elif units is not None:
        for unit, count in units.items():
            if count > source.units.get(unit, 0):
                problems.add(f"/units/{unit}", f"{count} {unit} asked for, army {army} has "
                             f"{source.units.get(unit, 0)}")
        if sum(units.values()) == 0:
            problems.add("/units", "at least one unit must move")
    problems.raise_if_any()


def run_reachable(request: HexManeuverReachableRequest) -> HexManeuverReachableResponse:
    board = compile_board(request.state)
    _check_army(board, request.army, request.units)
    army = board.armies[request.army]
    units = request.units if request.units is not None else dict(army.units)
    units = {u: c for u, c in units.items() if c > 0}
    points, found = destinations(board, army.owner, army.id, units, request.march)
    if army.depletion > 0:  # maneuver.1: undepleted armies only
        found = []
    # trebuchet.1: packing units that move end packed; staying, they stand as they stood.
    moved = range_finder(board, army.owner, attackers(board, units, 0))
    stayed = range_finder(board, army.owner, attackers(board, units, army.unpacked))
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
                          for t in (moved if d.path else stayed).at(d.hex)]}
            for d in found]})


def run_legal_actions(request: HexManeuverLegalActionsRequest
                      ) -> HexManeuverLegalActionsResponse:
    board = compile_board(request.state)
    problems = Problems()
    check_ref(request.player, board.players, ("player",), "player", problems)
    problems.raise_if_any()
    found: Bounded[HexManeuverAnyAction] = first_legal(
        judge, board, candidates(board, request.player), request.limit)
    return HexManeuverLegalActionsResponse(player=request.player, actions=found.actions,
                                           truncated=found.truncated, count=len(found.actions))

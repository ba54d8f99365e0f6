"""The derived question a frontend asks of a state beside the engine's ``legal-actions``,
served at ``POST /v1/rulesets/hex_maneuver/reachable``: where an army or some of its units
can go, at what cost, by which path, and what they would have in range there (a trebuchet
that moves ends packed, with nothing in range; no end that strands land units at sea is
listed). It searches with the path checker's own ``enter`` (``reach.py``), so it cannot
disagree with ``validate``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pydantic import Field

from arbiter.engine.bounds import check_answer, checkpoint
from arbiter.engine.errors import Problems
from arbiter.engine.hexgrid import Axial, as_dict
from arbiter.engine.index import check_ref
from arbiter.engine.query import Streamed
from arbiter.engine.wire import Frozen, Id

from .board import Board, compile_board
from .models import HexManeuverState, UnitCounts
from .reach import Destination, attackers, destinations, range_finder

# Bytes of JSON a reachable answer spends, at least, on a destination, a hex of its path
# and a target in range there (what check_answer is given before the answer is built).
DESTINATION_BYTES = 90
HEX_BYTES = 16
TARGET_BYTES = 90


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


def check_army(board: Board, army: str, units: dict[str, int] | None) -> None:
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


def _reachable(request: HexManeuverReachableRequest
               ) -> tuple[dict[str, Any], list[Destination], Callable[[Destination], Any]]:
    """The answer's head (army, movement points, depletion), the destinations found, and
    what makes one destination's plain data (its path, and the enemy objects in range)."""
    board = compile_board(request.state)
    check_army(board, request.army, request.units)
    army = board.armies[request.army]
    units = request.units if request.units is not None else dict(army.units)
    units = {u: c for u, c in units.items() if c > 0}
    points, found = destinations(board, army.owner, army.id, units, request.march)
    if army.depletion > 0:  # maneuver.1: undepleted armies only
        found = []
    # trebuchet.1: packing units that move end packed; staying, they stand as they stood.
    moved = range_finder(board, army.owner, attackers(board, units, 0))
    stayed = range_finder(board, army.owner, attackers(board, units, army.unpacked))

    def destination(d: Destination) -> dict[str, Any]:
        return {"hex": as_dict(d.hex), "cost": d.cost, "path": [as_dict(h) for h in d.path],
                "march": d.march, "ferry": d.ferry, "explore": d.explore,
                "in_range": [{"kind": t.kind, "id": t.id, "owner": t.owner,
                              "hex": as_dict(t.hex), "distance": t.distance,
                              "units": t.units}
                             for t in (moved if d.path else stayed).at(d.hex)]}

    head = {"army": army.id, "movement_points": points, "depleted": army.depletion > 0}
    return head, found, destination


def run_reachable(request: HexManeuverReachableRequest) -> HexManeuverReachableResponse:
    head, found, destination = _reachable(request)
    # Every path and every target in range of each end, counted as the answer is made and
    # refused as soon as it is over the limit, before the rest is built: a map where
    # vessels ferry everywhere can ask for tens of megabytes.
    answers: list[HexManeuverDestination] = []
    predicted = 0
    for d in found:
        checkpoint()
        answer = destination(d)
        predicted += (DESTINATION_BYTES + HEX_BYTES * len(answer["path"])
                      + TARGET_BYTES * len(answer["in_range"]))
        check_answer(predicted, "the reachable answer")
        # Plain data validated in pydantic-core, one destination per call: far cheaper
        # than a Python-level constructor call per hex of every path, and short enough
        # that the event loop answers the probes between two (the whole answer in one
        # call held the GIL for 1.5 s).
        answers.append(HexManeuverDestination.model_validate(answer))
    return HexManeuverReachableResponse.model_construct(**head, destinations=answers)


def stream_reachable(request: HexManeuverReachableRequest) -> Streamed:
    """``run_reachable``'s answer as plain data, each destination made as it is written:
    never validated into models (a 2.7 MB answer took 1.5 s so), and bounded by its exact
    size as it is written."""
    head, found, destination = _reachable(request)

    def destinations() -> Iterator[dict[str, Any]]:
        for d in found:
            checkpoint()
            yield destination(d)

    return Streamed(head, "destinations", destinations(), "the reachable answer")

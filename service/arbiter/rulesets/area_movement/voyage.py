"""A ship's voyage, the ``sail`` step: up to 4 areas by water, each adjacent by water to the
one before (voyage.1), never through open sea unless the options allow it (voyage.2);
tokens embark and disembark at any area of it (voyage.3), at most the ship's capacity
aboard at once (capacity.1), and whoever is still aboard after the last area lands there
(voyage.4). Tokens land only on land (voyage.5); a ship passes through an area out of play
but neither ends its voyage nor lands tokens there (out_of_play.1). The ship must be usable:
built this turn or maintained (maintain.1), and not have sailed already this turn.

Readings: a ship's voyage is one ``sail`` step, and a ship makes one voyage per turn
(voyage.1: "4 areas by water per turn", ``ship_already_sailed``), so tokens never stay
aboard between two steps of a plan ("Tokens cannot stay on ships after movement"). Its
events come in the order things happen: ``tokens_embarked`` in the ship's area, then
``ship_sailed``, then what happens at each area of the path.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.engine.ledger import Record
from arbiter.engine.outcome import Location, Verdict, location

from .catalogue import VOYAGE_AREAS
from .conflicts import enter, leave
from .ledger import Ledger
from .models import AreaMovementSail


@dataclass(slots=True)
class Hold:
    """The tokens aboard during one voyage, and the most there were at once."""

    aboard: int = 0
    most: int = 0
    first_over: Location | None = None
    over_area: str = ""


def _usable(ship: Record, step: AreaMovementSail, i: int, verdict: Verdict) -> None:
    at = location(step=i, region=ship["area"], piece=ship["id"])
    if ship["sailed_this_turn"]:
        verdict.violate("ship_already_sailed", at, ship=ship["id"])
    if not (ship["built_this_turn"] or ship["maintained_this_turn"]):
        verdict.violate("ship_not_maintained", at, ship=ship["id"])
    if len(step.path) > VOYAGE_AREAS:
        verdict.violate("voyage_too_long",
                        location(step=i, region=step.path[VOYAGE_AREAS].area, piece=ship["id"]),
                        ship=ship["id"], areas=len(step.path), limit=VOYAGE_AREAS)


def _embark(ledger: Ledger, ship: Record, area: str, count: int, hold: Hold, at: Location,
            verdict: Verdict) -> None:
    if ledger.shortfall(area, count, "ship", at, verdict):
        return
    verdict.event("tokens_embarked", at, ship=ship["id"], area=area, count=count)
    leave(ledger, area, count, "ship", at, verdict)
    hold.aboard += count
    if hold.aboard > ledger.board.state.options.ship_capacity and hold.first_over is None:
        hold.first_over, hold.over_area = at, area
    hold.most = max(hold.most, hold.aboard)


def _land(ledger: Ledger, ship: Record, area: str, count: int, hold: Hold, at: Location,
          kind: str, verdict: Verdict) -> None:
    """Tokens leave the ship in ``area``: ``kind`` is the event, tokens_disembarked (chosen)
    or tokens_landed (after the last area)."""
    board = ledger.board
    count = min(count, hold.aboard)
    if not board.is_land(area):
        verdict.violate("disembark_at_sea", at, fatal=True, area=area, count=count)
        return
    if not board.in_play(area):
        verdict.violate("disembark_out_of_play", at, fatal=True, area=area, count=count)
        return
    verdict.event(kind, at, ship=ship["id"], area=area, count=count)
    enter(ledger, area, count, "ship", at, verdict)
    hold.aboard -= count


def _course(ledger: Ledger, previous: str, area: str, at: Location, verdict: Verdict
            ) -> None:
    board = ledger.board
    if area not in board.water.get(previous, frozenset()):
        # Advisory mode may carry a ship anywhere a ship can be, never inland.
        inland = board.is_land(area) and not board.areas[area].coastal
        verdict.violate("not_adjacent_by_water", at, fatal=inland, area=area,
                        previous=previous)
    if board.open_sea(area) and not board.state.options.open_sea_travel:
        verdict.violate("open_sea", at, area=area)


def judge_sail(ledger: Ledger, step: AreaMovementSail, i: int, verdict: Verdict) -> None:
    ship = ledger.ships[step.ship]
    start, end = ship["area"], step.path[-1].area
    _usable(ship, step, i, verdict)
    hold = Hold()
    if step.embark:
        _embark(ledger, ship, start, step.embark, hold,
                location(step=i, region=start, piece=ship["id"]), verdict)
    # Events in the order things happen: tokens board, then the ship leaves.
    verdict.event("ship_sailed", location(step=i, region=end, piece=ship["id"]),
                  ship=ship["id"], from_area=start, to_area=end, areas=len(step.path))
    previous = start
    for stop in step.path:
        at = location(step=i, region=stop.area, piece=ship["id"])
        _course(ledger, previous, stop.area, at, verdict)
        if stop.disembark:
            _land(ledger, ship, stop.area, stop.disembark, hold, at, "tokens_disembarked",
                  verdict)
        # Tokens stand only on land in play: at sea or out of play none are there to embark
        # (not_enough_tokens), unless this stop's landing tried to put them there, whose
        # refusal already says what is wrong.
        if stop.embark and (ledger.board.in_play(stop.area) or not stop.disembark):
            _embark(ledger, ship, stop.area, stop.embark, hold, at, verdict)
        previous = stop.area
    at = location(step=i, region=end, piece=ship["id"])
    if ledger.board.is_land(end) and not ledger.board.in_play(end):
        verdict.violate("voyage_ends_out_of_play", at, fatal=True, ship=ship["id"], area=end)
    if hold.aboard:
        _land(ledger, ship, end, hold.aboard, hold, at, "tokens_landed", verdict)
    if hold.first_over is not None:
        verdict.violate("over_capacity", hold.first_over, ship=ship["id"], aboard=hold.most,
                        area=hold.over_area, capacity=ledger.board.state.options.ship_capacity)
    ship["area"] = end
    ship["sailed_this_turn"] = True

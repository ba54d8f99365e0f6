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

from arbiter.engine.outcome import Location, location

from .catalogue import VOYAGE_AREAS
from .conflicts import enter, leave
from .ledger import Finding, Ledger, ShipRecord
from .models import AreaMovementSail


@dataclass(slots=True)
class Hold:
    """The tokens aboard during one voyage, and the most there were at once."""

    aboard: int = 0
    most: int = 0
    first_over: Location | None = None
    over_area: str = ""


def _usable(ship: ShipRecord, step: AreaMovementSail, i: int) -> list[Finding]:
    at = location(step=i, region=ship.area, piece=ship.id)
    found = []
    if ship.sailed:
        found.append(Finding("ship_already_sailed", at, {"ship": ship.id}))
    if not (ship.built or ship.maintained):
        found.append(Finding("ship_not_maintained", at, {"ship": ship.id}))
    if len(step.path) > VOYAGE_AREAS:
        found.append(Finding("voyage_too_long",
                             location(step=i, region=step.path[VOYAGE_AREAS].area, piece=ship.id),
                             {"ship": ship.id, "areas": len(step.path), "limit": VOYAGE_AREAS}))
    return found


def _embark(ledger: Ledger, ship: ShipRecord, area: str, count: int, hold: Hold,
            at: Location) -> list[Finding]:
    found = ledger.shortfall(area, count, "ship", at)
    if any(f.fatal for f in found):
        return found
    ledger.happen("tokens_embarked", at, ship=ship.id, area=area, count=count)
    leave(ledger, area, count, "ship", at)
    hold.aboard += count
    if hold.aboard > ledger.board.state.options.ship_capacity and hold.first_over is None:
        hold.first_over, hold.over_area = at, area
    hold.most = max(hold.most, hold.aboard)
    return found


def _land(ledger: Ledger, ship: ShipRecord, area: str, count: int, hold: Hold, at: Location,
          kind: str) -> list[Finding]:
    """Tokens leave the ship in ``area``: ``kind`` is the event, tokens_disembarked (chosen)
    or tokens_landed (after the last area)."""
    board = ledger.board
    count = min(count, hold.aboard)
    if not board.is_land(area):
        return [Finding("disembark_at_sea", at, {"area": area, "count": count}, fatal=True)]
    if not board.in_play(area):
        return [Finding("disembark_out_of_play", at, {"area": area, "count": count},
                        fatal=True)]
    ledger.happen(kind, at, ship=ship.id, area=area, count=count)
    enter(ledger, area, count, "ship", at)
    hold.aboard -= count
    return []


def _course(ledger: Ledger, ship: ShipRecord, previous: str, area: str, at: Location
            ) -> list[Finding]:
    board = ledger.board
    found = []
    if area not in board.water.get(previous, frozenset()):
        # Advisory mode may carry a ship anywhere a ship can be, never inland.
        inland = board.is_land(area) and not board.areas[area].coastal
        found.append(Finding("not_adjacent_by_water", at, {"area": area, "previous": previous},
                             fatal=inland))
    if board.open_sea(area) and not board.state.options.open_sea_travel:
        found.append(Finding("open_sea", at, {"area": area}))
    return found


def judge_sail(ledger: Ledger, step: AreaMovementSail, i: int) -> list[Finding]:
    ship = ledger.ships[step.ship]
    start, end = ship.area, step.path[-1].area
    found = _usable(ship, step, i)
    hold = Hold()
    if step.embark:
        found += _embark(ledger, ship, start, step.embark, hold,
                         location(step=i, region=start, piece=ship.id))
    # Events in the order things happen: tokens board, then the ship leaves.
    ledger.happen("ship_sailed", location(step=i, region=end, piece=ship.id), ship=ship.id,
                  from_area=start, to_area=end, areas=len(step.path))
    previous = start
    for stop in step.path:
        at = location(step=i, region=stop.area, piece=ship.id)
        found += _course(ledger, ship, previous, stop.area, at)
        if stop.disembark:
            found += _land(ledger, ship, stop.area, stop.disembark, hold, at,
                           "tokens_disembarked")
        # Tokens stand only on land in play: an embark elsewhere can only name the tokens
        # this stop's landing put there (the plan's check sees to it), and the refusal of
        # that landing already says what is wrong.
        if stop.embark and ledger.board.in_play(stop.area):
            found += _embark(ledger, ship, stop.area, stop.embark, hold, at)
        previous = stop.area
    at = location(step=i, region=end, piece=ship.id)
    if ledger.board.is_land(end) and not ledger.board.in_play(end):
        found.append(Finding("voyage_ends_out_of_play", at, {"ship": ship.id, "area": end},
                             fatal=True))
    if hold.aboard:
        found += _land(ledger, ship, end, hold.aboard, hold, at, "tokens_landed")
    if hold.first_over is not None:
        found.append(Finding("over_capacity", hold.first_over, {
            "ship": ship.id, "aboard": hold.most, "area": hold.over_area,
            "capacity": ledger.board.state.options.ship_capacity}))
    ship.area = end
    ship.sailed = True
    return found

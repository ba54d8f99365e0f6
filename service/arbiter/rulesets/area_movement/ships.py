"""Ships that are built, maintained and destroyed, and the end of a player's movement.

A ship is built in a coastal area holding one of the player's tokens, at most 4 per turn,
paid one of the three ways (build.2 to build.6), and may sail in the turn it is built
(build.7). A ship built in an earlier turn is maintained before it sails, once per turn,
with a treasury token or a token destroyed anywhere (maintain.1 to maintain.4). A ship
left unmaintained may be destroyed (to be built again); a ship built or maintained this
turn may not (destroy.1, destroy.2). Declaring the end of the movement destroys every ship
neither built nor maintained this turn and clears the moved marks (end.1, tip.1).
"""

from __future__ import annotations

from collections import Counter

from arbiter.engine.outcome import location

from .catalogue import BUILD_TREASURY, MAINTENANCE_TREASURY, SHIPS_PER_TURN
from .conflicts import destroy
from .ledger import Finding, Ledger, ShipRecord
from .models import AreaMovementBuildShip, AreaMovementDestroyShip, AreaMovementMaintainShip


def _token_payment(ledger: Ledger, step: AreaMovementBuildShip, i: int
                   ) -> tuple[list[Finding], Counter[str]]:
    """The tokens a build destroys, by area, and what is wrong with them."""
    at = location(step=i, region=step.area, piece=step.ship)
    found: list[Finding] = []
    if step.pay == "treasury":
        return found, Counter()
    if step.pay == "treasury_and_token":
        if ledger.holding(step.area).total < 1:
            found.append(Finding("no_population_token", at, {"area": step.area}, fatal=True))
        return found, Counter({step.area: 1})
    named: Counter[str] = Counter()
    for source in step.tokens:
        named[source.area] += source.count
    if sum(named.values()) != 2:
        found.append(Finding("payment_not_two_tokens", at, {"named": sum(named.values())}))
    if step.area not in named:
        found.append(Finding("payment_none_from_ship_area", at, {"area": step.area}))
    for area, count in named.items():
        present = ledger.holding(area).total
        if count > present:
            found.append(Finding("payment_tokens_missing", location(step=i, region=area),
                                 {"area": area, "count": count, "present": present},
                                 fatal=True))
    return found, named


def _treasury_payment(ledger: Ledger, step: AreaMovementBuildShip, i: int) -> list[Finding]:
    need = BUILD_TREASURY[step.pay]
    if ledger.treasury >= need:
        return []
    code = ("treasury_short_for_ship" if step.pay == "treasury"
            else "treasury_short_for_ship_and_token")
    return [Finding(code, location(step=i, region=step.area, piece=step.ship),
                    {"treasury": ledger.treasury}, fatal=True)]


def judge_build(ledger: Ledger, step: AreaMovementBuildShip, i: int) -> list[Finding]:
    board = ledger.board
    area = board.areas[step.area]
    at = location(step=i, region=step.area, piece=step.ship)
    found: list[Finding] = []
    # A ship inland or out of play would make a state no request may carry: fatal.
    if not area.coastal:
        found.append(Finding("not_coastal", at, {"area": step.area}, fatal=True))
    if ledger.holding(step.area).total == 0:
        found.append(Finding("no_token_in_area", at, {"area": step.area},
                             fatal=area.out_of_play))
    if ledger.built >= SHIPS_PER_TURN:
        found.append(Finding("too_many_ships", at, {"built": ledger.built + 1,
                                                    "limit": SHIPS_PER_TURN}))
    found += _treasury_payment(ledger, step, i)
    token_found, tokens = _token_payment(ledger, step, i)
    found += token_found
    if any(f.fatal for f in found):
        return found
    treasury = BUILD_TREASURY[step.pay]
    ledger.treasury -= treasury
    ledger.happen("ship_built", at, player=ledger.player, ship=step.ship, area=step.area,
                  pay=step.pay, treasury=treasury, destroyed=sum(tokens.values()),
                  destroyed_from=dict(tokens))
    for source, count in tokens.items():
        destroy(ledger, source, count, location(step=i, region=source))
    ledger.ships[step.ship] = ShipRecord(step.ship, step.area, built=True, maintained=False,
                                         sailed=False)
    ledger.built += 1
    return found


def judge_maintain(ledger: Ledger, step: AreaMovementMaintainShip, i: int) -> list[Finding]:
    ship = ledger.ships[step.ship]
    at = location(step=i, region=ship.area, piece=ship.id)
    found: list[Finding] = []
    if ship.built:
        found.append(Finding("maintenance_not_due", at, {"ship": ship.id}))
    if ship.maintained:
        found.append(Finding("already_maintained", at, {"ship": ship.id}))
    if step.pay == "treasury":
        if ledger.treasury < MAINTENANCE_TREASURY:
            found.append(Finding("maintenance_treasury_short", at, {"ship": ship.id},
                                 fatal=True))
    else:
        assert step.area is not None  # the plan's check requires it
        if ledger.holding(step.area).total < 1:
            found.append(Finding("maintenance_token_missing", location(step=i, region=step.area),
                                 {"area": step.area, "ship": ship.id}, fatal=True))
    if any(f.fatal for f in found):
        return found
    treasury = MAINTENANCE_TREASURY if step.pay == "treasury" else 0
    destroyed = {step.area: 1} if step.area is not None and step.pay == "token" else {}
    ledger.treasury -= treasury
    ship.maintained = True
    ledger.happen("ship_maintained", at, player=ledger.player, ship=ship.id, pay=step.pay,
                  treasury=treasury, destroyed=len(destroyed), destroyed_from=destroyed)
    for area in destroyed:
        destroy(ledger, area, 1, location(step=i, region=area))
    return found


def judge_destroy(ledger: Ledger, step: AreaMovementDestroyShip, i: int) -> list[Finding]:
    ship = ledger.ships[step.ship]
    at = location(step=i, region=ship.area, piece=ship.id)
    found = []
    if ship.built or ship.maintained:
        # Reading: the only reason to destroy such a ship is to build it again, and a plan
        # sent step by step cannot show a later rebuild, so the destruction itself is refused.
        found.append(Finding("ship_cannot_be_destroyed", at, {
            "ship": ship.id, "why": "built" if ship.built else "maintained"}))
    del ledger.ships[ship.id]
    ledger.happen("ship_destroyed", at, player=ledger.player, ship=ship.id, area=ship.area)
    return found


def judge_end(ledger: Ledger, i: int) -> list[Finding]:
    """Declaring the end has no refusal of its own (plan.2 refuses what comes after)."""
    at = location(step=i)
    ledger.ended = True
    ledger.ended_at = i
    ledger.happen("movement_ended", at, player=ledger.player)
    for ship in list(ledger.ships.values()):
        if not (ship.built or ship.maintained):
            del ledger.ships[ship.id]
            ledger.happen("unmaintained_ship_destroyed", location(step=i, region=ship.area,
                                                                  piece=ship.id),
                          player=ledger.player, ship=ship.id, area=ship.area)
    for holding in ledger.held.values():
        holding.unmoved = holding.total
        holding.by_land = holding.by_ship = 0
    for ship in ledger.ships.values():
        ship.sailed = False
    ledger.happen("moved_marks_cleared", at, player=ledger.player)
    return []

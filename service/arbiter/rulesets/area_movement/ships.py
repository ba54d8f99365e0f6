"""Ships that are built, maintained and destroyed, and the end of a player's movement.

A ship is built in a coastal area holding one of the player's tokens, at most 4 per turn,
paid one of the three ways (build.2 to build.6), and may sail in the turn it is built
(build.7). A ship built in an earlier turn is maintained before it sails, once per turn,
with a treasury token or a token destroyed anywhere (maintain.1 to maintain.4). A ship
left unmaintained may be destroyed (to be built again); a ship built or maintained this
turn may not (destroy.1, destroy.2). Declaring the end of the movement destroys every ship
neither built nor maintained this turn and clears the moved marks (end.1, tip.1).

Each step's violations and events go into its own ``Verdict`` (``plan.walk``); its effect
is written into the ledger unless a violation makes it undefined.
"""

from __future__ import annotations

from collections import Counter

from arbiter.engine.outcome import Verdict, location

from .catalogue import (
    BUILD_TREASURY,
    MAINTENANCE_TOKENS,
    MAINTENANCE_TREASURY,
    SHIPS_PER_TURN,
)
from .conflicts import destroy
from .ledger import Ledger
from .models import AreaMovementBuildShip, AreaMovementDestroyShip, AreaMovementMaintainShip


def _token_payment(ledger: Ledger, step: AreaMovementBuildShip, i: int, verdict: Verdict
                   ) -> Counter[str]:
    """The tokens a build destroys, by area; what is wrong with them goes in ``verdict``."""
    at = location(step=i, region=step.area, piece=step.ship)
    if step.pay == "treasury":
        return Counter()
    if step.pay == "treasury_and_token":
        if ledger.holding(step.area).total < 1:
            verdict.violate("no_population_token", at, fatal=True, area=step.area)
        return Counter({step.area: 1})
    named: Counter[str] = Counter()
    for source in step.tokens:
        named[source.area] += source.count
    if sum(named.values()) != 2:
        verdict.violate("payment_not_two_tokens", at, named=sum(named.values()))
    if step.area not in named:
        verdict.violate("payment_none_from_ship_area", at, area=step.area)
    for area, count in named.items():
        present = ledger.holding(area).total
        if count > present:
            verdict.violate("payment_tokens_missing", location(step=i, region=area),
                            fatal=True, area=area, count=count, present=present)
    return named


def _treasury_payment(ledger: Ledger, step: AreaMovementBuildShip, i: int,
                      verdict: Verdict) -> None:
    need = BUILD_TREASURY[step.pay]
    if ledger.treasury >= need:
        return
    code = ("treasury_short_for_ship" if step.pay == "treasury"
            else "treasury_short_for_ship_and_token")
    verdict.violate(code, location(step=i, region=step.area, piece=step.ship), fatal=True,
                    treasury=ledger.treasury)


def judge_build(ledger: Ledger, step: AreaMovementBuildShip, i: int, verdict: Verdict
                ) -> None:
    board = ledger.board
    area = board.areas[step.area]
    at = location(step=i, region=step.area, piece=step.ship)
    # A ship inland or out of play would make a state no request may carry: fatal.
    if not area.coastal:
        verdict.violate("not_coastal", at, fatal=True, area=step.area)
    if ledger.holding(step.area).total == 0:
        verdict.violate("no_token_in_area", at, fatal=area.out_of_play, area=step.area)
    if ledger.built >= SHIPS_PER_TURN:
        verdict.violate("too_many_ships", at, built=ledger.built + 1, limit=SHIPS_PER_TURN)
    _treasury_payment(ledger, step, i, verdict)
    tokens = _token_payment(ledger, step, i, verdict)
    if not verdict.applicable:
        return
    treasury = BUILD_TREASURY[step.pay]
    ledger.treasury -= treasury
    verdict.event("ship_built", at, player=ledger.player, ship=step.ship, area=step.area,
                  pay=step.pay, treasury=treasury, destroyed=sum(tokens.values()),
                  destroyed_from=dict(tokens))
    for source, count in tokens.items():
        destroy(ledger, source, count, location(step=i, region=source), verdict)
    ledger.build(step.ship, step.area)
    ledger.built += 1


def judge_maintain(ledger: Ledger, step: AreaMovementMaintainShip, i: int,
                   verdict: Verdict) -> None:
    ship = ledger.ships[step.ship]
    at = location(step=i, region=ship["area"], piece=ship["id"])
    if ship["built_this_turn"]:
        verdict.violate("maintenance_not_due", at, ship=ship["id"])
    if ship["maintained_this_turn"]:
        verdict.violate("already_maintained", at, ship=ship["id"])
    destroyed: Counter[str] = Counter()
    if step.pay == "treasury":
        if ledger.treasury < MAINTENANCE_TREASURY:
            verdict.violate("maintenance_treasury_short", at, fatal=True, ship=ship["id"])
    else:
        for source in step.destroys():
            destroyed[source.area] += source.count
        named = sum(destroyed.values())
        if named != MAINTENANCE_TOKENS:
            # As a build naming other than 2 tokens: the effect is well defined (advisory
            # mode destroys what is named).
            verdict.violate("maintenance_not_one_token", at, ship=ship["id"], named=named)
        for area, count in destroyed.items():
            present = ledger.holding(area).total
            if count > present:
                verdict.violate("maintenance_token_missing", location(step=i, region=area),
                                fatal=True, area=area, ship=ship["id"], count=count,
                                present=present)
    if not verdict.applicable:
        return
    treasury = MAINTENANCE_TREASURY if step.pay == "treasury" else 0
    ledger.treasury -= treasury
    ship["maintained_this_turn"] = True
    verdict.event("ship_maintained", at, player=ledger.player, ship=ship["id"], pay=step.pay,
                  treasury=treasury, destroyed=sum(destroyed.values()),
                  destroyed_from=dict(destroyed))
    for area, count in destroyed.items():
        destroy(ledger, area, count, location(step=i, region=area), verdict)


def judge_destroy(ledger: Ledger, step: AreaMovementDestroyShip, i: int,
                  verdict: Verdict) -> None:
    ship = ledger.ships[step.ship]
    at = location(step=i, region=ship["area"], piece=ship["id"])
    if ship["built_this_turn"] or ship["maintained_this_turn"]:
        # Reading: the only reason to destroy such a ship is to build it again, and a plan
        # sent step by step cannot show a later rebuild, so the destruction itself is refused.
        verdict.violate("ship_cannot_be_destroyed", at, ship=ship["id"],
                        why="built" if ship["built_this_turn"] else "maintained")
    ledger.scuttle(ship["id"])
    verdict.event("ship_destroyed", at, player=ledger.player, ship=ship["id"],
                  area=ship["area"])


def judge_end(ledger: Ledger, i: int, verdict: Verdict) -> None:
    """Declaring the end has no refusal of its own (plan.2 refuses what comes after)."""
    at = location(step=i)
    ledger.mover["movement_ended"] = True
    ledger.ended_at = i
    verdict.event("movement_ended", at, player=ledger.player)
    for ship in ledger.own_ships():
        if not (ship["built_this_turn"] or ship["maintained_this_turn"]):
            ledger.scuttle(ship["id"])
            verdict.event("unmaintained_ship_destroyed",
                          location(step=i, region=ship["area"], piece=ship["id"]),
                          player=ledger.player, ship=ship["id"], area=ship["area"])
    ledger.clear_marks()
    for ship in ledger.own_ships():
        ship["sailed_this_turn"] = False
    verdict.event("moved_marks_cleared", at, player=ledger.player)

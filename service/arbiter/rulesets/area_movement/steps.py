"""Token steps by land (step.1): tokens of the player move 1 step to an area adjacent by
land, never into an area out of play (out_of_play.2), and only tokens that have not moved
this turn (once.1), by ship or by land but not both (step.2; ``Ledger.shortfall``)."""

from __future__ import annotations

from arbiter.engine.outcome import location

from .conflicts import enter, leave
from .ledger import Finding, Ledger
from .models import AreaMovementMoveTokens


def judge_move(ledger: Ledger, step: AreaMovementMoveTokens, i: int) -> list[Finding]:
    board = ledger.board
    source, target, count = step.from_area, step.to_area, step.count
    at = location(step=i, region=target)
    found = []
    if target not in board.land[source]:
        found.append(Finding("not_adjacent_by_land", at,
                             {"from_area": source, "to_area": target}))
    if not board.in_play(target):
        # Tokens out of play would make a state no request may carry.
        found.append(Finding("area_out_of_play", at, {"area": target}, fatal=True))
    found += ledger.shortfall(source, count, "land", location(step=i, region=source))
    if any(f.fatal for f in found):
        return found
    ledger.happen("tokens_moved", at, player=ledger.player, count=count, from_area=source,
                  to_area=target)
    leave(ledger, source, count, "land", location(step=i, region=source))
    enter(ledger, target, count, "land", at)
    return found

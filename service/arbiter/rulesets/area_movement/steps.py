"""Token steps by land (step.1): tokens of the player move 1 step to an area adjacent by
land, never into an area out of play (out_of_play.2), and only tokens that have not moved
this turn (once.1), by ship or by land but not both (step.2; ``Ledger.shortfall``)."""

from __future__ import annotations

from arbiter.engine.outcome import Verdict, location

from .conflicts import enter, leave
from .ledger import Ledger
from .models import AreaMovementMoveTokens


def judge_move(ledger: Ledger, step: AreaMovementMoveTokens, i: int, verdict: Verdict
               ) -> None:
    board = ledger.board
    source, target, count = step.from_area, step.to_area, step.count
    at = location(step=i, region=target)
    if target not in board.land[source]:
        verdict.violate("not_adjacent_by_land", at, from_area=source, to_area=target)
    if not board.in_play(target):
        # Tokens out of play would make a state no request may carry.
        verdict.violate("area_out_of_play", at, fatal=True, area=target)
    ledger.shortfall(source, count, "land", location(step=i, region=source), verdict)
    if not verdict.applicable:
        return
    verdict.event("tokens_moved", at, player=ledger.player, count=count, from_area=source,
                  to_area=target)
    leave(ledger, source, count, "land", location(step=i, region=source), verdict)
    enter(ledger, target, count, "land", at, verdict)

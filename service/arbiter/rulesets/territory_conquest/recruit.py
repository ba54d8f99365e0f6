"""Recruit armies: pay 1 soldier token per army, take that many pawns from the reserve and
place them in the castle territory; impossible when every pawn is already on the board."""

from __future__ import annotations

from arbiter.engine.errors import Problems
from arbiter.engine.outcome import Verdict, location

from .board import Board
from .ledger import Ledger
from .models import TerritoryConquestRecruit


def recruit_problems(act: TerritoryConquestRecruit) -> Problems:
    problems = Problems()
    if act.count < 1:
        problems.add("/action/count", "recruit at least one army")
    return problems


def judge_recruit(board: Board, act: TerritoryConquestRecruit, verdict: Verdict) -> None:
    player = board.players[act.player]
    reserve = board.reserve(act.player)
    at = location(region=player.castle)
    # Taking pawns that are not in the reserve, or paying tokens one does not have, has
    # no defined result: these violations are fatal even in advisory mode.
    if reserve == 0:
        verdict.violate("reserve_empty", at, fatal=True, player=act.player)
    elif act.count > reserve:
        verdict.violate("recruit_exceeds_reserve", at, fatal=True, player=act.player,
                        count=act.count, reserve=reserve)
    if act.count > player.soldier_tokens:
        verdict.violate("recruit_short_of_soldier_tokens", at, fatal=True, player=act.player,
                        count=act.count, soldier_tokens=player.soldier_tokens)


def apply_recruit(board: Board, ledger: Ledger, act: TerritoryConquestRecruit,
                  verdict: Verdict) -> None:
    player, castle = ledger.players[act.player], board.castle[act.player]
    player["soldier_tokens"] -= act.count
    player["reserve"] -= act.count
    ledger.put(act.player, castle, act.count)
    verdict.event("armies_recruited", location(region=castle), player=act.player,
                  count=act.count, castle=castle)

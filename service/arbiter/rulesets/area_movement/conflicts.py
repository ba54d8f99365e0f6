"""Conflict situations: when an area is in conflict and why, and the moves that cause or
void one.

An area is in a conflict situation when tokens of two or more parties (players, the
barbarians) stand in it and together exceed its population limit, or when a player's
tokens stand in it beside an enemy city or a pirate city (conflict.1). A player causes a
conflict by entering such an area — stepping in by land or disembarking there; a ship
moving in does not enter (conflict.4). The situation is void again once tokens leave the
area (or a payment destroys them) so that none of this holds any more (conflict.2).
Nothing is resolved here (conflict.3): ``enter``, ``leave`` and ``destroy`` move the tokens
in the ledger and tell what happened (the step's verdict).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from arbiter.engine.outcome import Location, Verdict

from .board import Board
from .ledger import Ledger, Means

CauseKind = Literal["population_limit", "enemy_city", "pirate_city"]


@dataclass(frozen=True, slots=True)
class Cause:
    """One reason an area is in conflict, and the players it concerns."""

    kind: CauseKind
    players: tuple[str, ...]
    limit: int = 0
    tokens: int = 0
    owner: str | None = None

    def as_json(self) -> dict[str, Any]:
        if self.kind == "population_limit":
            return {"cause": self.kind, "limit": self.limit, "tokens": self.tokens,
                    "excess": self.tokens - self.limit}
        if self.kind == "enemy_city":
            return {"cause": self.kind, "owner": self.owner}
        return {"cause": self.kind}

    def words(self) -> str:
        if self.kind == "population_limit":
            return (f"{self.tokens} tokens against a population limit of {self.limit}, "
                    f"{self.tokens - self.limit} too many")
        if self.kind == "enemy_city":
            return f"a city of {self.owner}"
        return "a pirate city"


def causes(board: Board, area: str, tokens: Mapping[str, int]) -> list[Cause]:
    """Why ``area`` is in conflict with these players' tokens in it (none: it is not)."""
    found = board.areas.get(area)
    if found is None:
        return []
    barbarians = board.state.barbarians.get(area, 0)
    out = []
    parties = len(tokens) + (1 if barbarians else 0)
    total = sum(tokens.values()) + barbarians
    if parties >= 2 and total > found.population_limit:
        out.append(Cause("population_limit", tuple(tokens), limit=found.population_limit,
                         tokens=total))
    city = board.cities.get(area)
    if city is not None:
        intruders = tuple(p for p in tokens if p != city.owner)
        if intruders:
            kind: CauseKind = "pirate_city" if city.owner is None else "enemy_city"
            out.append(Cause(kind, intruders, owner=city.owner))
    return out


def enter(ledger: Ledger, area: str, count: int, means: Means, at: Location,
          verdict: Verdict) -> None:
    """The mover's tokens enter ``area`` (by land, or disembarking): a conflict is caused
    when the area is then in conflict for a reason that concerns the mover."""
    ledger.put(area, count, means)
    mine = [c for c in causes(ledger.board, area, ledger.tokens_in(area))
            if ledger.player in c.players]
    if mine:
        verdict.event("conflict_caused", at, player=ledger.player, area=area,
                      causes=[c.as_json() for c in mine],
                      reason="; ".join(c.words() for c in mine))


def leave(ledger: Ledger, area: str, count: int, means: Means, at: Location,
          verdict: Verdict) -> None:
    """The mover's tokens leave ``area`` (by land, or embarking)."""
    before = causes(ledger.board, area, ledger.tokens_in(area))
    ledger.take(area, count, means)
    _voided(ledger, area, before, "moved_out", at, verdict)


def destroy(ledger: Ledger, area: str, count: int, at: Location, verdict: Verdict) -> None:
    """A payment destroys the mover's tokens in ``area``."""
    before = causes(ledger.board, area, ledger.tokens_in(area))
    ledger.destroy(area, count)
    _voided(ledger, area, before, "destroyed", at, verdict)


def _voided(ledger: Ledger, area: str, before: list[Cause], how: str, at: Location,
            verdict: Verdict) -> None:
    if before and not causes(ledger.board, area, ledger.tokens_in(area)):
        verdict.event("conflict_voided", at, player=ledger.player, area=area, how=how,
                      was=[c.as_json() for c in before])


def situations(ledger: Ledger) -> list[tuple[str, list[Cause]]]:
    """Every area in conflict as the ledger leaves the board, in map order."""
    out = []
    for area in ledger.board.areas:
        found = causes(ledger.board, area, ledger.tokens_in(area))
        if found:
            out.append((area, found))
    return out

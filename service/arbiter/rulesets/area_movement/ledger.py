"""The movement in progress: one player's tokens, treasury and ships as the steps of a plan
change them, what each step found wrong (``Finding``) and what happened (``Happening``),
and the writing of the result into a ``Draft`` of the state.

Each area's tokens of the mover are held as three counts: those that have not moved this
turn, those that came by land and those that came by ship (once.1, step.2: the last two
never move again). Tokens leave the unmoved first; a payment destroys tokens that have
moved first, since they can no longer move anyway. Other players' tokens and the
barbarians never change during a plan (barbarian.1).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from arbiter.engine.draft import Draft
from arbiter.engine.outcome import Location

from .board import Board

Means = Literal["land", "ship"]


@dataclass(frozen=True, slots=True)
class Finding:
    """A violation found in a step: its code, message params, where, and whether the step's
    effect is undefined with it (advisory mode then cannot apply the plan)."""

    code: str
    at: Location
    params: dict[str, Any]
    fatal: bool = False


@dataclass(frozen=True, slots=True)
class Happening:
    """An event of the plan, emitted into the verdict when the plan is applied."""

    kind: str
    at: Location
    params: dict[str, Any]


@dataclass(slots=True)
class Holding:
    """The mover's tokens in one area."""

    unmoved: int = 0
    by_land: int = 0
    by_ship: int = 0

    @property
    def total(self) -> int:
        return self.unmoved + self.by_land + self.by_ship

    def came_by(self, means: Means) -> int:
        return self.by_land if means == "land" else self.by_ship


@dataclass(slots=True)
class ShipRecord:
    id: str
    area: str
    built: bool
    maintained: bool
    sailed: bool


@dataclass(slots=True)
class Ledger:
    board: Board
    player: str
    held: dict[str, Holding]
    treasury: int
    ships: dict[str, ShipRecord]
    built: int
    ended: bool
    # Set by an end_movement step of this plan (a step after it is refused, plan.2).
    ended_at: int | None = None
    destroyed: Counter[str] = field(default_factory=Counter)
    happenings: list[Happening] = field(default_factory=list)

    @classmethod
    def of(cls, board: Board, player: str) -> Ledger:
        p = board.players[player]
        held = {a: Holding(n - p.moved_by_land.get(a, 0) - p.moved_by_ship.get(a, 0),
                           p.moved_by_land.get(a, 0), p.moved_by_ship.get(a, 0))
                for a, n in p.tokens.items()}
        ships = {s.id: ShipRecord(s.id, s.area, s.built_this_turn, s.maintained_this_turn,
                                  s.sailed_this_turn)
                 for s in board.state.ships if s.owner == player}
        return cls(board=board, player=player, held=held, treasury=p.treasury, ships=ships,
                   built=sum(1 for s in ships.values() if s.built), ended=p.movement_ended)

    def holding(self, area: str) -> Holding:
        found = self.held.get(area)
        return found if found is not None else Holding()

    def happen(self, kind: str, at: Location, **params: Any) -> None:
        self.happenings.append(Happening(kind, at, params))

    # -- tokens -----------------------------------------------------------------------------
    def shortfall(self, area: str, count: int, means: Means, at: Location) -> list[Finding]:
        """Why ``count`` tokens cannot move ``means`` out of ``area`` now. Unmoved tokens
        move first; beyond them, the tokens that would have to move again are taken as
        ``take`` takes them, those that came the same way first: each that came the other
        way is step.2 (``land_and_ship``), each that came the same way once.1
        (``token_already_moved``). Tokens missing altogether were destroyed by an earlier
        payment (the plan's check refuses any other shortfall as malformed): fatal."""
        h = self.holding(area)
        if count <= h.unmoved:
            return []
        other_means: Means = "ship" if means == "land" else "land"
        again = count - h.unmoved
        again_same = min(again, h.came_by(means))
        again_other = min(again - again_same, h.came_by(other_means))
        missing = again - again_same - again_other
        fatal = missing > 0
        by = {"land": "by land", "ship": "by ship"}
        out = []
        if again_other:
            out.append(Finding("land_and_ship", at, {
                "area": area, "count": count, "means": by[means], "unmoved": h.unmoved,
                "other": h.came_by(other_means), "other_means": other_means}, fatal))
        if again_same:
            out.append(Finding("token_already_moved", at, {
                "area": area, "count": count, "means": by[means], "unmoved": h.unmoved},
                fatal))
        if missing:
            out.append(Finding("not_enough_tokens", at, {
                "area": area, "count": count, "unmoved": h.unmoved,
                "destroyed": self.destroyed[area]}, fatal))
        return out

    def take(self, area: str, count: int, means: Means) -> None:
        """Tokens leave ``area``: unmoved ones first (advisory mode may move moved ones)."""
        h = self.held[area]
        from_unmoved = min(count, h.unmoved)
        h.unmoved -= from_unmoved
        rest = count - from_unmoved
        first, second = ("by_land", "by_ship") if means == "land" else ("by_ship", "by_land")
        for name in (first, second):
            n = min(rest, getattr(h, name))
            setattr(h, name, getattr(h, name) - n)
            rest -= n
        self._tidy(area)

    def put(self, area: str, count: int, means: Means) -> None:
        """Tokens arrive in ``area`` having moved: they do not move again this turn."""
        h = self.held.setdefault(area, Holding())
        if means == "land":
            h.by_land += count
        else:
            h.by_ship += count

    def destroy(self, area: str, count: int) -> None:
        """A payment destroys tokens in ``area``: moved ones first."""
        h = self.held[area]
        self.destroyed[area] += count
        rest = count
        for name in ("by_land", "by_ship", "unmoved"):
            n = min(rest, getattr(h, name))
            setattr(h, name, getattr(h, name) - n)
            rest -= n
        self._tidy(area)

    def _tidy(self, area: str) -> None:
        if self.held[area].total == 0:
            del self.held[area]

    def tokens_in(self, area: str) -> dict[str, int]:
        """Every player's tokens in ``area`` now (the mover's as the plan left them)."""
        out = {p: n for p, n in self.board.occupants.get(area, {}).items() if p != self.player}
        mine = self.holding(area).total
        if mine:
            out[self.player] = mine
        return out

    # -- the result -------------------------------------------------------------------------
    def write(self, draft: Draft) -> None:
        """The plan's effect on the state: the mover's tokens, marks, treasury and ships."""
        for p in draft["players"]:
            if p["id"] == self.player:
                p["tokens"] = {a: h.total for a, h in self.held.items()}
                p["moved_by_land"] = {a: h.by_land for a, h in self.held.items() if h.by_land}
                p["moved_by_ship"] = {a: h.by_ship for a, h in self.held.items() if h.by_ship}
                p["treasury"] = self.treasury
                p["movement_ended"] = self.ended
        # Ships keep their places in the list; ships built in the plan come last.
        ships: list[dict[str, Any]] = []
        kept: set[str] = set()
        for s in self.board.state.ships:
            if s.owner != self.player:
                ships.append(s.model_dump(mode="json"))
            elif s.id in self.ships:
                ships.append(self._ship_json(self.ships[s.id]))
                kept.add(s.id)
        ships += [self._ship_json(r) for r in self.ships.values() if r.id not in kept]
        draft["ships"] = ships

    def _ship_json(self, ship: ShipRecord) -> dict[str, Any]:
        return {"id": ship.id, "owner": self.player, "area": ship.area,
                "built_this_turn": ship.built, "maintained_this_turn": ship.maintained,
                "sailed_this_turn": ship.sailed}

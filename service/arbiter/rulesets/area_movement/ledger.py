"""The ledger of area_movement (``arbiter.engine.ledger``): the working copy a movement
plan's effect is written into as it is walked step by step, a ``Draft`` of the state with
its players and ships indexed by id as the steps touch them. The plan's player (the
mover) is the only one whose tokens, treasury and ships change: tokens leave and enter
areas, payments destroy them, ships are built, maintained, sail and are destroyed. Other
players' tokens and the barbarians never change during a plan (barbarian.1).

Each area's tokens of the mover are read as three counts (``Holding``): those that have
not moved this turn, those that came by land and those that came by ship (once.1, step.2:
the last two never move again), which the state carries as ``tokens``, ``moved_by_land``
and ``moved_by_ship``. Tokens leave the unmoved first; a payment destroys tokens that have
moved first, since they can no longer move anyway.

The mover's record is written as every plan writes it: the moved marks listed in the order
of ``tokens``, areas without a mark left out (``spelled``, once the plan is walked).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from arbiter.engine import ledger
from arbiter.engine.ledger import Record
from arbiter.engine.outcome import Location, Verdict

from .board import Board

Means = Literal["land", "ship"]
MARKS: dict[Means, str] = {"land": "moved_by_land", "ship": "moved_by_ship"}


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


class Ledger(ledger.Ledger):
    __slots__ = ("board", "built", "destroyed", "ended_at", "mover", "player")

    def __init__(self, board: Board, player: str) -> None:
        super().__init__(board.state)
        self.board = board
        self.player = player
        # Ships built this turn (4 at most, build.1), the mover's end_movement step, if
        # any (a step after it is refused, plan.2), and the tokens payments destroyed by
        # area (for the message of a step that names more tokens than are left).
        self.built = sum(1 for s in board.state.ships if s.owner == player and s.built_this_turn)
        self.ended_at: int | None = None
        self.destroyed: Counter[str] = Counter()
        # The mover's record: the one player a plan changes.
        self.mover: Record = self.by_id("players")[player]

    @property
    def ships(self) -> dict[str, Record]:
        """Every ship by id (the plan's check lets a step name only the mover's)."""
        return self.by_id("ships")

    def own_ships(self) -> list[Record]:
        return [s for s in self.ships.values() if s["owner"] == self.player]

    @property
    def treasury(self) -> int:
        treasury: int = self.mover["treasury"]
        return treasury

    @treasury.setter
    def treasury(self, value: int) -> None:
        self.mover["treasury"] = value

    # -- tokens -----------------------------------------------------------------------------
    def holding(self, area: str) -> Holding:
        mover = self.mover
        total = mover["tokens"].get(area, 0)
        by_land = mover["moved_by_land"].get(area, 0)
        by_ship = mover["moved_by_ship"].get(area, 0)
        return Holding(total - by_land - by_ship, by_land, by_ship)

    def _hold(self, area: str, h: Holding, *, tidy: bool) -> None:
        """Write ``h`` back as the mover's tokens in ``area``; an area left with none is no
        longer listed when ``tidy``."""
        mover = self.mover
        marks = ((mover["moved_by_land"], h.by_land), (mover["moved_by_ship"], h.by_ship))
        if tidy and h.total == 0:
            mover["tokens"].pop(area, None)
            marks = ((mover["moved_by_land"], 0), (mover["moved_by_ship"], 0))
        else:
            mover["tokens"][area] = h.total
        for marked, n in marks:
            if n:
                marked[area] = n
            else:
                marked.pop(area, None)

    def spelled(self) -> None:
        """The mover's record as a plan writes it: the marks in the order of ``tokens``,
        areas without a mark left out."""
        mover = self.mover
        for name in MARKS.values():
            marked = mover[name]
            mover[name] = {a: marked[a] for a in mover["tokens"] if marked.get(a)}

    def shortfall(self, area: str, count: int, means: Means, at: Location,
                  found: Verdict) -> bool:
        """Why ``count`` tokens cannot move ``means`` out of ``area`` now, into ``found``.
        Unmoved tokens move first; beyond them, the tokens that would have to move again
        are taken as ``take`` takes them, those that came the same way first: each that came
        the other way is step.2 (``land_and_ship``), each that came the same way once.1
        (``token_already_moved``). Tokens missing altogether (never there, moved out or
        destroyed by an earlier step) are ``not_enough_tokens``, whatever made the count:
        fatal, and the answer is whether that is so."""
        h = self.holding(area)
        if count <= h.unmoved:
            return False
        other_means: Means = "ship" if means == "land" else "land"
        again = count - h.unmoved
        again_same = min(again, h.came_by(means))
        again_other = min(again - again_same, h.came_by(other_means))
        missing = again - again_same - again_other
        fatal = missing > 0
        by = {"land": "by land", "ship": "by ship"}
        if again_other:
            found.violate("land_and_ship", at, fatal=fatal, area=area, count=count,
                          means=by[means], unmoved=h.unmoved, other=h.came_by(other_means),
                          other_means=other_means)
        if again_same:
            found.violate("token_already_moved", at, fatal=fatal, area=area, count=count,
                          means=by[means], unmoved=h.unmoved)
        if missing:
            found.violate("not_enough_tokens", at, fatal=fatal, area=area, count=count,
                          held=h.total, unmoved=h.unmoved, destroyed=self.destroyed[area])
        return fatal

    def take(self, area: str, count: int, means: Means) -> None:
        """Tokens leave ``area``: unmoved ones first (advisory mode may move moved ones)."""
        h = self.holding(area)
        from_unmoved = min(count, h.unmoved)
        h.unmoved -= from_unmoved
        rest = count - from_unmoved
        first, second = ("by_land", "by_ship") if means == "land" else ("by_ship", "by_land")
        for name in (first, second):
            n = min(rest, getattr(h, name))
            setattr(h, name, getattr(h, name) - n)
            rest -= n
        self._hold(area, h, tidy=True)

    def put(self, area: str, count: int, means: Means) -> None:
        """Tokens arrive in ``area`` having moved: they do not move again this turn."""
        h = self.holding(area)
        if means == "land":
            h.by_land += count
        else:
            h.by_ship += count
        self._hold(area, h, tidy=False)

    def destroy(self, area: str, count: int) -> None:
        """A payment destroys tokens in ``area``: moved ones first."""
        h = self.holding(area)
        self.destroyed[area] += count
        rest = count
        for name in ("by_land", "by_ship", "unmoved"):
            n = min(rest, getattr(h, name))
            setattr(h, name, getattr(h, name) - n)
            rest -= n
        self._hold(area, h, tidy=True)

    def clear_marks(self) -> None:
        """end.1: every token may move again next turn."""
        for name in MARKS.values():
            self.mover[name] = {}

    def tokens_in(self, area: str) -> dict[str, int]:
        """Every player's tokens in ``area`` now (the mover's as the plan left them)."""
        out = {p: n for p, n in self.board.occupants.get(area, {}).items() if p != self.player}
        mine = self.mover["tokens"].get(area, 0)
        if mine:
            out[self.player] = mine
        return out

    # -- ships ------------------------------------------------------------------------------
    def build(self, ship: str, area: str) -> None:
        """A new ship of the mover's. One an earlier step destroyed is built again in its
        place among the state's ships; others come after every ship of the state."""
        record = {"id": ship, "owner": self.player, "area": area, "built_this_turn": True,
                  "maintained_this_turn": False, "sailed_this_turn": False}
        if ship not in self.board.ships:
            self.add("ships", record)
            return
        first = {s.id: i for i, s in enumerate(self.board.state.ships)}
        place = first[ship]
        ships: list[Record] = self["ships"]
        before = sum(1 for s in ships if first.get(s["id"], place) < place)
        self.ships[ship] = record
        ships.insert(before, record)

    def scuttle(self, ship: str) -> None:
        """A ship destroyed (destroy.1, end.1)."""
        self.remove("ships", ship)

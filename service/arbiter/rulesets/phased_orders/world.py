"""The turn in progress, as the phases see it: the units on the board (``Piece``: what the
rules change, the rest as the state gave it) with who stands where, the players' pools,
gems and relations, the strongholds' resources, the seed, and what the turn remembers from
one phase to a later one (the path each unit walked, what was lost in which phase, the
bandits and new units waiting for their phase, the heals waiting for phase 13).

Every change to the state goes through a method here (``alter``, ``place``, ``remove``,
``add``, ``draw``, ``set_resources``, ...), which enters it in the turn's ledger
(``ledger.py``) as it happens: the ledger's draft is the resulting state. The request's
models are never touched.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from arbiter.engine.hexgrid import Hex, as_dict
from arbiter.engine.outcome import Verdict
from arbiter.engine.rng import SeededRng

from .board import Board, Relation, relation_of
from .decisions import Decisions
from .ledger import Ledger
from .models import (
    UNDEAD,
    PhasedOrdersOptions,
    PhasedOrdersResolve,
    PhasedOrdersUnit,
    Stance,
)
from .orders import Plan
from .results import Results
from .trace import Trace

OrderT = TypeVar("OrderT")


@dataclass(slots=True, eq=False)
class Piece:
    """A unit during the turn. ``route`` is every hex it stood on this turn, from where it
    started: a move walks it forward, an ejection back."""

    spec: PhasedOrdersUnit
    owner: str
    hex: Hex
    hit_points: int
    max_hit_points: int
    strength: int
    level: int
    durability: int | None
    carried: int | None
    route: list[Hex] = field(default_factory=list)
    # When it came to stand on its hex (0: it stood there when the turn began): of units
    # sharing a hex at phase 18, the last to come gives way.
    arrived: int = 0

    @classmethod
    def of(cls, unit: PhasedOrdersUnit) -> Piece:
        caravan = unit.caravan
        return cls(spec=unit, owner=unit.owner, hex=unit.hex.key, hit_points=unit.hit_points,
                   max_hit_points=unit.max_hit_points, strength=unit.strength,
                   level=unit.level,
                   durability=caravan.durability if caravan is not None else None,
                   carried=caravan.resources if caravan is not None else None,
                   route=[unit.hex.key])

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def flying(self) -> bool:
        return self.spec.flying

    @property
    def archer(self) -> bool:
        return self.spec.archer

    @property
    def undead(self) -> bool:
        return self.spec.undead or self.owner == UNDEAD

    @property
    def caravan(self) -> bool:
        return self.durability is not None

    def fields(self) -> dict[str, Any]:
        """The unit's fields the turn may change, as JSON."""
        data = {"owner": self.owner, "hex": as_dict(self.hex), "hit_points": self.hit_points,
                "max_hit_points": self.max_hit_points, "strength": self.strength,
                "level": self.level}
        if self.durability is not None:
            data["caravan"] = {"durability": self.durability, "resources": self.carried}
        return data

    def to_json(self) -> dict[str, Any]:
        data = self.spec.model_dump(mode="json")
        data.update(self.fields())
        return data


@dataclass(slots=True)
class Waiting:
    """A unit that will enter the board in a later phase (a commissioned unit in phase 15,
    a bandit in phase 16), with the order that made it, if any."""

    piece: Piece
    order: int | None = None


class World:
    def __init__(self, board: Board, action: PhasedOrdersResolve, plan: Plan,
                 verdict: Verdict) -> None:
        state = board.state
        self.board = board
        self.options: PhasedOrdersOptions = state.options
        self.plan = plan
        self.action = action
        self.trace = Trace(verdict)
        self.verdict = verdict
        self.results = Results(plan.orders)
        self.decisions = Decisions(action.decisions)
        self.pieces: dict[str, Piece] = {u.id: Piece.of(u) for u in state.units}
        self.at: dict[Hex, list[str]] = {}
        for piece in self.pieces.values():
            self.at.setdefault(piece.hex, []).append(piece.id)
        self.players: dict[str, dict[str, Any]] = {
            p.id: {"resources": p.resources, "gems": p.gems} for p in state.players}
        self.stances: dict[str, dict[str, Stance]] = {
            pid: dict(s) for pid, s in board.stances.items()}
        self.stored: dict[str, int] = {s.id: s.resources for s in state.strongholds}
        self.rng = SeededRng(state.rng)
        self.drew = False
        self.lost: dict[str, int] = {}
        self.bandits: list[Waiting] = []
        self.recruits: list[Waiting] = []
        self.heals: list[tuple[int, str, int]] = []
        self.fought: set[str] = set()
        self.ledger = Ledger(state)
        self.clock = 0
        self.unpaid: dict[str, int] = {}
        self.unused_combat_results: list[int] = []

    # -- orders -----------------------------------------------------------------------------
    def orders(self, kind: type[OrderT]) -> Iterator[tuple[int, OrderT]]:
        """The orders of a kind that no violation refused, in the action's order."""
        for i, order in enumerate(self.plan.orders):
            if isinstance(order, kind) and i not in self.plan.refused:
                yield i, order

    def actor(self, index: int, unit: str) -> Piece | None:
        """The unit an order is for, or None (the order then fails: the unit was lost)."""
        piece = self.pieces.get(unit)
        if piece is None:
            self.results.settle(index, "unit_lost", self.trace.phase, unit=unit,
                                lost_in=self.lost.get(unit, self.trace.phase))
        return piece

    # -- relations --------------------------------------------------------------------------
    def relation(self, a: str, b: str) -> Relation:
        return relation_of(self.stances, a, b)

    def hostile(self, a: str, b: str) -> bool:
        return self.relation(a, b) == "war"

    def allied(self, a: str, b: str) -> bool:
        return self.relation(a, b) in ("same", "allied")

    def allied_groups(self, pieces: list[Piece]) -> list[list[Piece]]:
        """``pieces`` split into sides: units whose owners are allied (or one owner), joined
        through allies, in the order the pieces are given."""
        groups: list[list[Piece]] = []
        for piece in pieces:
            joined = [g for g in groups if any(self.allied(piece.owner, o.owner) for o in g)]
            merged = [x for g in joined for x in g] + [piece]
            groups = [g for g in groups if not any(g is j for j in joined)]
            groups.append(sorted(merged, key=pieces.index))
        return sorted(groups, key=lambda g: pieces.index(g[0]))

    def declare_war(self, a: str, b: str) -> None:
        for one, other in ((a, b), (b, a)):
            self.stances.setdefault(one, {})[other] = "war"
            self.ledger.players[one]["relations"] = dict(self.stances[one])

    # -- pools ------------------------------------------------------------------------------
    def resources(self, player: str) -> int:
        value: int = self.players[player]["resources"]
        return value

    def gems(self, player: str) -> int:
        value: int = self.players[player]["gems"]
        return value

    def set_resources(self, player: str, value: int) -> None:
        self.players[player]["resources"] = self.ledger.players[player]["resources"] = value

    def set_gems(self, player: str, value: int) -> None:
        self.players[player]["gems"] = self.ledger.players[player]["gems"] = value

    def set_stored(self, stronghold: str, value: int) -> None:
        self.stored[stronghold] = self.ledger.strongholds[stronghold]["resources"] = value

    # -- the board --------------------------------------------------------------------------
    def occupants(self, h: Hex) -> list[Piece]:
        return [self.pieces[u] for u in self.at.get(h, ())]

    def place(self, piece: Piece, to: Hex) -> None:
        here = self.at[piece.hex]
        here.remove(piece.id)
        if not here:
            del self.at[piece.hex]
        piece.hex = to
        self.clock += 1
        piece.arrived = self.clock
        self.at.setdefault(to, []).append(piece.id)
        self.ledger.units[piece.id]["hex"] = as_dict(to)

    def remove(self, piece: Piece) -> None:
        here = self.at[piece.hex]
        here.remove(piece.id)
        if not here:
            del self.at[piece.hex]
        del self.pieces[piece.id]
        self.lost[piece.id] = self.trace.phase
        self.ledger.remove("units", piece.id)

    def add(self, piece: Piece) -> None:
        self.pieces[piece.id] = piece
        self.clock += 1
        piece.arrived = self.clock
        self.at.setdefault(piece.hex, []).append(piece.id)
        self.ledger.add("units", piece.to_json())

    def alter(self, piece: Piece, **changes: Any) -> None:
        """Change a unit on the board (its hit points, strength, level, owner, a caravan's
        durability or load) and enter it in the ledger."""
        for name, value in changes.items():
            setattr(piece, name, value)
        self.ledger.unit(piece.id, piece.fields())

    def draw(self, n: int) -> int:
        """A uniform draw in 0..n-1 from the state's seed."""
        self.drew = True
        drawn = self.rng.below(n)
        self.ledger["rng"] = self.rng.state
        return drawn

    def on_map(self, h: Hex) -> bool:
        return h in self.board.hexes

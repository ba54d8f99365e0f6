"""A movement plan as a whole (plan.1, plan.2): what makes it malformed, and the walk that
judges it step by step.

A plan is malformed (422, at its JSON pointer) when it cannot be judged at all, whatever
the board holds: an unknown player or area, a ship that is not the player's, that does not
exist, or that an earlier step of the plan destroyed, a new ship with the id of one that
exists, more tokens disembarking than the voyage itself took aboard, a payment spelled for
another way.

How many tokens the player holds in an area at a moment of the plan is the board's and
the earlier steps' business, never the plan's shape: a step naming more than are there
(as sent, or after an earlier step moved or destroyed some) is the rules' refusal,
``not_enough_tokens``, with its rule, one answer whatever changed the count. Within what
is held, tokens that already moved this turn (in the state's marks or earlier in the
plan) are ``token_already_moved`` or ``land_and_ship``.

The walk judges the steps in order, each into a ``Verdict`` of its own, writing their
effects into the ledger (``Ledger``) as it goes. The first illegal step is reported with
every violation it has; later steps are not judged.
Advisory mode applies the plan only when that step's effect is well defined and every
later step is legal, so nothing illegal is ever applied without its warning. Steps are
named by their 0-based index, ``steps[i]``, as in ``at.step``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from arbiter.engine.bounds import checkpoint
from arbiter.engine.errors import Problems, pointer
from arbiter.engine.outcome import Event, Verdict, Violation, location

from .board import Board
from .catalogue import CATALOGUE
from .ledger import Ledger
from .models import (
    AreaMovementAnyStep,
    AreaMovementBuildShip,
    AreaMovementDestroyShip,
    AreaMovementMaintainShip,
    AreaMovementMoveTokens,
    AreaMovementSail,
)
from .ships import judge_build, judge_destroy, judge_end, judge_maintain
from .steps import judge_move
from .voyage import judge_sail

Path = tuple[object, ...]


@dataclass(slots=True)
class Fleet:
    """The player's ships as the plan names them, step by step, for the plan's check: where
    each ship stands, which an earlier step destroyed, which are built or maintained."""

    board: Board
    player: str
    problems: Problems
    afloat: dict[str, str]
    gone: dict[str, int] = field(default_factory=dict)
    kept: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, board: Board, player: str, problems: Problems) -> Fleet:
        mine = [s for s in board.state.ships if s.owner == player]
        return cls(board, player, problems, {s.id: s.area for s in mine},
                   kept={s.id for s in mine if s.built_this_turn or s.maintained_this_turn})

    def named(self, ship: str, at: Path) -> bool:
        """Whether ``ship`` is one of the player's ships at this point of the plan."""
        if ship in self.afloat:
            return True
        if ship in self.gone:
            why = f"ship {ship} was destroyed by steps[{self.gone[ship]}]"
        elif ship in self.board.ships:
            why = f"ship {ship} is not {self.player}'s"
        else:
            why = f"unknown ship {ship}"
        self.problems.add(pointer(*at), why)
        return False


def _land_area(board: Board, area: str, at: Path, problems: Problems) -> bool:
    if board.is_land(area):
        return True
    if area in board.seas:
        problems.add(pointer(*at), f"{area} is a pure water area: name a land area")
    else:
        problems.add(pointer(*at), f"unknown area {area}")
    return False


def _check_move(fleet: Fleet, step: AreaMovementMoveTokens, at: Path) -> None:
    board, problems = fleet.board, fleet.problems
    _land_area(board, step.from_area, (*at, "from_area"), problems)
    _land_area(board, step.to_area, (*at, "to_area"), problems)
    if step.from_area == step.to_area:
        problems.add(pointer(*at, "to_area"), "a move goes to another area")


def _check_build(fleet: Fleet, step: AreaMovementBuildShip, at: Path) -> None:
    board, problems = fleet.board, fleet.problems
    _land_area(board, step.area, (*at, "area"), problems)
    if step.ship in fleet.afloat or (step.ship in board.ships and step.ship not in fleet.gone):
        problems.add(pointer(*at, "ship"), f"ship {step.ship} already exists")
    if step.pay != "tokens" and step.tokens:
        problems.add(pointer(*at, "tokens"), "tokens are named only when paying with tokens")
    for k, source in enumerate(step.tokens):
        _land_area(board, source.area, (*at, "tokens", k, "area"), problems)
    fleet.afloat[step.ship] = step.area
    fleet.gone.pop(step.ship, None)
    fleet.kept.add(step.ship)


def _check_maintain(fleet: Fleet, step: AreaMovementMaintainShip, at: Path) -> None:
    """The token destroyed is named as a build names its tokens (``tokens``); the deprecated
    ``area`` is read as one token there, and never beside ``tokens``."""
    board, problems = fleet.board, fleet.problems
    fleet.named(step.ship, (*at, "ship"))
    legacy = step.legacy_area
    if legacy is not None:
        if step.tokens:
            problems.add(pointer(*at, "area"), "area is the deprecated spelling of tokens: "
                         "name the token destroyed in tokens alone")
        elif step.pay != "token":
            problems.add(pointer(*at, "area"), "an area is named only when paying with a "
                         "token")
        else:
            _land_area(board, legacy, (*at, "area"), problems)
    if step.pay != "token" and step.tokens:
        problems.add(pointer(*at, "tokens"), "tokens are named only when paying with a token")
    for k, source in enumerate(step.tokens):
        _land_area(board, source.area, (*at, "tokens", k, "area"), problems)
    fleet.kept.add(step.ship)


def _check_sail(fleet: Fleet, step: AreaMovementSail, at: Path) -> None:
    """The voyage's own counts: no more tokens disembark than it has taken aboard (what
    the areas hold to embark is the walk's business)."""
    board, problems = fleet.board, fleet.problems
    fleet.named(step.ship, (*at, "ship"))
    aboard = step.embark
    for j, stop in enumerate(step.path):
        here = (*at, "path", j)
        if not board.is_land(stop.area) and stop.area not in board.seas:
            problems.add(pointer(*here, "area"), f"unknown area {stop.area}")
        if stop.disembark > aboard:
            problems.add(pointer(*here, "disembark"),
                         f"{stop.disembark} tokens disembark, but {aboard} are aboard")
        aboard += stop.embark - min(stop.disembark, aboard)
    if step.ship in fleet.afloat:
        fleet.afloat[step.ship] = step.path[-1].area


def _check_destroy(fleet: Fleet, step: AreaMovementDestroyShip, i: int, at: Path) -> None:
    if fleet.named(step.ship, (*at, "ship")):
        del fleet.afloat[step.ship]
        fleet.gone[step.ship] = i


def _check_end(fleet: Fleet, i: int) -> None:
    """end_movement destroys the ships neither built nor maintained (end.1)."""
    for ship in [s for s in fleet.afloat if s not in fleet.kept]:
        del fleet.afloat[ship]
        fleet.gone[ship] = i


def check_plan(board: Board, player: str, steps: Sequence[AreaMovementAnyStep],
               root: Path = ("action",)) -> None:
    """Raise InvalidInput naming every malformed field of the plan."""
    problems = Problems()
    if player not in board.players:
        problems.add(pointer(*root, "player"), f"unknown player {player}")
        problems.raise_if_any()
    fleet = Fleet.of(board, player, problems)
    for i, step in enumerate(steps):
        checkpoint()
        at = (*root, "steps", i)
        if isinstance(step, AreaMovementMoveTokens):
            _check_move(fleet, step, at)
        elif isinstance(step, AreaMovementBuildShip):
            _check_build(fleet, step, at)
        elif isinstance(step, AreaMovementMaintainShip):
            _check_maintain(fleet, step, at)
        elif isinstance(step, AreaMovementSail):
            _check_sail(fleet, step, at)
        elif isinstance(step, AreaMovementDestroyShip):
            _check_destroy(fleet, step, i, at)
        else:
            _check_end(fleet, i)
    problems.raise_if_any()


# -- the walk -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Walk:
    """What the walk found: the movement as far as it went (``ledger``), the violations of
    the first illegal step (and its index), whether advisory mode may apply the plan, and
    the events of every step walked, in order (told only when the plan is applied)."""

    ledger: Ledger
    reported: list[Violation]
    first_illegal: int | None
    applicable: bool
    events: list[Event]


def judge_step(ledger: Ledger, step: AreaMovementAnyStep, i: int) -> Verdict:
    """The step's violations and events; its effect is written into the ledger unless a
    violation makes it undefined."""
    verdict = Verdict(CATALOGUE)
    if ledger.ended_at is not None:
        verdict.violate("step_after_end", location(step=i), step=i)
    if isinstance(step, AreaMovementMoveTokens):
        judge_move(ledger, step, i, verdict)
    elif isinstance(step, AreaMovementBuildShip):
        judge_build(ledger, step, i, verdict)
    elif isinstance(step, AreaMovementMaintainShip):
        judge_maintain(ledger, step, i, verdict)
    elif isinstance(step, AreaMovementSail):
        judge_sail(ledger, step, i, verdict)
    elif isinstance(step, AreaMovementDestroyShip):
        judge_destroy(ledger, step, i, verdict)
    else:
        judge_end(ledger, i, verdict)
    return verdict


def walk(board: Board, player: str, steps: Sequence[AreaMovementAnyStep]) -> Walk:
    ledger = Ledger(board, player)
    events: list[Event] = []
    for i, step in enumerate(steps):
        checkpoint()  # a plan is judged step by step: the budget (and the loop) is checked
        found = judge_step(ledger, step, i)
        events += found.events
        if found.legal:
            continue
        applicable = found.applicable
        if applicable:
            # Judge on (advisory mode's way) to know whether the rest is legal.
            for k, later in enumerate(steps[i + 1:], start=i + 1):
                checkpoint()
                judged = judge_step(ledger, later, k)
                events += judged.events
                if not judged.legal:
                    applicable = False
                    break
        return Walk(ledger, found.violations, i, applicable, events)
    return Walk(ledger, [], None, True, events)

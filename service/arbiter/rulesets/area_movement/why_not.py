"""Why a player cannot get tokens into an area (``POST
/v1/rulesets/area_movement/why-not``): the one-step plan that would (a token stepping in
by land from a next area, else a voyage of one of his ships that reaches it, else a step
from his nearest tokens), judged by ``judge``, with what would change the answer: how many
land steps away his nearest unmoved tokens are, and which of his ships reach it by water.
"""

from __future__ import annotations

from collections import deque
from typing import Annotated, Any

from pydantic import Field

from arbiter.engine.bounds import checkpoint
from arbiter.engine.errors import Problems, pointer
from arbiter.engine.outcome import Violation
from arbiter.engine.why_not import (
    ACTION_FIELD,
    PLAN_FIELD,
    STEP_FIELD,
    WhyNotAnswer,
    WhyNotChange,
    change,
    judged,
    judged_step,
    one_target,
    step_changes,
    step_possible,
)
from arbiter.engine.wire import Frozen

from .board import Board, compile_board
from .judge import judge, plan_steps
from .models import (
    AreaId,
    AreaMovementAction,
    AreaMovementAnyAction,
    AreaMovementMoveTokens,
    AreaMovementState,
    PlayerId,
)
from .reach import unmoved, water_reach


class AreaMovementWhyNotRequest(Frozen):
    """A place (``player`` and ``area``) or a step of a movement plan (``plan`` and
    ``step``): one of the two."""

    state: AreaMovementState
    player: PlayerId | None = Field(default=None, description="The player asking about "
                                    "``area`` (a place target).")
    area: AreaId | None = Field(default=None, description="The area the player asks about.")
    # A tagged union, as validate's action: GraphQL takes it as a one-of input.
    plan: Annotated[AreaMovementAnyAction, Field(discriminator="type")] | None = Field(
        default=None, description=PLAN_FIELD)
    step: int | None = Field(default=None, ge=0, description=STEP_FIELD)


class AreaMovementWhyNotResponse(WhyNotAnswer):
    # Optional outside the tagged union, so GraphQL makes it a nullable union.
    action: Annotated[AreaMovementAnyAction, Field(discriminator="type")] | None = Field(
        default=None, description=ACTION_FIELD)
    player: str
    area: str | None = Field(description="The area asked about; null for a step target.")
    step: int | None = Field(default=None, description="The step asked about (a step "
                             "target): ``violations`` are validate's for ``action`` located "
                             "at it, and ``possible`` says the plan is legal up to it.")
    land_steps: int | None = Field(description="Land steps from the player's nearest unmoved "
                                   "tokens to the area (a step target: from the step's "
                                   "from_area to its to_area); null when no land path leads "
                                   "there.")


def _land_steps(board: Board, starts: list[str], target: str) -> tuple[int, str] | None:
    """The fewest land steps from any of ``starts`` to ``target``, and from which."""
    seen = {a: (0, a) for a in starts}
    queue = deque(starts)
    while queue:
        a = queue.popleft()
        checkpoint()  # a search over the whole map: within the compute budget
        if a == target:
            return seen[a]
        steps, origin = seen[a]
        for b in sorted(board.land.get(a, frozenset())):
            if b not in seen:
                seen[b] = (steps + 1, origin)
                queue.append(b)
    return None


def _voyages(board: Board, player: str, target: str, ready: dict[str, int]
             ) -> tuple[list[WhyNotChange], dict[str, Any] | None]:
    """The player's ships that reach ``target`` by water, and the voyage of the first that
    could carry a token there (one of his unmoved tokens in its area)."""
    changes, step = [], None
    for ship in board.state.ships:
        if ship.owner != player or ship.sailed_this_turn:
            continue
        way = next((w for w in water_reach(board, ship.area) if w.area == target), None)
        if way is None or not way.can_disembark:
            continue
        changes.append(change("ship_reaches", f"ship {ship.id} at {ship.area} reaches "
                              f"{target} in {way.steps} water step(s)", ship=ship.id,
                              area=ship.area, steps=way.steps))
        if step is None and ready.get(ship.area, 0) > 0:
            step = {"type": "sail", "ship": ship.id, "embark": 1,
                    "path": [{"area": a} for a in way.path]}
    return changes, step


def _step_changes(board: Board, violations: list[Violation]) -> list[WhyNotChange]:
    """What would change a step's violations: the tokens short in an area, the land steps
    between areas that are not adjacent."""
    changes = []
    for v in violations:
        p = v.params
        if v.code == "not_enough_tokens":
            changes.append(change("tokens_short", f"{p['count'] - p['held']} more token(s) "
                                  f"in {p['area']} at this step", area=p["area"],
                                  tokens=p["count"] - p["held"]))
        elif v.code in ("token_already_moved", "land_and_ship"):
            changes.append(change("unmoved_tokens_short", f"{p['count'] - p['unmoved']} more "
                                  f"unmoved token(s) in {p['area']} at this step",
                                  area=p["area"], tokens=p["count"] - p["unmoved"]))
        elif v.code == "not_adjacent_by_land":
            way = _land_steps(board, [p["from_area"]], p["to_area"])
            changes.append(change(
                "land_steps", f"{p['to_area']} is {way[0]} land steps from {p['from_area']}"
                if way else f"no land path leads from {p['from_area']} to {p['to_area']}",
                from_area=p["from_area"], to_area=p["to_area"],
                steps=way[0] if way else None))
    return changes


def _why_not_step(board: Board, plan: AreaMovementAnyAction, step: int
                  ) -> AreaMovementWhyNotResponse:
    steps = plan_steps(plan)
    at_step, violations = judged_step(judge, board, plan, step, len(steps))
    asked = steps[step]
    way = (_land_steps(board, [asked.from_area], asked.to_area)
           if isinstance(asked, AreaMovementMoveTokens) and board.is_land(asked.from_area)
           else None)
    return AreaMovementWhyNotResponse(
        possible=step_possible(violations, step), action=plan, violations=at_step,
        changes=[*step_changes(violations, step), *_step_changes(board, at_step)],
        player=plan.player, area=None, step=step,
        land_steps=way[0] if way is not None else None)


def run_why_not(request: AreaMovementWhyNotRequest) -> AreaMovementWhyNotResponse:
    one_target(request.plan, request.step,
               {"player": request.player, "area": request.area})
    board = compile_board(request.state)
    if request.plan is not None and request.step is not None:
        return _why_not_step(board, request.plan, request.step)
    assert request.player is not None and request.area is not None  # one_target
    problems = Problems()
    if request.player not in board.players:
        problems.add(pointer("player"), f"unknown player {request.player}")
    if request.area not in board.areas and request.area not in board.seas:
        problems.add(pointer("area"), f"unknown area {request.area}")
    problems.raise_if_any()
    player, target = request.player, request.area
    if target in board.seas:
        # A sea on the map, hovered over like any place: ships cross it, no token ends
        # there, so no step is implied.
        return AreaMovementWhyNotResponse(
            possible=False, action=None, violations=[], player=player, area=target,
            land_steps=None, changes=[change("sea", f"{target} is a sea: ships cross it, "
                                             "tokens end their movement in areas",
                                             area=target)])
    ready = {a: n for a, n in unmoved(board, player).items() if n > 0}
    nearest = _land_steps(board, sorted(ready), target)
    changes: list[WhyNotChange] = []
    step: dict[str, Any] | None = None
    beside = [a for a in sorted(ready) if target in board.land.get(a, frozenset())]
    if beside:
        step = {"type": "move_tokens", "from_area": beside[0], "to_area": target, "count": 1}
    else:
        changes, step = _voyages(board, player, target, ready)
        if nearest is not None and nearest[0] > 0:
            changes.insert(0, change(
                "land_steps", f"{player}'s nearest unmoved tokens ({nearest[1]}) are "
                f"{nearest[0]} land steps away", steps=nearest[0], area=nearest[1]))
        elif not ready:
            changes.insert(0, change("no_unmoved_tokens", f"{player} has no unmoved token",
                                     player=player))
        if step is None and ready:
            source = nearest[1] if nearest is not None else sorted(ready)[0]
            step = {"type": "move_tokens", "from_area": source, "to_area": target, "count": 1}
    action = {"type": "movement", "player": player, "steps": [step]} if step else None
    written, violations = judged(judge, AreaMovementAction, board, action)
    return AreaMovementWhyNotResponse(
        possible=written is not None and not violations, action=written,
        violations=violations, changes=changes, player=player, area=target,
        land_steps=nearest[0] if nearest is not None else None)

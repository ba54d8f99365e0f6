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
from arbiter.engine.why_not import ACTION_FIELD, WhyNotAnswer, WhyNotChange, change, judged
from arbiter.engine.wire import Frozen

from .board import Board, compile_board
from .judge import judge
from .models import AreaId, AreaMovementAction, AreaMovementAnyAction, AreaMovementState, PlayerId
from .reach import unmoved, water_reach


class AreaMovementWhyNotRequest(Frozen):
    state: AreaMovementState
    player: PlayerId
    area: AreaId = Field(description="The area the player asks about.")


class AreaMovementWhyNotResponse(WhyNotAnswer):
    # Optional outside the tagged union, so GraphQL makes it a nullable union.
    action: Annotated[AreaMovementAnyAction, Field(discriminator="type")] | None = Field(
        default=None, description=ACTION_FIELD)
    player: str
    area: str
    land_steps: int | None = Field(description="Land steps from the player's nearest unmoved "
                                   "tokens to the area; null when no land path leads there.")


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


def run_why_not(request: AreaMovementWhyNotRequest) -> AreaMovementWhyNotResponse:
    board = compile_board(request.state)
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

"""Why a unit cannot be ordered to a hex (``POST /v1/rulesets/phased_orders/why-not``):
the player's ``submit`` of one order for the unit (a move along the fewest hexes of the
map, or a hold on its own hex), judged by ``judge``, with what would change the answer:
the steps the path takes against the unit's move.
"""

from __future__ import annotations

from collections import deque
from typing import Annotated, Any

from pydantic import Field

from arbiter.engine.bounds import checkpoint
from arbiter.engine.errors import Problems, pointer
from arbiter.engine.hexgrid import Axial, Hex, as_dict, neighbours
from arbiter.engine.why_not import ACTION_FIELD, WhyNotAnswer, WhyNotChange, change, judged
from arbiter.engine.wire import Frozen, Id

from .board import Board, compile_board
from .judge import judge
from .models import MAX_PATH, PhasedOrdersAction, PhasedOrdersAnyAction, PhasedOrdersState


class PhasedOrdersWhyNotRequest(Frozen):
    state: PhasedOrdersState
    unit: Id
    hex: Axial = Field(description="The hex the player asks about.")


class PhasedOrdersWhyNotResponse(WhyNotAnswer):
    # Optional outside the tagged union, so GraphQL makes it a nullable union.
    action: Annotated[PhasedOrdersAnyAction, Field(discriminator="type")] | None = Field(
        default=None, description=ACTION_FIELD)
    unit: str
    hex: Axial
    move: int = Field(description="The unit's move: the most hexes a move order enters.")
    path: list[Axial] = Field(description="The path judged (the fewest hexes of the map), "
                              "the unit's hex excluded.")


def _fewest_hexes(board: Board, start: Hex, target: Hex) -> list[Hex] | None:
    parent: dict[Hex, Hex] = {start: start}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        checkpoint()  # a search over the whole map: within the compute budget
        if h == target:
            break
        for n in neighbours(h):
            if n in board.hexes and n not in parent:
                parent[n] = h
                queue.append(n)
    if target not in parent:
        return None
    path = []
    h = target
    while h != start:
        path.append(h)
        h = parent[h]
    return path[::-1]


def run_why_not(request: PhasedOrdersWhyNotRequest) -> PhasedOrdersWhyNotResponse:
    board = compile_board(request.state)
    problems = Problems()
    if request.unit not in board.units:
        problems.add(pointer("unit"), f"unknown unit {request.unit}")
    if request.hex.key not in board.hexes:
        problems.add(pointer("hex"), f"no hex ({request.hex.q},{request.hex.r}) on the map")
    problems.raise_if_any()
    unit = board.units[request.unit]
    path = _fewest_hexes(board, unit.hex.key, request.hex.key)
    changes: list[WhyNotChange] = []
    order: dict[str, Any] | None = None
    if path is None:
        changes.append(change("no_path", "no path of map hexes leads there"))
    elif not path:
        order = {"order": "hold", "player": unit.owner, "unit": unit.id}
    elif len(path) <= MAX_PATH:
        order = {"order": "move", "player": unit.owner, "unit": unit.id,
                 "path": [as_dict(h) for h in path]}
        if len(path) > unit.move:
            changes.append(change(
                "path_too_long", f"the shortest path enters {len(path)} hexes, {unit.id} "
                f"moves {unit.move}", steps=len(path), move=unit.move))
    action = ({"type": "submit", "player": unit.owner, "orders": [order]}
              if order is not None else None)
    written, violations = judged(judge, PhasedOrdersAction, board, action)
    return PhasedOrdersWhyNotResponse(
        possible=written is not None and not violations, action=written,
        violations=violations, changes=changes, unit=unit.id, hex=request.hex,
        move=unit.move, path=[Axial(q=q, r=r) for q, r in path or []])

"""Why a unit cannot be ordered to a hex (``POST /v1/rulesets/phased_orders/why-not``):
the player's ``submit`` of one order for the unit (a move along the fewest hexes of the
map, or a hold on its own hex), judged by ``judge``, with what would change the answer:
the steps the path takes against the unit's move.

Or why one order of a player's orders is refused (a step target: ``plan``, the ``submit``
or ``resolve``, and ``step``, the order's index, as ``at.step`` names it): the violations
validate gives for the plan at that order, with the hexes its path goes beyond the unit's
move.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.hexgrid import Axial, as_dict, fewest_steps
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
)
from arbiter.engine.wire import Frozen, Id

from .board import Board, compile_board
from .judge import judge
from .models import (
    MAX_PATH,
    PhasedOrdersAction,
    PhasedOrdersAnyAction,
    PhasedOrdersMove,
    PhasedOrdersState,
)


class PhasedOrdersWhyNotRequest(Frozen):
    """A place (``unit`` and ``hex``) or an order of a player's orders (``plan`` and
    ``step``): one of the two."""

    state: PhasedOrdersState
    unit: Id | None = Field(default=None, description="The unit asked about (a place "
                            "target).")
    hex: Axial | None = Field(default=None, description="The hex the player asks about.")
    # A tagged union, as validate's action: GraphQL takes it as a one-of input.
    plan: Annotated[PhasedOrdersAnyAction, Field(discriminator="type")] | None = Field(
        default=None, description=PLAN_FIELD + " Its steps are its orders.")
    step: int | None = Field(default=None, ge=0, description=STEP_FIELD)


class PhasedOrdersWhyNotResponse(WhyNotAnswer):
    # Optional outside the tagged union, so GraphQL makes it a nullable union.
    action: Annotated[PhasedOrdersAnyAction, Field(discriminator="type")] | None = Field(
        default=None, description=ACTION_FIELD)
    unit: str | None = Field(description="The unit asked about; null for an order that "
                             "names none (a commission).")
    hex: Axial | None = Field(description="The hex asked about; null for a step target.")
    step: int | None = Field(default=None, description="The order asked about (a step "
                             "target): ``violations`` are validate's for ``action`` located "
                             "at it, and ``possible`` says it is refused for nothing.")
    move: int | None = Field(description="The unit's move: the most hexes a move order "
                             "enters; null when no unit is asked about.")
    path: list[Axial] = Field(description="The path judged (the fewest hexes of the map, or "
                              "the order's own path), the unit's hex excluded.")


def _why_not_order(board: Board, plan: PhasedOrdersAnyAction, step: int
                   ) -> PhasedOrdersWhyNotResponse:
    at_step, violations = judged_step(judge, board, plan, step, len(plan.orders))
    order = plan.orders[step]
    unit = board.units.get(getattr(order, "unit", None) or "")
    path = list(order.path) if isinstance(order, PhasedOrdersMove) else []
    changes: list[WhyNotChange] = []
    if unit is not None and len(path) > unit.move:
        last = path[unit.move - 1] if unit.move else unit.hex
        changes.append(change(
            "path_too_long", f"the path enters {len(path)} hexes, {unit.id} moves "
            f"{unit.move}: {len(path) - unit.move} hex(es) too many; it reaches "
            f"({last.q},{last.r})", steps=len(path), move=unit.move,
            over=len(path) - unit.move, reaches=as_dict(last.key)))
    # Orders are checked each alone: an order refused for nothing, in a submission refused
    # for nothing as a whole, is one the player can give whatever the others are.
    return PhasedOrdersWhyNotResponse(
        possible=not at_step and not any(v.at.step is None for v in violations),
        action=plan, violations=at_step, changes=changes,
        unit=unit.id if unit is not None else None, hex=None, step=step,
        move=unit.move if unit is not None else None, path=path)


def run_why_not(request: PhasedOrdersWhyNotRequest) -> PhasedOrdersWhyNotResponse:
    one_target(request.plan, request.step, {"unit": request.unit, "hex": request.hex})
    board = compile_board(request.state)
    if request.plan is not None and request.step is not None:
        return _why_not_order(board, request.plan, request.step)
    assert request.unit is not None and request.hex is not None  # one_target
    problems = Problems()
    if request.unit not in board.units:
        problems.add(pointer("unit"), f"unknown unit {request.unit}")
    if request.hex.key not in board.hexes:
        problems.add(pointer("hex"), f"no hex ({request.hex.q},{request.hex.r}) on the map")
    problems.raise_if_any()
    unit = board.units[request.unit]
    path = fewest_steps(unit.hex.key, request.hex.key, board.hexes)
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

"""What happened to each order: carried out, partly carried out or failed, with a code,
the rule it cites, an English message and the params that fill it (so a frontend can show
each player, in its own language, what became of each of their orders), the phase that
settled it and, for a move, how far the unit got.

An order is settled by the phase that carries it out and may be settled again later (a
move carried out in phase 10 and then ejected in phase 11 ends partly carried out). A
result's status is always its code's, as the catalogue's ``order_results`` declares it: a
move halted (by an enemy, an archer, a communique) or ejected is partly carried out even
when it kept no step - ``steps`` says how far it got (0: it stayed where it started), the
code why. An order refused by a violation ends failed with that violation's code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import Field

from arbiter.engine.catalogue import TypedParams
from arbiter.engine.hexgrid import Axial, Hex
from arbiter.engine.outcome import render
from arbiter.engine.wire import Frozen

from .catalogue import RESULT_REFS, Status, result_params_models
from .models import PhasedOrdersAnyOrder, PhasedOrdersCommission


class PhasedOrdersResult(Frozen):
    order: int = Field(description="The order's index in the action's orders.")
    player: str
    subject: str = Field(description="The unit or stronghold the order was given to.")
    kind: str = Field(description="The order: move, hold, commission, ...")
    status: Status
    code: str
    rule: str
    message: str
    params: Annotated[dict[str, Any], TypedParams(
        "PhasedOrdersResultParams", "code", result_params_models)] = Field(
        default_factory=dict, description="The params of the result's message: those of "
        "its code (an order result's, or the violation's that refused the order).")
    phase: int = Field(description="The phase that settled the order.")
    hex: Axial | None = Field(default=None, description="A move: where the unit got to.")
    steps: int | None = Field(default=None, description="A move: the steps it kept.")


def subject_of(order: PhasedOrdersAnyOrder) -> str:
    return order.stronghold if isinstance(order, PhasedOrdersCommission) else order.unit


class Results:
    __slots__ = ("orders", "settled")

    def __init__(self, orders: Sequence[PhasedOrdersAnyOrder]) -> None:
        self.orders = orders
        self.settled: dict[int, PhasedOrdersResult] = {}

    def settle(self, index: int, code: str, phase: int, *, reached: Hex | None = None,
               kept: int | None = None, **params: Any) -> None:
        """``params`` fill the code's template; a move also gives the hex it ``reached`` and
        the steps it ``kept``. The status is always the code's own, as the catalogue's
        ``order_results`` declares it, so a client can map a code to its status."""
        ref = RESULT_REFS[code]
        order = self.orders[index]
        self.settled[index] = PhasedOrdersResult(
            order=index, player=order.player, subject=subject_of(order), kind=order.order,
            status=ref.status, code=code, rule=ref.rule,
            message=render(ref.template, params),
            params=params, phase=phase, hex=Axial.of(reached) if reached is not None else None,
            steps=kept)

    def refuse(self, index: int, code: str, message: str, params: dict[str, Any]) -> None:
        """The order broke a rule: it fails with the violation's code and message."""
        ref = RESULT_REFS[code]
        order = self.orders[index]
        self.settled[index] = PhasedOrdersResult(
            order=index, player=order.player, subject=subject_of(order), kind=order.order,
            status="failed", code=code, rule=ref.rule, message=message, params=params, phase=1)

    def is_settled(self, index: int) -> bool:
        return index in self.settled

    def listed(self) -> list[dict[str, Any]]:
        return [self.settled[i].model_dump(mode="json") for i in sorted(self.settled)]

"""The game master's decisions: the choices the source leaves to the players or to the
game master (an emergency communique, an archer's option to attack a unit flying over,
which allied unit is ejected, where a unit in an illegal position goes), looked up by
id in the request, or collected as pending.

A decision's id names what it is about, so the same request always asks the same
questions: ``communique:<unit>``, ``archer:<archer>:<flyer>``,
``ejection:<unit>+<unit>...`` (the allied units sharing the hex, sorted) and
``placement:<unit>``. A decision answered with something that is not one of its options
stops the turn (``decision_not_an_option``); a decision asked and not answered is
collected, and the phase that asked stops the turn once it has asked all the questions
it can ask at that point (``DecisionsPending``: every communique or archer's option of one
movement step, every ejection logistics can ask before any is answered), so the client
answers them together and sends the request again. Placements are asked one at a time,
each offering the hexes left free by the answers before it. Answers the turn never asks
for are reported as unused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from arbiter.engine.hexgrid import Axial, Hex
from arbiter.engine.wire import Frozen

from .catalogue import CATALOGUE
from .models import PhasedOrdersDecision, PhasedOrdersOption

Kind = Literal["communique", "archer", "ejection", "placement"]

# The violation code that reports a pending decision of each kind.
PENDING_CODE: dict[Kind, str] = {
    "communique": "communique_pending", "archer": "archer_option_pending",
    "ejection": "ejection_pending", "placement": "placement_pending",
}


class PhasedOrdersPendingDecision(Frozen):
    """A question the turn cannot go past without an answer: send back ``{"id": ...}`` with
    one of ``options`` in the action's ``decisions``."""

    id: str
    kind: Kind
    rule: str
    question: str = Field(description="The question in English (the violation's message).")
    phase: int
    subphase: str | None = None
    hex: Axial | None = None
    units: list[str] = Field(default_factory=list, description="The units it is about.")
    options: list[PhasedOrdersOption]


class DecisionsPending(Exception):
    """The turn stops here: these decisions are needed to go on."""

    def __init__(self, pending: Sequence[PendingQuestion]) -> None:
        super().__init__(", ".join(q.id for q in pending))
        self.pending = list(pending)


class NotAnOption(Exception):
    """A decision was answered with something it does not offer: the turn stops."""

    def __init__(self, decision: str, options: Sequence[PhasedOrdersOption]) -> None:
        super().__init__(decision)
        self.decision = decision
        self.options = list(options)


class PendingQuestion:
    """A question asked and not answered, with the message params of its violation."""

    __slots__ = ("hex", "id", "kind", "options", "params", "phase", "subphase", "units")

    def __init__(self, id: str, kind: Kind, options: Sequence[PhasedOrdersOption], *,
                 phase: int, subphase: str | None, hex: Hex | None, units: Sequence[str],
                 params: dict[str, object]) -> None:
        self.id = id
        self.kind = kind
        self.options = list(options)
        self.phase = phase
        self.subphase = subphase
        self.hex = hex
        self.units = list(units)
        self.params = params

    @property
    def code(self) -> str:
        return PENDING_CODE[self.kind]

    def model(self, question: str) -> PhasedOrdersPendingDecision:
        return PhasedOrdersPendingDecision(
            id=self.id, kind=self.kind, rule=CATALOGUE.codes[self.code].rule, question=question,
            phase=self.phase, subphase=self.subphase,
            hex=Axial.of(self.hex) if self.hex is not None else None, units=self.units,
            options=self.options)


class Decisions:
    """The request's answers by id, the questions left open, the answers used."""

    __slots__ = ("given", "pending", "used")

    def __init__(self, given: Sequence[PhasedOrdersDecision]) -> None:
        self.given = {d.id: d for d in given}
        self.used: set[str] = set()
        self.pending: list[PendingQuestion] = []

    def ask(self, question: PendingQuestion, default: PhasedOrdersOption | None = None
            ) -> PhasedOrdersOption | None:
        """The answer the request gives; else ``default`` when there is one (the request
        said what to do with unanswered questions of this kind); else None, and the
        question is pending."""
        answer = self.given.get(question.id)
        if answer is None:
            if default is None:
                self.pending.append(question)
            return default
        self.used.add(question.id)
        option = answer.option()
        if option not in question.options:
            raise NotAnOption(question.id, question.options)
        return option

    def stop_if_pending(self) -> None:
        if self.pending:
            raise DecisionsPending(self.pending)

    def unused(self) -> list[str]:
        return [d for d in self.given if d not in self.used]

"""The game master's decisions: the choices the source leaves to the players or to the
game master (an emergency communique, an archer's option to attack a unit flying over,
which allied unit is ejected, where a unit in an illegal position goes), looked up by
id in the request, or collected as pending.

A decision's id names what it is about, from what the orders and the state name, so a
client can build it before the turn asks (the catalogue's ``decision_ids``):
``communique:<q>,<r>:<player>`` (the contested hex (q,r), where the moves of players
neither allied nor at war end; one per player involved, who answers for its units there),
``archer:<archer>:<flyer>`` (the archer's owner's), ``ejection:<q>,<r>:<n>`` (the n-th unit
ejected from hex (q,r) in logistics, counted from 1; the stack's players' together) and
``placement:<unit>`` (the game master's). Unit ids hold neither ``:`` nor ``+`` (a 422 at
the id, ``board.check_unit_id``), and a player id comes last, so these ids are unambiguous:
no two decisions share one. A pending decision also names the ``unit`` it is for, the
``player`` who answers it and, for a communique, every player involved.

A question with a single option is no choice: it is applied without asking (an
ejection with one unit that can be ejected; a placement with one free hex, or with none,
where disbanding is the only option), and an answer given for it is checked all the same.
A decision answered with something that is not one of its options is a violation
(``decision_not_an_option``) and a decision asked and not answered is pending; the phase
that asked stops the turn once it has asked all the questions it can ask at that point
(``DecisionsPending``: every communique or archer's option of one movement step, every
ejection logistics can ask before any is answered), with every wrong answer and every
missing one, so the client fixes them together and sends the request again; the judge
then looks one stop further (``turn.py``) for the questions asked there whatever the
answers. Placements are asked one at a time, each offering the hexes left free by the
answers before it. An answer no question of the turn takes is refused (422 at its id).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from arbiter.engine.hexgrid import Axial, Hex
from arbiter.engine.outcome import render
from arbiter.engine.wire import Frozen

from .catalogue import CATALOGUE, QUESTIONS
from .models import PhasedOrdersDecision, PhasedOrdersOption

Kind = Literal["communique", "archer", "ejection", "placement"]

# The rule that asks each kind of question and its question's English template.
QUESTION_OF: dict[str, tuple[str, str]] = {
    kind: (CATALOGUE.rule(section), template) for kind, section, template in QUESTIONS}


class PhasedOrdersPendingDecision(Frozen):
    """A question the turn cannot go past without an answer: send back ``{"id": ...}`` with
    one of ``options`` in the action's ``decisions``. Only questions with two options or
    more are asked: a single option is applied without a decision."""

    id: str = Field(description="The decision's id, built from what the orders and the "
                    "state name, so a client can build it ahead: communique:<q>,<r>:<player> "
                    "(the contested hex, one per player involved), archer:<archer>:<flyer>, "
                    "ejection:<q>,<r>:<n> (the n-th unit ejected from hex (q,r), from 1) or "
                    "placement:<unit>.")
    kind: Kind
    rule: str
    question: str = Field(description="The question in English: its kind's template (the "
                          "catalogue's questions) filled in.")
    unit: str | None = Field(default=None, description="The unit the decision is for: "
                             "the archer that may attack, the unit to be placed; none for a "
                             "communique (it is about the player's units on the hex) or an "
                             "ejection (about the stack in units).")
    player: str | None = Field(default=None, description="The player who answers: the "
                               "player asked (communique), the archer's owner, or the owner "
                               "of every unit of an "
                               "ejection's stack when they are one player's; none when it is "
                               "not one player's - an ejection among several allied "
                               "players' units (they choose together), a placement (the "
                               "game master's discretion), units no player controls.")
    phase: int = Field(description="The phase that asks: 0 (an emergency communique, which "
                       "interrupts phase 10), 10 (an archer's option), 11 (an ejection), 18 "
                       "(a placement).")
    subphase: str | None = Field(default=None, description="The movement subphase of a "
                                 "communique or an archer's option (3a-3e, or a priority "
                                 "subphase such as 3b-priority).")
    hex: Axial | None = Field(default=None, description="The contested hex, the hex flown "
                              "over, the stack's hex, or the hex the unit to place is on.")
    units: list[str] = Field(default_factory=list, description="The units it is about: "
                             "every unit of the communique, the archer and the flyer, the "
                             "allied units sharing the hex, the unit to place.")
    players: list[str] = Field(default_factory=list, description="A communique: every "
                               "player involved, each asked the same question about its own "
                               "units on the hex (one decision per player).")
    options: list[PhasedOrdersOption]


class DecisionsPending(Exception):
    """The turn stops here: these decisions are needed to go on - those not answered
    (``pending``) and those answered with something they do not offer (``wrong``)."""

    def __init__(self, pending: Sequence[PendingQuestion],
                 wrong: Sequence[PendingQuestion] = ()) -> None:
        super().__init__(", ".join(q.id for q in [*wrong, *pending]))
        self.pending = list(pending)
        self.wrong = list(wrong)

    @property
    def first(self) -> PendingQuestion:
        """The first question asked where the turn stopped."""
        return (self.pending or self.wrong)[0]


class PendingQuestion:
    """A question asked and not answered, with the message params of its violation."""

    __slots__ = ("hex", "id", "kind", "options", "params", "phase", "player", "players",
                 "subphase", "unit", "units")

    def __init__(self, id: str, kind: Kind, options: Sequence[PhasedOrdersOption], *,
                 phase: int, subphase: str | None, hex: Hex | None, units: Sequence[str],
                 params: dict[str, object], unit: str | None = None,
                 player: str | None = None, players: Sequence[str] = ()) -> None:
        self.id = id
        self.kind = kind
        self.options = list(options)
        self.phase = phase
        self.subphase = subphase
        self.hex = hex
        self.units = list(units)
        self.params = params
        self.unit = unit
        self.player = player
        self.players = list(players)

    def model(self) -> PhasedOrdersPendingDecision:
        rule, template = QUESTION_OF[self.kind]
        return PhasedOrdersPendingDecision(
            id=self.id, kind=self.kind, rule=rule, question=render(template, self.params),
            unit=self.unit, player=self.player, phase=self.phase, subphase=self.subphase,
            hex=Axial.of(self.hex) if self.hex is not None else None, units=self.units,
            players=self.players, options=self.options)


class Decisions:
    """The request's answers by id, the questions left open, the answers used."""

    __slots__ = ("given", "pending", "used", "wrong")

    def __init__(self, given: Sequence[PhasedOrdersDecision]) -> None:
        self.given = {d.id: d for d in given}
        self.used: set[str] = set()
        self.pending: list[PendingQuestion] = []
        self.wrong: list[PendingQuestion] = []

    def ask(self, question: PendingQuestion, default: PhasedOrdersOption | None = None
            ) -> PhasedOrdersOption | None:
        """The answer the request gives; else the only option, when there is one; else
        ``default`` when there is one (the request said what to do with unanswered
        questions of this kind); else None, and the question is pending. An answer that is
        not one of the options gives None too, and the question is answered wrongly: the
        next ``stop_if_pending`` stops the turn."""
        answer = self.given.get(question.id)
        if answer is None:
            if len(question.options) == 1:
                return question.options[0]
            if default is None:
                self.pending.append(question)
            return default
        self.used.add(question.id)
        option = answer.option()
        if option not in question.options:
            self.wrong.append(question)
            return None
        return option

    def stop_if_pending(self) -> None:
        if self.pending or self.wrong:
            raise DecisionsPending(self.pending, self.wrong)

    def unused(self) -> list[str]:
        return [d for d in self.given if d not in self.used]

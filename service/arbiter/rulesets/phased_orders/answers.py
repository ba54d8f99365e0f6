"""Which questions a stopped turn asks at once, and which answers no question of the turn
can take (decisions.1).

Asked at once: the questions of the point where the turn stops, and those of the next
point it would stop at that come the same (same id, same options) whatever the answers to
the first - found by resolving the turn again under every combination of those answers
(at most ``LOOK_AHEAD_BRANCHES``, and fewer the more units the turn has:
``LOOK_AHEAD_UNITS``; a turn that resolves under one combination asks nothing more for
certain). A question that depends on an answer not given is left for the next
round: it may not be asked at all, or offer other options.

Refused (422 at ``/action/decisions/<i>/id``): an id of none of the four forms, or naming
what the state and the orders do not hold (``check_decision_ids``, before the turn runs),
and an answer the turn went past without asking (``refuse_unasked``, after it ran): a
resolved turn asks nothing more, a turn stopped in logistics asks no more communiques or
archers' options, one stopped in finishing no more ejections either. A typo is so told at
once, rather than left to wait for a question that never comes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.hexgrid import Hex
from arbiter.engine.outcome import Verdict

from .board import Board
from .catalogue import CATALOGUE
from .decisions import Decisions, DecisionsPending, PendingQuestion
from .models import MAX_UNITS, PhasedOrdersDecision, PhasedOrdersMove, PhasedOrdersResolve
from .orders import Plan
from .phases import run_turn
from .world import World

# The most combinations of answers the look-ahead resolves the turn under (2 questions of
# 2 options: 4; 4 questions: 16), and the most units times combinations (each branch is a
# whole turn again: a big turn looks ahead less, so no request costs more than about this
# many units' turns beyond its own); beyond either, only the stop's own questions are asked.
LOOK_AHEAD_BRANCHES = 16
LOOK_AHEAD_UNITS = 4_000

# The phase in which each kind of question is asked (a communique interrupts movement).
ASKED_IN = {"communique": 10, "archer": 10, "ejection": 11, "placement": 18}


def look_ahead(board: Board, action: PhasedOrdersResolve, plan: Plan,
               stop: DecisionsPending) -> list[PendingQuestion]:
    """The questions the turn asks at its next stop whatever the answers to ``stop``'s."""
    asked = [*stop.wrong, *stop.pending]
    branches = math.prod(len(q.options) for q in asked)
    if not asked or branches > LOOK_AHEAD_BRANCHES \
            or branches * len(board.units) > LOOK_AHEAD_UNITS:
        return []
    common: dict[str, PendingQuestion] | None = None
    for combo in itertools.product(*(q.options for q in asked)):
        given = [*action.decisions, *(
            PhasedOrdersDecision(id=q.id, choice=o.choice, unit=o.unit, hex=o.hex)
            for q, o in zip(asked, combo, strict=True))]
        world = World(board, action.model_copy(update={"decisions": given}), plan,
                      Verdict(CATALOGUE))
        try:
            run_turn(world)
        except DecisionsPending as then:
            common = _alike(common, then.pending)
            continue
        return []  # resolved under these answers: nothing more is asked for certain
    return list(common.values()) if common else []


def _alike(common: dict[str, PendingQuestion] | None, found: Sequence[PendingQuestion]
           ) -> dict[str, PendingQuestion]:
    """The questions asked in every branch so far, with the same options in each."""
    mine = {q.id: q for q in found}
    if common is None:
        return mine
    return {i: q for i, q in common.items() if i in mine and mine[i].options == q.options}


def refuse_unasked(action: PhasedOrdersResolve, decisions: Decisions,
                   stopped_in: int | None) -> None:
    """422 for each answer the turn went past without asking: any left unused once the
    turn resolved (``stopped_in`` None), or of a kind asked before the phase it stopped in
    (a communique is phase 0, interrupting movement: phase 10)."""
    unused = set(decisions.unused())
    phase = ASKED_IN["communique"] if stopped_in == 0 else stopped_in
    problems = Problems()
    for i, decision in enumerate(action.decisions):
        if decision.id not in unused:
            continue
        asked_in = ASKED_IN.get(decision.id.partition(":")[0], 0)
        if phase is None:
            problems.add(pointer("action", "decisions", i, "id"), f"the turn resolved "
                         f"without asking {decision.id}: no question takes this answer")
        elif asked_in < phase:
            problems.add(pointer("action", "decisions", i, "id"), f"the turn went past "
                         f"phase {asked_in} without asking {decision.id}: no question "
                         "takes this answer")
    problems.raise_if_any()


def check_decision_ids(board: Board, plan: Plan, new_units: set[str],
                       decisions: Sequence[PhasedOrdersDecision], problems: Problems) -> None:
    """Each answer's id is of one of the four forms and names what the turn holds."""
    for i, decision in enumerate(decisions):
        wrong = _id_problem(board, plan, new_units, decision.id)
        if wrong is not None:
            problems.add(pointer("action", "decisions", i, "id"), wrong)


FORMS = ("communique:<q>,<r>:<player>, archer:<archer>:<flyer>, ejection:<q>,<r>:<n> or "
         "placement:<unit>")


def _id_problem(board: Board, plan: Plan, new_units: set[str], id: str) -> str | None:
    kind, _, rest = id.partition(":")
    first, sep, last = rest.partition(":")
    if kind == "placement":
        return None if rest in board.units or rest in new_units else \
            f"{id}: no unit {rest} to place"
    if kind not in ("communique", "archer", "ejection") or not sep:
        return f"{id} is none of the decision ids: {FORMS}"
    if kind == "archer":
        if first not in board.units or not board.units[first].archer:
            return f"{id}: no archer {first}"
        if last not in board.units or not board.units[last].flying:
            return f"{id}: no flying unit {last}"
        return None
    spot = _hex(first)
    if spot is None or spot not in board.hexes:
        return f"{id}: no hex {first} on the map"
    if kind == "ejection":
        if not last.isdigit() or not 1 <= int(last) <= MAX_UNITS:
            return f"{id}: the ejection's number is counted from 1"
        return None
    if not any(isinstance(o, PhasedOrdersMove) and o.player == last and o.path
               and o.path[-1].key == spot for o in plan.orders):
        return f"{id}: no move of a player {last} ends on {first}, where a communique " \
            "would be"
    return None


def _hex(text: str) -> Hex | None:
    q, sep, r = text.partition(",")
    try:
        return (int(q), int(r)) if sep else None
    except ValueError:
        return None

"""Judging the two actions: ``resolve`` (a whole turn through phases 1-19) and ``submit``
(one player's orders, checked alone).

``resolve`` checks the orders (``orders.py``: malformed ones are 422 problems, rule
breaches violations) and the rest of the request (decisions, combat results and level
ups that name nothing in the state are 422 problems), then runs the phases over a
``World``, which enters every change in the turn's ledger. The derived facts carry a
result for every order, the units and strongholds left without one, and the trace's
phases. Where a decision is needed and the request
does not give it, the turn stops before going past that point: ``derived.status`` is
``pending`` and ``derived.pending_decisions`` lists the questions with their options. A
question waiting for its answer breaks no rule, so it is no violation: a turn stopped for
decisions alone is legal and not applied, whatever the mode (the turn's effect is not
defined without them). A decision answered with something it does not offer is a
``decision_not_an_option`` violation, every one found at that point (not just the first).
The same request with the decisions resolves the turn, the same way every time. A
resolution that drew from the seed is not reversible.

``derived.status`` says where the turn got, in the same words on ``validate`` and on the
``resolve`` query: ``resolved`` (it ran through phase 19 and broke no rule), ``pending``
(it stopped for decisions and broke no rule so far) or ``illegal`` (a rule is broken: the
violations say which; in advisory mode such a turn may still be applied - ``applied``
says so - and a stopped one still lists its pending decisions).
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.draft import Draft
from arbiter.engine.errors import Problems, pointer
from arbiter.engine.hexgrid import Hex
from arbiter.engine.index import check_ref
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Event, Verdict, location

from .answers import check_decision_ids, look_ahead, refuse_unasked
from .board import Board
from .catalogue import PHASE_NAMES
from .decisions import DecisionsPending, PendingQuestion
from .ledger import Ledger
from .models import PhasedOrdersCommission, PhasedOrdersResolve, PhasedOrdersSubmit
from .orders import Plan, check_orders, unordered
from .phases import run_turn
from .world import World


def judge_submit(board: Board, action: PhasedOrdersSubmit, verdict: Verdict) -> Judgement:
    problems = Problems()
    check_ref(action.player, board.players, ("action", "player"), "player", problems)
    problems.raise_if_any()
    plan = check_orders(board, action.orders, verdict, player=action.player)
    derived = {"orders": len(action.orders),
               "refused": sorted(plan.refused),
               "unordered": unordered(board, plan, action.player)}
    # Submitting orders changes nothing: the state comes back as it was (a ledger nothing
    # is written into).
    return Judgement(verdict, lambda: Ledger(board.state).draft, derived)


def judge_resolve(board: Board, action: PhasedOrdersResolve, verdict: Verdict) -> Judgement:
    plan = check_orders(board, action.orders, verdict,
                        more=lambda plan, problems: check_turn_data(board, action, plan,
                                                                    problems))
    world = World(board, action, plan, verdict)
    # The phases draw from the seed as they go (starvation, bandits, a melee's order).
    verdict.draw()
    try:
        run_turn(world)
    except DecisionsPending as stop:
        refuse_unasked(action, world.decisions, stop.first.phase)
        stopped = _stopped(verdict, stop)
        status, halt = "pending" if verdict.legal else "illegal", stop  # kept past except

        def facts() -> dict[str, Any]:
            # Looked up only when the answer is written (legal-actions reads the verdict).
            return {"status": status, **stopped, **_ahead(stopped, look_ahead(
                board, action, plan, halt))}
        return Judgement(verdict, derived=facts)
    refuse_unasked(action, world.decisions, None)

    def apply() -> Draft:
        return world.ledger.draft

    derived: dict[str, Any] = {
        "status": "resolved" if verdict.legal else "illegal",
        "results": world.results.listed(),
        "unordered": unordered(board, plan),
        "phases": phase_summary(verdict.events),
        "unused_decisions": world.decisions.unused(),
        "unused_combat_results": world.unused_combat_results,
    }
    return Judgement(verdict, apply, derived, reversible=not world.drew)


def _stopped(verdict: Verdict, stop: DecisionsPending) -> dict[str, Any]:
    """Every decision answered with something it does not offer, each a violation; the
    missing ones listed with their options (a question, not a violation)."""
    for question in stop.wrong:
        verdict.violate("decision_not_an_option", at=location(hex=question.hex), fatal=True,
                        decision=question.id,
                        options=[o.model_dump(mode="json", exclude_none=True)
                                 for o in question.options])
    pending = [question.model().model_dump(mode="json") for question in stop.pending]
    first = stop.first
    out: dict[str, Any] = {"stopped_at": {"phase": first.phase, "subphase": first.subphase}}
    if pending:
        out["pending_decisions"] = pending
    return out


def _ahead(stopped: dict[str, Any], ahead: list[PendingQuestion]) -> dict[str, Any]:
    """The questions of the next stop, after those of this one."""
    if not ahead:
        return {}
    return {"pending_decisions": [*stopped.get("pending_decisions", []),
                                  *(q.model().model_dump(mode="json") for q in ahead)]}


def phase_summary(events: list[Event]) -> list[dict[str, Any]]:
    """The trace grouped by phase, in order: each run of events of one phase, with its
    name and how many events it holds. A communique's events (phase 0) count in the phase
    they interrupt, so they do not split it in two."""
    out: list[dict[str, Any]] = []
    for event in events:
        phase = phase_under_way(event)
        if not out or out[-1]["phase"] != phase:
            out.append({"phase": phase, "name": PHASE_NAMES.get(phase, ""), "events": 0})
        out[-1]["events"] += 1
    return out


def phase_under_way(event: Event) -> int:
    """The phase the turn is in at ``event``: its own, or the one a communique interrupts."""
    return int(event.params.get("interrupts", event.params.get("phase", 0)))


def check_turn_data(board: Board, action: PhasedOrdersResolve, plan: Plan,
                    problems: Problems) -> None:
    """The decisions, combat results and level ups must name what the state holds."""
    seen: set[str] = set()
    for i, decision in enumerate(action.decisions):
        if decision.id in seen:
            problems.add(pointer("action", "decisions", i, "id"),
                         f"decision {decision.id} is listed twice")
        seen.add(decision.id)
    hexes: set[Hex] = set()
    for i, result in enumerate(action.combat_results):
        key = result.hex.key
        at = ("action", "combat_results", i)
        if key not in board.hexes:
            problems.add(pointer(*at, "hex"), f"no hex ({key[0]},{key[1]}) on the map")
        elif key in hexes:
            problems.add(pointer(*at, "hex"), f"hex ({key[0]},{key[1]}) is listed twice")
        hexes.add(key)
        for j, survivor in enumerate(result.survivors):
            check_ref(survivor.unit, board.units, (*at, "survivors", j, "unit"), "unit",
                      problems)
    new_units = {o.new_unit for o in plan.orders if isinstance(o, PhasedOrdersCommission)}
    check_decision_ids(board, plan, new_units, action.decisions, problems)
    levelled: set[str] = set()
    for i, level_up in enumerate(action.level_ups):
        where = ("action", "level_ups", i, "unit")
        if check_ref(level_up.unit, set(board.units) | new_units, where, "unit", problems):
            if level_up.unit in levelled:
                problems.add(pointer(*where), f"unit {level_up.unit} is listed twice")
            levelled.add(level_up.unit)

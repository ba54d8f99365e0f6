"""The derived question a frontend or a game master asks of a state beside the engine's
``legal-actions``, served at ``POST /v1/rulesets/phased_orders/resolve``: the state, every
player's orders and the decisions in; the turn's status, the new state, the trace (the
events and the phases counting them, validate's shape), a result for every order out - or
the pending decisions, each with its options, when the turn cannot go on without them. It
is ``validate`` of a ``resolve`` action, answered in the turn's own terms (the trace is
given as far as the resolution went, also when nothing is applied), its 422 pointers into
this body (``/orders/0/unit``, not validate's ``/action/orders/0/unit``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from arbiter.engine.judging import conclude
from arbiter.engine.outcome import Event, Violation
from arbiter.engine.wire import Frozen

from .board import compile_board
from .catalogue import CATALOGUE
from .decisions import PhasedOrdersPendingDecision
from .derived import TURN_STATUS_WORDS, PhasedOrdersPhaseFacts, TurnStatus
from .judge import from_action, judge
from .models import (
    MAX_DECISIONS,
    MAX_HEXES,
    MAX_ORDERS,
    MAX_UNITS,
    PhasedOrdersCombatResult,
    PhasedOrdersDecision,
    PhasedOrdersLevelUp,
    PhasedOrdersOrder,
    PhasedOrdersResolve,
    PhasedOrdersState,
)
from .results import PhasedOrdersResult
from .turn import phase_summary


class PhasedOrdersResolveRequest(Frozen):
    state: PhasedOrdersState
    orders: list[PhasedOrdersOrder] = Field(default_factory=list, max_length=MAX_ORDERS)
    decisions: list[PhasedOrdersDecision] = Field(default_factory=list,
                                                  max_length=MAX_DECISIONS)
    combat_results: list[PhasedOrdersCombatResult] = Field(default_factory=list,
                                                           max_length=MAX_HEXES)
    level_ups: list[PhasedOrdersLevelUp] = Field(default_factory=list, max_length=MAX_UNITS)
    unanswered_communiques: Literal["pending", "follow_orders"] = "pending"
    mode: Literal["strict", "advisory"] = Field(
        default="strict", description="advisory: resolve the turn even when orders break a "
        "rule (those orders fail) and return their violations as warnings.")


class PhasedOrdersTracePhase(Frozen):
    phase: int
    name: str
    events: list[Event]


class PhasedOrdersStop(Frozen):
    phase: int
    subphase: str | None = None


class PhasedOrdersResolveResponse(Frozen):
    status: TurnStatus = Field(description=TURN_STATUS_WORDS)
    resolved: bool = Field(description="The turn was resolved and ``state`` holds the result.")
    legal: bool = Field(description="No rule is broken: true for a turn waiting for "
                        "decisions (status pending) too.")
    state: dict[str, Any] | None = None
    state_hash: str | None = None
    reversible: bool = Field(default=True, description="False when the turn drew from the "
                             "seed (starvation, a bandit's spawn hex).")
    violations: list[Violation] = Field(default_factory=list)
    events: list[Event] = Field(
        default_factory=list, description="The turn's trace, as validate's events: every "
        "event in the order it happened, as far as the resolution went (also when the turn "
        "stopped or was not applied). Each event's params carry its phase and, in movement, "
        "its subphase: 3a-3e, X-priority after a unit entered a road hex in subphase X (a "
        "chain of road hexes gives consecutive X-priority subphases, all before the next "
        "regular one), 10b for predation. Phase 0 (an emergency communique) carries the "
        "phase it interrupts.")
    phases: list[PhasedOrdersPhaseFacts] = Field(
        default_factory=list, description="events by phase, as validate's derived.phases: "
        "each run of one phase with its name and how many of events it holds, in order (a "
        "communique's events count in the phase they interrupt).")
    trace: list[PhasedOrdersTracePhase] = Field(
        default_factory=list, deprecated=True, description="Deprecated, for one version: "
        "events grouped as phases groups them; read events and phases, the shape validate "
        "answers too.")
    results: list[PhasedOrdersResult] = Field(default_factory=list)
    unordered: list[str] = Field(default_factory=list, description="Units and strongholds "
                                 "without an order: they did nothing.")
    pending_decisions: list[PhasedOrdersPendingDecision] = Field(
        default_factory=list, description="The decisions the turn needs to go on, each with "
        "its options; decisions answered with something they do not offer are "
        "decision_not_an_option violations instead (every one found).")
    stopped_at: PhasedOrdersStop | None = None
    unused_decisions: list[str] = Field(
        default_factory=list, description="Always empty: an answer no question of the turn "
        "takes is refused (422 at its id). Kept for the clients that read it.")
    unused_combat_results: list[int] = Field(default_factory=list)


def grouped(events: list[Event]) -> list[PhasedOrdersTracePhase]:
    """The deprecated trace: ``events`` cut as ``phase_summary`` counts them."""
    out: list[PhasedOrdersTracePhase] = []
    start = 0
    for run in phase_summary(events):
        out.append(PhasedOrdersTracePhase(phase=run["phase"], name=run["name"],
                                          events=events[start:start + run["events"]]))
        start += run["events"]
    return out


def run_resolve(request: PhasedOrdersResolveRequest) -> PhasedOrdersResolveResponse:
    board = compile_board(request.state)
    action = PhasedOrdersResolve(
        type="resolve", orders=request.orders, decisions=request.decisions,
        combat_results=request.combat_results, level_ups=request.level_ups,
        unanswered_communiques=request.unanswered_communiques)
    with from_action():  # /orders/0/unit: this body's fields, not validate's /action/...
        judgement = judge(board, action)
    outcome = conclude(CATALOGUE.ruleset, CATALOGUE.version, judgement, request.mode,
                       PhasedOrdersState).outcome
    derived = outcome.derived
    return PhasedOrdersResolveResponse(
        status=derived["status"], resolved=outcome.applied, legal=outcome.legal,
        state=outcome.state, state_hash=outcome.state_hash, reversible=outcome.reversible,
        violations=outcome.violations, events=judgement.verdict.events,
        phases=phase_summary(judgement.verdict.events),
        trace=grouped(judgement.verdict.events),
        results=derived.get("results", []), unordered=derived.get("unordered", []),
        pending_decisions=derived.get("pending_decisions", []),
        stopped_at=derived.get("stopped_at"),
        unused_decisions=derived.get("unused_decisions", []),
        unused_combat_results=derived.get("unused_combat_results", []))

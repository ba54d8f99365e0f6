"""The model of a phased_orders outcome's ``derived`` facts (``turn``): a submission's
orders, a resolved turn's results and trace by phase, or where a turn stopped for
decisions. The judge builds plain dicts (the hot path); this model types them for
GraphQL, OpenAPI and the test that they match (tests/contract/test_catalogue_params.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from arbiter.engine.wire import Frozen

from .decisions import PhasedOrdersPendingDecision
from .results import PhasedOrdersResult


class PhasedOrdersPhaseFacts(Frozen):
    phase: int
    name: str
    events: int = Field(description="The events of this run of the phase in the trace (a "
                        "communique's, phase 0, count in the phase they interrupt).")


class PhasedOrdersStop(Frozen):
    phase: int
    subphase: str | None


TurnStatus = Literal["resolved", "pending", "illegal"]
TURN_STATUS_WORDS = (
    "A turn (resolve): resolved - it ran through phase 19 and "
    "breaks no rule; pending - it stopped for the decisions in pending_decisions and breaks "
    "no rule so far (legal is true, nothing is applied: answer them and send the request "
    "again); illegal - a rule is broken (the violations; in advisory mode the turn may "
    "still be applied, as applied says, and a turn that stopped lists its pending "
    "decisions too).")


class PhasedOrdersDerived(Frozen):
    """A submission: ``orders``, ``refused``, ``unordered``. A turn: its ``status``; once
    it ran to its end ``results``, ``unordered``, ``phases``, ``unused_decisions``,
    ``unused_combat_results``; stopped for decisions, ``stopped_at`` and the
    ``pending_decisions``."""

    status: TurnStatus | None = Field(default=None, description=TURN_STATUS_WORDS
                                      + " null for a submission.")
    orders: int | None = Field(default=None, description="The orders submitted.")
    refused: list[int] | None = Field(default=None, description="The indexes of the "
                                      "orders a rule refuses.")
    unordered: list[str] | None = Field(default=None, description="Units and strongholds "
                                        "without an order.")
    results: list[PhasedOrdersResult] | None = None
    phases: list[PhasedOrdersPhaseFacts] | None = None
    unused_decisions: list[str] | None = Field(
        default=None, description="Always empty: an answer no question of the turn takes is "
        "refused (422 at its id). Kept for the clients that read it.")
    unused_combat_results: list[int] | None = None
    stopped_at: PhasedOrdersStop | None = None
    pending_decisions: list[PhasedOrdersPendingDecision] | None = None

"""The model of a phased_orders outcome's ``derived`` facts (``turn``): a submission's
orders, a resolved turn's results and trace by phase, or where a turn stopped for
decisions. The judge builds plain dicts (the hot path); this model types them for
GraphQL, OpenAPI and the test that they match (tests/contract/test_catalogue_params.py)."""

from __future__ import annotations

from pydantic import Field

from arbiter.engine.wire import Frozen

from .decisions import PhasedOrdersPendingDecision
from .results import PhasedOrdersResult


class PhasedOrdersPhaseFacts(Frozen):
    phase: int
    name: str
    events: int = Field(description="The events of this run of the phase in the trace.")


class PhasedOrdersStop(Frozen):
    phase: int
    subphase: str | None


class PhasedOrdersDerived(Frozen):
    """A submission: ``orders``, ``refused``, ``unordered``. A resolved turn: ``results``,
    ``unordered``, ``phases``, ``unused_decisions``, ``unused_combat_results``. A turn
    stopped for decisions: ``stopped_at`` and the ``pending_decisions``."""

    orders: int | None = Field(default=None, description="The orders submitted.")
    refused: list[int] | None = Field(default=None, description="The indexes of the "
                                      "orders a rule refuses.")
    unordered: list[str] | None = Field(default=None, description="Units and strongholds "
                                        "without an order.")
    results: list[PhasedOrdersResult] | None = None
    phases: list[PhasedOrdersPhaseFacts] | None = None
    unused_decisions: list[str] | None = None
    unused_combat_results: list[int] | None = None
    stopped_at: PhasedOrdersStop | None = None
    pending_decisions: list[PhasedOrdersPendingDecision] | None = None

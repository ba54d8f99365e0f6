"""A realistic request body for benchmarking ``territory_conquest``'s ``conquest-cost``.

The Conquest board is small by nature (about a dozen territories), so the body is the
real size: the illustrative twelve-territory board of tests/rulesets/
territory_conquest_boards.py in the middle of a Conquest phase — both players spread over
the board, Red to act with 9 soldier tokens and a double move — asking for the cost of
every territory (no ``targets``), with and without double move. Deterministic.
"""

from __future__ import annotations

from typing import Any

try:
    from ..rulesets.territory_conquest_boards import RED, mid_phase_state
except ImportError:  # imported as a top-level ``bench`` package (tests/ on sys.path)
    from rulesets.territory_conquest_boards import RED, mid_phase_state  # type: ignore[no-redef]


def conquest_cost_request() -> dict[str, Any]:
    """The JSON body for POST /v1/rulesets/territory_conquest/conquest-cost."""
    return {"state": mid_phase_state(), "player": RED}

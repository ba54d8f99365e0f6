"""What phased_orders hides: the seed of the turn's random draws (starvation, bandits
spawning, the striking order of a melee), and each player's orders until the turn
resolves (orders.1: every player orders at once; the turn reveals them all)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbiter.engine.information import Hidden, Information, Private

from .models import PhasedOrdersAnyAction, PhasedOrdersResolve, PhasedOrdersSubmit

RULES = "phased_orders/"
SEED = Hidden("/rng", "the seed of every random draw of a turn",
              "never: only its draws are, in the resolved turn's events",
              (RULES + "starvation.1", RULES + "bandits.3"))
def gather(resolving: Any, submitted: Sequence[PhasedOrdersSubmit]) -> Any:
    """A turn resolved (the resolve action, or the resolve query's request) with the
    orders each player sealed added to those it gives in the clear."""
    orders = [*resolving.orders, *(o for s in submitted for o in s.orders)]
    return resolving.model_copy(update={"orders": orders})


def example(resolving: Mapping[str, Any]) -> dict[str, Any]:
    """The first player's orders of a turn (as JSON), as that player's submit."""
    orders = resolving.get("orders", [])
    player = orders[0]["player"] if orders else ""
    return {"type": "submit", "player": player,
            "orders": [o for o in orders if o["player"] == player]}


ORDERS = Private("submit", "one player's orders for the turn",
                 "all at once, when the turn resolves", "resolve", gather, example,
                 (RULES + "orders.1",))


def reads(action: PhasedOrdersAnyAction) -> Sequence[str]:
    """Resolving a turn draws with the seed; submitting orders draws nothing."""
    return (SEED.pointer,) if isinstance(action, PhasedOrdersResolve) else ()


INFORMATION = Information(chance="seeded", hidden=(SEED,), private=(ORDERS,), reads=reads,
                          drawing_queries=frozenset({"resolve", "render"}))

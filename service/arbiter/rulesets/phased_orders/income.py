"""Phase 19 - Natural Income: "Strongholds and Capitals generate resources (3 and 4,
respectively)." (income.1; the options ``stronghold_income`` and ``capital_income``)"""

from __future__ import annotations

from .world import World


def phase_income(world: World) -> None:
    options = world.options
    for stronghold in world.board.state.strongholds:
        amount = options.capital_income if stronghold.capital else options.stronghold_income
        if amount == 0:
            continue
        stored = world.stored[stronghold.id] + amount
        world.set_stored(stronghold.id, stored)
        world.trace.event("income_generated", stronghold=stronghold.id, amount=amount,
                          resources=stored)

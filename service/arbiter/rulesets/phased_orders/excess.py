"""Phase 17 - Excess: "Strongholds and Capitals with more than their maximum amount of
resources donate the excess to charity." (excess.1)

Income comes after, in phase 19, so a stronghold may end a turn above its maximum; the
excess goes at the next turn's phase 17.
"""

from __future__ import annotations

from .world import World


def phase_excess(world: World) -> None:
    for stronghold in world.board.state.strongholds:
        stored = world.stored[stronghold.id]
        if stored > stronghold.maximum:
            world.set_stored(stronghold.id, stronghold.maximum)
            world.trace.event("excess_donated", stronghold=stronghold.id,
                              excess=stored - stronghold.maximum, resources=stronghold.maximum)

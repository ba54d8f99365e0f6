"""What a region_conquest state hides in digital mode: the seed the reinforcement die is
rolled with (reinforce.4). The map, the tokens in hand and on the board are open."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.engine.information import Hidden, Information

from .models import RegionConquestAnyAction, RegionConquestFinalConquest

SEED = Hidden("/rng", "the seed the reinforcement die is rolled with",
              "never: only the die's result is, when a final conquest rolls it",
              ("region_conquest/reinforce.4",))


def reads(action: RegionConquestAnyAction) -> Sequence[str]:
    """A final conquest may roll the reinforcement die."""
    return (SEED.pointer,) if isinstance(action, RegionConquestFinalConquest) else ()


INFORMATION = Information(chance="seeded or reported", hidden=(SEED,), reads=reads)

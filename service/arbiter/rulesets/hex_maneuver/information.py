"""What a hex_maneuver state hides in digital mode: the face-down province tile stack, the
relic bag, the event deck and the seed the service draws with. Each is revealed only by
an exploration, and only in part: the tile flipped (explore.3), the relic placed on it
(relic.3), the event card turned face up (event.1)."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.engine.information import Hidden, Information

from .models import HexManeuverAnyAction, HexManeuverExplore

RULES = "hex_maneuver/"
# The rules whose verdicts read the flipped tile: how it fits (explore.3-4), whether its
# symbol calls for a relic (relic.1-2), and whether the explorers leave units stranded
# (ferry.1): they leave only if the tile lets them land.
TILES = Hidden("/tiles", "the face-down province tile stack, top first",
               "the top tile, when an exploration flips and lays it",
               tuple(RULES + r for r in ("explore.3", "explore.4", "relic.1", "relic.2",
                                         "ferry.1")),
               shuffled=True)
RELIC_BAG = Hidden("/relics/bag", "the relics not yet placed, drawn at random",
                   "the relic drawn, when an exploration places one", (RULES + "relic.3",))
EVENT_DECK = Hidden("/events/deck", "the event deck, top card first",
                    "the top card, when an exploration flips it into a row",
                    (RULES + "event.1",), shuffled=True)
SEED = Hidden("/rng", "the seed of the service's draws", "never: only its draws are")
DRAWN_BY_EXPLORING = tuple(h.pointer for h in (TILES, RELIC_BAG, EVENT_DECK, SEED))


def reads(action: HexManeuverAnyAction) -> Sequence[str]:
    """An exploration flips a tile, may draw a relic and flips an event card."""
    return DRAWN_BY_EXPLORING if isinstance(action, HexManeuverExplore) else ()


def chosen_on_reveal(action: HexManeuverAnyAction) -> Sequence[str]:
    """explore.4: the rotation is chosen with the flipped tile in view. In a sealed game
    the tile is unseen until the answer, so the rules' default rotation is laid (the first
    meeting the highest-priority conditions)."""
    if isinstance(action, HexManeuverExplore) and action.rotation is not None:
        return ("rotation",)
    return ()


INFORMATION = Information(chance="seeded or reported", hidden=(TILES, RELIC_BAG, EVENT_DECK, SEED),
                          reads=reads, chosen_on_reveal=chosen_on_reveal)

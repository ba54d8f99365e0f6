"""``hex_maneuver``: army maneuver and exploration on a hex map, after the Maneuver and
Exploration rules of *Glory of Civilizations* (see ``../shared/rules/hex_maneuver.md``).

Modules: ``models`` (wire shapes), ``catalogue`` (rules, codes, events, the default unit
catalogue), ``board`` (state consistency, indexes and the cached map index), ``terrain``
(the price of entering one hex), ``maneuver`` (a path judged: pick-ups, drops, steps,
movement points), ``ferry`` (no land units left stranded at sea when a maneuver ends),
``ledger`` (the working copy an action's effect is written into), ``moves`` (a maneuver
applied to the ledger), ``explore`` (the tile, its rotation, relics and the event card),
``reach`` (where a column can go, what it has in range), ``judge`` (the action to its
rules), ``candidates`` (the pseudo-legal generator), ``queries`` (reachable),
``examples`` (a board to paste), ``ruleset`` (the parts assembled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.rulesets import built_on_first_use

if TYPE_CHECKING:
    from .ruleset import RULESET

# The queries it answers, declared so that `arbiter --help` lists them without building
# the models (``arbiter.rulesets.load`` refuses a RULESET that answers others).
ANSWERS = ("legal-actions", "reachable", "render", "why-not")

__getattr__ = built_on_first_use(__name__)  # RULESET, built when first asked for


__all__ = ["ANSWERS", "RULESET"]

"""``region_conquest``: conquering regions with race tokens, after the "Conquering Regions"
pages of the Small World rulebook (see ``../shared/rules/region_conquest.md``).

Modules: ``models`` (wire shapes), ``catalogue`` (rules, codes, events, fixed game data),
``board`` (state consistency and indexes), ``targets`` (where a player may conquer),
``cost`` (the conquest cost), ``ledger`` (the working copy an action's effect is written
into), ``conquest`` (conquer, final_conquest), ``redeploy`` (redeploy, end_turn), ``judge``
(the action to its rules), ``candidates`` (the pseudo-legal generator), ``queries``
(conquest-cost), ``examples`` (a board to paste), ``ruleset`` (the parts assembled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.rulesets import built_on_first_use

if TYPE_CHECKING:
    from .ruleset import RULESET

# The queries it answers, declared so that `arbiter --help` lists them without building
# the models (``arbiter.rulesets.load`` refuses a RULESET that answers others).
ANSWERS = ("conquest-cost", "legal-actions", "render", "why-not")

__getattr__ = built_on_first_use(__name__)  # RULESET, built when first asked for


__all__ = ["ANSWERS", "RULESET"]

"""``region_conquest``: conquering regions with race tokens, after the "Conquering Regions"
pages of the Small World rulebook (see ``../shared/rules/region_conquest.md``).

Modules: ``models`` (wire shapes), ``catalogue`` (rules, codes, events, fixed game data),
``board`` (state consistency and indexes), ``targets`` (where a player may conquer),
``cost`` (the conquest cost), ``ledger`` (the working copy an action's effect is written
into), ``conquest`` (conquer, final_conquest), ``redeploy`` (redeploy, end_turn), ``judge``
(the action to its rules), ``candidates`` (the pseudo-legal generator), ``queries``
(conquest-cost), ``examples`` (a board to paste), ``ruleset`` (the parts assembled).
"""

from .ruleset import RULESET

__all__ = ["RULESET"]

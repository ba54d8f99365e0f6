"""``region_conquest``: conquering regions with race tokens, after the "Conquering Regions"
pages of the Small World rulebook (see ``../shared/rules/region_conquest.md``).

Modules: ``models`` (wire shapes), ``catalogue`` (rules, codes, events, fixed game data),
``board`` (state consistency and indexes), ``targets`` (where a player may conquer),
``cost`` (the conquest cost), ``ledger`` (the working copy of a resulting state),
``conquest`` (conquer, final_conquest), ``redeploy`` (redeploy, end_turn), ``derived``
(the conquest-cost and legal-actions queries), ``examples`` (a board to paste),
``ruleset`` (the object served).
"""

from .ruleset import RULESET, RegionConquestRuleset

__all__ = ["RULESET", "RegionConquestRuleset"]

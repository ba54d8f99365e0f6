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

if TYPE_CHECKING:
    from .ruleset import RULESET

# The queries it answers, declared so that `arbiter --help` lists them without building
# the models (``arbiter.rulesets.load`` refuses a RULESET that answers others).
ANSWERS = ("conquest-cost", "legal-actions", "render", "why-not")


def __getattr__(name: str) -> object:
    """``RULESET``, built when first asked for (importing the package builds nothing)."""
    if name == "RULESET":
        from .ruleset import RULESET

        return RULESET
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ANSWERS", "RULESET"]

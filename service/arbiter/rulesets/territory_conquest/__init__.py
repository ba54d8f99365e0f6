"""``territory_conquest``: the Conquest board of the two-player *It's a Wonderful Kingdom*
mini-expansion — recruiting, moving and stopping in the Conquest phase, equal losses, bonus
locations, double move (see ``../shared/rules/territory_conquest.md``).

Modules: ``models`` (wire shapes), ``catalogue`` (rules, codes, events, fixed game data),
``board`` (state consistency and indexes), ``order`` (turn order, stopping and the turn
record), ``recruit``, ``move`` (reach, double move, the checks and effect of a move),
``bonuses`` (bonus gain and loss, production and victory point tallies), ``ledger`` (the
working copy an action's effect is written into), ``judge`` (the action to its rules),
``candidates`` (the pseudo-legal generator), ``queries`` (conquest-cost, standing),
``examples`` (a board to paste), ``ruleset`` (the parts assembled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .ruleset import RULESET

# The queries it answers, declared so that `arbiter --help` lists them without building
# the models (``arbiter.rulesets.load`` refuses a RULESET that answers others).
ANSWERS = ("conquest-cost", "legal-actions", "render", "standing", "why-not")


def __getattr__(name: str) -> object:
    """``RULESET``, built when first asked for (importing the package builds nothing)."""
    if name == "RULESET":
        from .ruleset import RULESET

        return RULESET
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ANSWERS", "RULESET"]

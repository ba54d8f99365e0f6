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

from arbiter.rulesets import built_on_first_use

if TYPE_CHECKING:
    from .ruleset import RULESET

# The queries it answers, declared so that `arbiter --help` lists them without building
# the models (``arbiter.rulesets.load`` refuses a RULESET that answers others).
ANSWERS = ("conquest-cost", "legal-actions", "render", "standing", "why-not")

__getattr__ = built_on_first_use(__name__)  # RULESET, built when first asked for


__all__ = ["ANSWERS", "RULESET"]

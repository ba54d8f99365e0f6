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

from .ruleset import RULESET

__all__ = ["RULESET"]

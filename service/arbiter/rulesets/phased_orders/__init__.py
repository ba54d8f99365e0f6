"""``phased_orders``: one turn of simultaneous orders resolved through 19 phases, after the
turn sequence of a game-master-run strategy game played by mail (see
``../shared/rules/phased_orders.md``), with a trace, a result for every order and the
game master's decisions.

Modules: ``models`` (wire shapes), ``catalogue`` (rules, codes, events, result codes, fixed
data), ``board`` (state consistency and indexes), ``orders`` (phase 1: checking the
orders), ``world`` (the turn in progress, as the phases see it), ``ledger`` (the working
copy the turn's effect is written into), ``trace`` (events labelled by phase, and their
replay), ``results`` (a result per order), ``decisions`` (the game master's
decisions, pending or given), the phases - ``disband`` (2), ``rot`` (3), ``upkeep`` (4),
``starvation`` (5), ``commission`` (6), ``ranged`` (7), ``abilities`` (8), ``caravans``
(9), ``movement`` (10), ``communique`` (0, interrupting 10), ``predation`` (10b),
``logistics`` (11), ``combat`` (12), ``healing`` (13), ``repair`` (14), ``new_units``
(15), ``bandits`` (16), ``excess`` (17), ``finishing`` (18), ``income`` (19) - and
``phases`` (their order), ``turn`` (judging resolve and submit), ``judge`` (the action to
its judging), ``candidates`` (the pseudo-legal generator), ``queries`` (resolve),
``examples`` (a board to paste), ``ruleset`` (the parts assembled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.rulesets import built_on_first_use

if TYPE_CHECKING:
    from .ruleset import RULESET

# The queries it answers, declared so that `arbiter --help` lists them without building
# the models (``arbiter.rulesets.load`` refuses a RULESET that answers others).
ANSWERS = ("legal-actions", "render", "resolve", "why-not")

__getattr__ = built_on_first_use(__name__)  # RULESET, built when first asked for


__all__ = ["ANSWERS", "RULESET"]

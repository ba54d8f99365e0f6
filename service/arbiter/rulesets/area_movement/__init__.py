"""``area_movement``: the movement phase of Mega Civilization — census order, token steps,
ships built, maintained, sailed and carrying tokens, city eligibility and conflict
situations (see ``../shared/rules/area_movement.md``).

Modules: ``models`` (wire shapes), ``catalogue`` (rules, codes, events, fixed game data),
``board`` (state consistency and indexes), ``ledger`` (the movement in progress and its
writing into a draft), ``order`` (census order and whose turn), ``plan`` (a plan's
malformed fields and the step-by-step walk), ``steps`` (token steps by land), ``ships``
(build, maintain, destroy, the end of movement), ``voyage`` (sail), ``conflicts``
(conflict situations caused and voided), ``cities`` (city eligibility), ``reach`` (where
tokens and ships can go), ``judge`` (the action to its rules), ``candidates`` (the
pseudo-legal generator of single steps), ``queries`` (census-order, reachable,
city-eligibility, conflicts, legal-actions), ``examples`` (a board to paste), ``ruleset``
(the parts assembled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.rulesets import built_on_first_use

if TYPE_CHECKING:
    from .ruleset import RULESET

# The queries it answers, declared so that `arbiter --help` lists them without building
# the models (``arbiter.rulesets.load`` refuses a RULESET that answers others).
ANSWERS = ("census-order", "city-eligibility", "conflicts", "legal-actions", "reachable",
           "render", "why-not")

__getattr__ = built_on_first_use(__name__)  # RULESET, built when first asked for


__all__ = ["ANSWERS", "RULESET"]

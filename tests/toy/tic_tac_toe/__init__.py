"""``tic_tac_toe``: three in a row on a 3x3 grid, the toy ruleset every part of the shape
is shown on (docs/adding-a-ruleset.md walks through it).

Modules: ``models`` (wire shapes), ``catalogue`` (rules, codes, events, the eight lines),
``board`` (state consistency and indexes), ``lines`` (three in a row, a full grid),
``place`` (placing a mark), ``resign`` (resigning), ``judge`` (the action to its rules),
``candidates`` (the pseudo-legal generator), ``examples`` (a game to paste), ``ruleset``
(the parts assembled, with what its legal-actions lists in which order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.rulesets import built_on_first_use

if TYPE_CHECKING:
    from .ruleset import RULESET

# The queries it answers, declared so that `arbiter --help` lists them without building
# the models (``arbiter.rulesets.load`` refuses a RULESET that answers others).
ANSWERS = ("legal-actions", "why-not")

__getattr__ = built_on_first_use(__name__)  # RULESET, built when first asked for


__all__ = ["ANSWERS", "RULESET"]

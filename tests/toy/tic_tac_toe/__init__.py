"""``tic_tac_toe``: three in a row on a 3x3 grid, the toy ruleset every part of the shape
is shown on (docs/adding-a-ruleset.md walks through it).

Modules: ``models`` (wire shapes), ``catalogue`` (rules, codes, events, the eight lines),
``board`` (state consistency and indexes), ``lines`` (three in a row, a full grid),
``place`` (placing a mark), ``resign`` (resigning), ``judge`` (the action to its rules),
``candidates`` (the pseudo-legal generator), ``examples`` (a game to paste), ``ruleset``
(the parts assembled, with what its legal-actions lists in which order).
"""

from .ruleset import RULESET

__all__ = ["RULESET"]

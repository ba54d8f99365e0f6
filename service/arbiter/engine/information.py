"""A ruleset's information structure, declared as data beside its catalogue (the way
OpenSpiel's ``GameType`` declares a game's information and chance): whether every player
may see the whole state, which of its fields nobody may read, and when the rules reveal
them.

The engine judges whole states and never hides anything itself. The service reads this
declaration to seal the hidden fields of the states it issues (``service.sealing``), to
show a player the state as they may see it (a view), and to say which questions a view
cannot answer. Pointers are RFC 6901 JSON pointers into a state (``/relics/bag``), each
naming a list or a seed: what a view shows of a hidden list is its length.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Chance = Literal["none", "seeded", "seeded or reported"]


@dataclass(frozen=True, slots=True)
class Hidden:
    """A state field nobody may read: ``pointer`` into the state, what it ``holds`` in the
    game's words, the ``rules`` that reveal part of it and how (``revealed``)."""

    pointer: str
    holds: str
    revealed: str
    rules: tuple[str, ...] = ()
    # Shuffled by the service when it starts a sealed game (a deck, a stack), rather than
    # kept in the order the setup lists it in.
    shuffled: bool = False

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(self.pointer.strip("/").split("/"))


@dataclass(frozen=True, slots=True)
class Private:
    """Something one player gives that the others may not read until the rules reveal it
    (orders of a simultaneous turn): the ``action`` type it travels in (its ``player``
    field names who gives it), when it is revealed, and the action type (or query) it is
    revealed by, ``into``, which ``gather`` fills with what each envelope held. It is
    never part of a state: the service seals it as an envelope for one player and one
    state."""

    action: str
    holds: str
    revealed: str
    into: str
    gather: Callable[[Any, Sequence[Any]], Any]
    # One player's part of an action that reveals them (the documents' example: the
    # first player's orders of the ruleset's example turn), as JSON.
    example: Callable[[Mapping[str, Any]], dict[str, Any]]
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Information:
    """``hidden``: the state fields nobody may read (empty: perfect information);
    ``private``: what each player gives in secret; ``chance``: how randomness enters
    (``seeded``: drawn by the service from the state's seed; ``seeded or reported``: in
    table mode the actions report the draws); ``reads``: the hidden pointers an action
    draws from (what a view without them cannot judge); ``chosen_on_reveal``: fields of an
    action a player chooses once a hidden draw is revealed, which a sealed game leaves to
    the rules' default (the player cannot know the draw before the answer shows it)."""

    chance: Chance = "none"
    hidden: tuple[Hidden, ...] = ()
    private: tuple[Private, ...] = ()
    reads: Callable[[Any], Sequence[str]] = field(default=lambda action: ())
    chosen_on_reveal: Callable[[Any], Sequence[str]] = field(default=lambda action: ())
    # The queries that play the rules forward and draw as they go (a turn resolved, a
    # picture of its trace): a view that withholds the seed cannot answer them.
    drawing_queries: frozenset[str] = frozenset()

    @property
    def perfect(self) -> bool:
        return not self.hidden and not self.private

    def describe(self) -> dict[str, Any]:
        """What ``GET /v1/rulesets/{id}`` shows of it."""
        return {
            "perfect": self.perfect,
            "chance": self.chance,
            "hidden": [{"pointer": h.pointer, "holds": h.holds, "revealed": h.revealed,
                        "rules": list(h.rules), "shuffled": h.shuffled}
                       for h in self.hidden],
            "private": [{"action": p.action, "holds": p.holds, "revealed": p.revealed,
                         "into": p.into, "rules": list(p.rules)} for p in self.private],
        }


PERFECT = Information()

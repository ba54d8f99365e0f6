"""The ledger: the working copy an action's effect is written into, the same idiom in every
ruleset. It is a ``Draft`` of the request's state (which knows which top-level fields the
rules touched, and hands each out as JSON the first time) whose lists of pieces (regions,
armies, units, players) are indexed by id the first time a rule touches them, so a rule
finds the piece it changes by its id and writes into it in place.

Each ruleset's ``ledger.py`` subclasses it, naming its own pieces and the few moves its
rules make on them (tokens into and out of a region, an army landing, a unit wounded).
The word is the games' own: what the rules enter into it, entry by entry as they apply
an action, is what the resulting state reads. The request's models are never touched;
the pipeline checks the resulting state (``ledger.draft``) against the state model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from arbiter.engine.draft import Draft, Ready

# A piece as JSON: one item of a list field of the state (a region, an army, a unit).
Record = dict[str, Any]


class Ledger:
    __slots__ = ("_indexes", "draft")

    def __init__(self, state: BaseModel, ready: Mapping[str, Ready] | None = None) -> None:
        self.draft = Draft(state, ready)
        # Each list field a rule touched, its pieces by id (the draft's own JSON objects).
        self._indexes: dict[str, dict[str, Record]] = {}

    def __getitem__(self, field: str) -> Any:
        """A top-level field as JSON the rules change in place (``Draft``)."""
        return self.draft[field]

    def __setitem__(self, field: str, value: Any) -> None:
        """A top-level field replaced whole; its index, if any, goes with the old value."""
        self._indexes.pop(field, None)
        self.draft[field] = value

    def by_id(self, field: str) -> dict[str, Record]:
        """The pieces of a list field by their ``id``: the draft's JSON objects, changed in
        place. Indexed the first time a rule touches the field, which hands it out."""
        index = self._indexes.get(field)
        if index is None:
            index = self._indexes[field] = {piece["id"]: piece for piece in self.draft[field]}
        return index

    def add(self, field: str, piece: Record) -> None:
        """A new piece, last in its list."""
        index = self.by_id(field)
        self.draft[field].append(piece)
        index[piece["id"]] = piece

    def remove(self, field: str, piece_id: str) -> Record:
        """A piece taken out of its list (the others keep their order)."""
        piece = self.by_id(field).pop(piece_id)
        pieces: list[Record] = self.draft[field]
        # By identity: two pieces never share an id, but comparing dicts costs more.
        del pieces[next(i for i, p in enumerate(pieces) if p is piece)]
        return piece

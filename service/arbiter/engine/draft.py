"""The resulting state while an action's effect is written into it.

A ``Draft`` starts from the request's (validated, never mutated) state model and hands out
a top-level field as plain JSON the first time a rule touches it; the fields no rule
touches stay the models they were. The pipeline then checks the resulting state against
the ruleset's state model cheaply (untouched fields are already-validated models, which
pydantic accepts as they are) and writes out only what changed, plus what the ruleset
keeps ready as JSON (``Ready``: a hex map dumped once per board), with the state's
canonical JSON field by field (``Canonical``: its hash, and any digest of it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from arbiter.engine.canonical import Canonical, Ready, canonical_json

__all__ = ["BoardRef", "Draft", "Ready"]


@dataclass(frozen=True, slots=True)
class BoardRef:
    """The board a state named by reference: its id and the fields it stands for."""

    id: str
    fields: tuple[str, ...]


class Draft:
    __slots__ = ("_seen", "base", "ready", "touched")

    def __init__(self, base: BaseModel, ready: Mapping[str, Ready] | None = None) -> None:
        self.base = base
        # Fields the ruleset holds as JSON already (cheaper than dumping the model again).
        self.ready: Mapping[str, Ready] = ready or {}
        self.touched: dict[str, Any] = {}
        # The untouched fields of ``base``, once dumped: their JSON and canonical JSON.
        self._seen: dict[str, tuple[Any, bytes]] = {}

    def __getitem__(self, name: str) -> Any:
        """The field as JSON the caller may change in place; it becomes part of the result."""
        if name not in self.touched:
            self.touched[name] = self._dump(name)
        return self.touched[name]

    def __setitem__(self, name: str, value: Any) -> None:
        self._known(name)
        self.touched[name] = value

    def _known(self, name: str) -> None:
        if name not in type(self.base).model_fields:
            raise KeyError(f"{type(self.base).__name__} has no field {name!r}")

    def _dump(self, name: str) -> Any:
        self._known(name)
        if name in self.ready:
            return self.ready[name].json()
        return self.base.model_dump(mode="json", include={name})[name]

    def candidate(self) -> dict[str, Any]:
        """What the state model validates: touched fields as JSON, the others as models."""
        base = self.base
        return {name: self.touched[name] if name in self.touched else getattr(base, name)
                for name in type(base).model_fields}

    def canonical(self) -> Canonical:
        """The state as it stands, field by field (for a draft nothing touched: the state
        it started from), without writing it out."""
        dumped = self._untouched()
        parts: dict[str, bytes] = {}
        ready: dict[str, Ready] = {}
        for name in type(self.base).model_fields:
            if name in self.touched:
                parts[name] = canonical_json(self.touched[name])
            elif name in self.ready:
                ready[name] = self.ready[name]
                parts[name] = ready[name].canonical()
            else:
                parts[name] = dumped[name][1]
        return Canonical(parts, ready)

    def written(self, board: BoardRef | None = None) -> tuple[dict[str, Any], Canonical]:
        """The whole state as JSON, in the model's field order, and its canonical JSON.
        With ``board`` (the state came naming its board) and the board left as it was,
        the JSON names the board too, and its fields are never written out: the canonical
        JSON is made from each field's own (a ready field's kept bytes), so it is that of
        the whole state whichever way the state is sent."""
        fields = type(self.base).model_fields
        lean = board is not None and not any(f in self.touched for f in board.fields)
        skipped = set(board.fields) if lean and board is not None else set()
        dumped = self._untouched()
        out: dict[str, Any] = {"board": board.id} if lean and board is not None else {}
        parts: dict[str, bytes] = {}
        ready: dict[str, Ready] = {}
        for name in fields:
            if name in self.touched:
                value = self.touched[name]
            elif name in self.ready:
                ready[name] = self.ready[name]
                parts[name] = ready[name].canonical()
                if name in skipped:
                    continue
                value = ready[name].json()
            else:
                value, parts[name] = dumped[name]
            if name not in skipped:
                out[name] = value
            if name not in parts:  # (a ready field's kept bytes are never written again)
                parts[name] = canonical_json(value)
        return out, Canonical(parts, ready)

    def _untouched(self) -> dict[str, tuple[Any, bytes]]:
        """The fields neither touched nor kept ready, dumped in one call (once)."""
        seen = self._seen
        rest = {n for n in type(self.base).model_fields
                if n not in self.touched and n not in self.ready}
        missing = {n for n in rest if n not in seen}
        if missing:
            for name, value in self.base.model_dump(mode="json", include=missing).items():
                seen[name] = (value, canonical_json(value))
        return {n: seen[n] for n in rest}

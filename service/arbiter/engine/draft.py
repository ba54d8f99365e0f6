"""The resulting state while an action's effect is written into it.

A ``Draft`` starts from the request's (validated, never mutated) state model and hands out
a top-level field as plain JSON the first time a rule touches it; the fields no rule
touches stay the models they were. The pipeline then checks the resulting state against
the ruleset's state model cheaply (untouched fields are already-validated models, which
pydantic accepts as they are) and serialises only what changed, plus what the ruleset
keeps ready as JSON (``ready``: a hex map dumped once per board).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel


@dataclass(frozen=True, slots=True)
class Ready:
    """A field the ruleset already holds as JSON: ``json`` gives a fresh copy (the caller
    may change it), ``canonical`` its JSON with sorted keys (for the state's hash)."""

    json: Callable[[], Any]
    canonical: Callable[[], bytes]


@dataclass(frozen=True, slots=True)
class BoardRef:
    """The board a state named by reference: its id and the fields it stands for."""

    id: str
    fields: tuple[str, ...]


class Draft:
    __slots__ = ("base", "ready", "touched")

    def __init__(self, base: BaseModel, ready: Mapping[str, Ready] | None = None) -> None:
        self.base = base
        # Fields the ruleset holds as JSON already (cheaper than dumping the model again).
        self.ready: Mapping[str, Ready] = ready or {}
        self.touched: dict[str, Any] = {}

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

    def as_json(self, board: BoardRef | None = None) -> tuple[dict[str, Any], str]:
        """The whole resulting state as JSON, in the model's field order, and its hash
        (``outcome.state_hash``). With ``board`` (the state came naming its board) and the
        board left as it was, the JSON names the board too, and its fields are never
        written out: the hash is made from each field's canonical JSON (a ready field's
        kept bytes), so it is the hash of the whole state whichever way it is sent."""
        fields = type(self.base).model_fields
        lean = board is not None and not any(f in self.touched for f in board.fields)
        skipped = set(board.fields) if lean and board is not None else set()
        rest = {n for n in fields if n not in self.touched and n not in self.ready}
        dumped = self.base.model_dump(mode="json", include=rest) if rest else {}
        out: dict[str, Any] = {"board": board.id} if lean and board is not None else {}
        parts: dict[str, bytes] = {}
        for name in fields:
            if name in self.touched:
                value = self.touched[name]
            elif name in self.ready:
                parts[name] = self.ready[name].canonical()
                if name in skipped:
                    continue
                value = self.ready[name].json()
            else:
                value = dumped[name]
            if name not in skipped:
                out[name] = value
            parts.setdefault(name, orjson.dumps(value, option=orjson.OPT_SORT_KEYS))
        whole = b"{" + b",".join(orjson.dumps(k) + b":" + parts[k] for k in sorted(parts)) + b"}"
        return out, hashlib.sha256(whole).hexdigest()

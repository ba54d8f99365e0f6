"""The resulting state while an action's effect is written into it.

A ``Draft`` starts from the request's (validated, never mutated) state model and hands out
a top-level field as plain JSON the first time a rule touches it; the fields no rule
touches stay the models they were. The pipeline then checks the resulting state against
the ruleset's state model cheaply (untouched fields are already-validated models, which
pydantic accepts as they are) and serialises only what changed, plus what the ruleset
keeps ready as JSON (``ready``: a hex map dumped once per board).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel


class Draft:
    __slots__ = ("base", "ready", "touched")

    def __init__(self, base: BaseModel,
                 ready: Mapping[str, Callable[[], Any]] | None = None) -> None:
        self.base = base
        # Field -> a function giving a fresh JSON copy of it, for fields the ruleset holds
        # as JSON already (cheaper than dumping the model again).
        self.ready: Mapping[str, Callable[[], Any]] = ready or {}
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
            return self.ready[name]()
        return self.base.model_dump(mode="json", include={name})[name]

    def candidate(self) -> dict[str, Any]:
        """What the state model validates: touched fields as JSON, the others as models."""
        base = self.base
        return {name: self.touched[name] if name in self.touched else getattr(base, name)
                for name in type(base).model_fields}

    def as_json(self) -> dict[str, Any]:
        """The whole resulting state as JSON, in the model's field order."""
        fields = type(self.base).model_fields
        rest = {n for n in fields if n not in self.touched and n not in self.ready}
        dumped = self.base.model_dump(mode="json", include=rest) if rest else {}
        out: dict[str, Any] = {}
        for name in fields:
            if name in self.touched:
                out[name] = self.touched[name]
            elif name in self.ready:
                out[name] = self.ready[name]()
            else:
                out[name] = dumped[name]
        return out

"""The resulting state while an action's effect is written into it.

A ``Draft`` starts from the request's (validated, never mutated) state model and hands out
a top-level field as plain JSON the first time a rule touches it; the fields no rule
touches stay the models they were. The pipeline then checks the resulting state against
the ruleset's state model cheaply (untouched fields are already-validated models, which
pydantic accepts as they are) and serialises only what changed, plus what the ruleset
keeps ready as JSON (``ready``: a hex map dumped once per board).

Two digests of a state come from a draft: its hash (``as_json``: the sha256 of its
canonical JSON, ``Outcome.state_hash``) and its signing digest (``signing_digest``: what
a state's signature covers, the same with each board field replaced by its own sha256,
so that a board kept ready is hashed once per board rather than on every request).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel


@dataclass(frozen=True, slots=True)
class Ready:
    """A field the ruleset already holds as JSON: ``json`` gives a fresh copy (the caller
    may change it), ``canonical`` its JSON with sorted keys (for the state's hash), and
    ``digest`` the hex sha256 of that (for the signing digest; hashed here when None)."""

    json: Callable[[], Any]
    canonical: Callable[[], bytes]
    digest: Callable[[], str] | None = None

    def hashed(self) -> str:
        return self.digest() if self.digest is not None else _sha(self.canonical())


# True while the action of a signed state is applied (``keeping_pristine``): each draft
# then keeps the canonical JSON of a field as the state judged had it when the action
# first touches it, so that ``base_digest`` need not dump it from the state again.
_PRISTINE: ContextVar[bool] = ContextVar("arbiter_draft_pristine", default=False)


@contextmanager
def keeping_pristine() -> Iterator[None]:
    """Drafts made inside keep their touched fields' first JSON."""
    token = _PRISTINE.set(True)
    try:
        yield
    finally:
        _PRISTINE.reset(token)


@dataclass(frozen=True, slots=True)
class BoardRef:
    """The board a state named by reference: its id and the fields it stands for."""

    id: str
    fields: tuple[str, ...]


class Draft:
    __slots__ = ("_parts", "_pristine", "_seen", "base", "ready", "touched")

    def __init__(self, base: BaseModel, ready: Mapping[str, Ready] | None = None) -> None:
        self.base = base
        # Fields the ruleset holds as JSON already (cheaper than dumping the model again).
        self.ready: Mapping[str, Ready] = ready or {}
        self.touched: dict[str, Any] = {}
        # The untouched fields of ``base``, once dumped: their JSON and canonical JSON
        # (shared by ``as_json`` and both digests).
        self._seen: dict[str, tuple[Any, bytes]] = {}
        # Each field's canonical JSON, once ``as_json`` has written the state out.
        self._parts: dict[str, bytes] = {}
        # The canonical JSON of each touched field as ``base`` had it (``keeping_pristine``).
        self._pristine: dict[str, bytes] | None = {} if _PRISTINE.get() else None

    def __getitem__(self, name: str) -> Any:
        """The field as JSON the caller may change in place; it becomes part of the result."""
        if name not in self.touched:
            value = self.touched[name] = self._dump(name)
            if self._pristine is not None and name not in self.ready:
                self._pristine[name] = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
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
        dumped = self._untouched()
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
                value, parts[name] = dumped[name]
            if name not in skipped:
                out[name] = value
            if name not in parts:  # (a ready field's kept bytes are never written again)
                parts[name] = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        self._parts = parts
        return out, _sha(_joined(parts))

    def signing_digest(self, board_fields: Collection[str] = ()) -> str:
        """What a state's signature covers: the sha256 of the state's canonical JSON in
        which each board field (``board_fields``) is replaced by the hex sha256 of its own
        canonical JSON, so a board kept ready is hashed once per board, not per request.
        For a draft nothing touched, the state as it stands; after ``as_json``, the
        resulting state."""
        dumped = self._untouched()
        parts: dict[str, bytes] = {}
        for name in type(self.base).model_fields:
            if name in self.touched:
                part = self._parts.get(name)
                parts[name] = _part(part if part is not None else orjson.dumps(
                    self.touched[name], option=orjson.OPT_SORT_KEYS), name in board_fields)
            elif name in self.ready:
                parts[name] = self._ready_part(name, board_fields)
            else:
                parts[name] = _part(dumped[name][1], name in board_fields)
        return _sha(_joined(parts))

    def base_digest(self, board_fields: Collection[str] = ()) -> str:
        """The signing digest of the state the draft started from (``base``), after
        ``as_json``: the fields the action left as they were are the resulting state's,
        and the touched ones were kept as they first were (``keeping_pristine``), so a
        signed state is checked once judged at little more than the cost of a hash."""
        dumped = self._untouched()
        pristine = self._pristine or {}
        plain = {n for n in self.touched if n not in self.ready and n not in pristine}
        fresh = {n: orjson.dumps(v, option=orjson.OPT_SORT_KEYS)
                 for n, v in self.base.model_dump(mode="json", include=plain).items()
                 } if plain else {}
        parts: dict[str, bytes] = {}
        for name in type(self.base).model_fields:
            if name in self.ready:
                parts[name] = self._ready_part(name, board_fields)  # the base's, touched or not
            elif name in self.touched:
                parts[name] = _part(pristine[name] if name in pristine else fresh[name],
                                    name in board_fields)
            else:
                parts[name] = _part(dumped[name][1], name in board_fields)
        return _sha(_joined(parts))

    def _ready_part(self, name: str, board_fields: Collection[str]) -> bytes:
        ready = self.ready[name]
        return _quoted(ready.hashed()) if name in board_fields else ready.canonical()

    def _untouched(self) -> dict[str, tuple[Any, bytes]]:
        """The fields neither touched nor kept ready, dumped in one call (once: writing
        the state out and both digests share them)."""
        seen = self._seen
        rest = {n for n in type(self.base).model_fields
                if n not in self.touched and n not in self.ready}
        missing = {n for n in rest if n not in seen}
        if missing:
            for name, value in self.base.model_dump(mode="json", include=missing).items():
                seen[name] = (value, orjson.dumps(value, option=orjson.OPT_SORT_KEYS))
        return {n: seen[n] for n in rest}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _joined(parts: Mapping[str, bytes]) -> bytes:
    """A JSON object from each key's canonical JSON: sorted keys, no whitespace."""
    keys = _KEYS.get(tuple(parts))
    if keys is None:
        keys = _KEYS[tuple(parts)] = tuple((k, orjson.dumps(k) + b":") for k in sorted(parts))
    return b"{" + b",".join([key + parts[name] for name, key in keys]) + b"}"


# The sorted keys of each state model's JSON, written out (a handful of models).
_KEYS: dict[tuple[str, ...], tuple[tuple[str, bytes], ...]] = {}


def _quoted(digest: str) -> bytes:
    return b'"' + digest.encode() + b'"'


def _part(canonical: bytes, digested: bool) -> bytes:
    """A field's part of a signing digest: its canonical JSON, or a board field's digest."""
    return _quoted(_sha(canonical)) if digested else canonical

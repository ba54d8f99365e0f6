"""A state's canonical JSON, one top-level field at a time: each field written with the
keys of every object sorted and no whitespace (``orjson`` with ``OPT_SORT_KEYS``).

The whole is what ``Outcome.state_hash`` is the sha256 of, so clients compare states
cheaply. ``folded`` is the same JSON with some fields (a board) replaced by their own
sha256, which a state's board keeps once computed (``Ready.digest``): a digest of a
large state then hashes its board once per board, not once per request. What a digest is
for (the service signs the folded form) is not the engine's concern; both are pure
functions of the state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson


@dataclass(frozen=True, slots=True)
class Ready:
    """A field the ruleset already holds as JSON (a hex map dumped once per map):
    ``json`` gives a fresh copy (the caller may change it), ``canonical`` its canonical
    JSON, and ``digest`` the hex sha256 of that (hashed here when None)."""

    json: Callable[[], Any]
    canonical: Callable[[], bytes]
    digest: Callable[[], str] | None = None

    def hashed(self) -> str:
        return self.digest() if self.digest is not None else sha256(self.canonical())


@dataclass(frozen=True, slots=True)
class Canonical:
    """The canonical JSON of each top-level field of a state (``parts``), and the fields
    whose JSON the ruleset holds ready, untouched (``ready``: their digests may be kept)."""

    parts: Mapping[str, bytes]
    ready: Mapping[str, Ready] = field(default_factory=dict)

    def whole(self) -> bytes:
        """The state's canonical JSON."""
        return joined(self.parts)

    def hash(self) -> str:
        """The hex sha256 of the state's canonical JSON (``Outcome.state_hash``)."""
        return sha256(self.whole())

    def digest_of(self, name: str) -> str:
        """The hex sha256 of one field's canonical JSON."""
        ready = self.ready.get(name)
        return ready.hashed() if ready is not None else sha256(self.parts[name])

    def folded(self, fields: Collection[str]) -> bytes:
        """The state's canonical JSON with each of ``fields`` replaced by the JSON string
        of its own digest (``digest_of``)."""
        return joined({name: b'"' + self.digest_of(name).encode() + b'"' if name in fields
                       else part for name, part in self.parts.items()})


def canonical_json(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def joined(parts: Mapping[str, bytes]) -> bytes:
    """A JSON object from each key's canonical JSON: sorted keys, no whitespace."""
    keys = _KEYS.get(tuple(parts))
    if keys is None:
        keys = _KEYS[tuple(parts)] = tuple((k, orjson.dumps(k) + b":") for k in sorted(parts))
    return b"{" + b",".join([key + parts[name] for name, key in keys]) + b"}"


# The sorted keys of each state model's JSON, written out (a handful of models).
_KEYS: dict[tuple[str, ...], tuple[tuple[str, bytes], ...]] = {}

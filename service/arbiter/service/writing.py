"""Answers written as JSON in small pieces.

The service judges in worker threads so that its event loop keeps answering /healthz and
/readyz, but a thread inside one call into pydantic-core or orjson holds the GIL until
that call returns: a 2.7 MB ``reachable`` answer validated into its models in one call
kept the probes waiting 1.5 s. So an answer that can be large is written a piece at a
time (an item of a long list, or ``PIECE`` of them), each call short, and the loop runs
between two of them.

- ``model_json``: any response model's ``model_dump_json()``, byte for byte, its long
  top-level lists written ``PIECE`` items per call;
- ``outcome_json``: a judged action's answer, byte for byte its model's JSON, with the
  resulting state (plain data the engine wrote) written by orjson: pydantic writes a map
  of ``Any`` value by value, inspecting each (155 against 20 µs for the 331-hex bench's
  by-reference answer, in process);
- ``model_read``: the other way, a response model from its JSON (a cached answer read
  back), its long top-level lists read ``PIECE`` items per call;
- ``streamed_json``: an answer the engine describes as plain data (``engine.query.
  Streamed``: our own, never validated again), its one long list written item by item,
  bounded as it grows by the answer limit: the bytes written are the exact size, so
  nothing larger than the limit is ever held.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import orjson
from pydantic import BaseModel, RootModel, TypeAdapter

from arbiter.engine.outcome import Event, Violation
from arbiter.engine.query import Streamed
from arbiter.service.problems import answer_too_large

# List items serialised per call: a few hundred small models, well under a millisecond.
PIECE = 256


@cache
def _list_adapter(model: type[BaseModel], name: str) -> TypeAdapter[Any]:
    annotation: Any = model.model_fields[name].annotation
    return TypeAdapter(annotation)


def _plain(model: BaseModel) -> bool:
    """A model whose JSON is its fields in order, nothing added or renamed."""
    return not isinstance(model, RootModel) and not model.model_computed_fields


def model_json(model: BaseModel) -> bytes:
    """``model.model_dump_json()`` as bytes, each top-level list longer than ``PIECE``
    written ``PIECE`` items per call (the same serialiser, the same bytes)."""
    cls = type(model)
    if not _plain(model) or not any(isinstance(getattr(model, name), list)
                                    and len(getattr(model, name)) > PIECE
                                    for name in cls.model_fields):
        return model.model_dump_json().encode()
    parts = []
    for name in cls.model_fields:
        value = getattr(model, name)
        if isinstance(value, list) and len(value) > PIECE:
            adapter = _list_adapter(cls, name)
            items = b",".join(adapter.dump_json(value[i:i + PIECE])[1:-1]
                              for i in range(0, len(value), PIECE))
            parts.append(orjson.dumps(name) + b":[" + items + b"]")
        else:
            part = model.model_dump_json(include={name}).encode()[1:-1]
            if part:
                parts.append(part)
    return b"{" + b",".join(parts) + b"}"


def model_read(cls: type[BaseModel], data: bytes) -> BaseModel:
    """``cls.model_validate_json(data)`` for JSON ``model_json`` wrote, never in one long
    call: each top-level list longer than ``PIECE`` is found item by item (the standard
    library's decoder from where the item starts, one short call each) and read ``PIECE``
    items per call by the list's own JSON reading; the rest is read with the list's
    first ``PIECE`` items, the list then put in whole (our own answer, written from a
    model that held it). A 2.3 MB ``reachable`` read in one call held the probes 1.0-2.3
    s, and parsed whole by orjson first 0.2-0.3 s."""
    if issubclass(cls, RootModel) or cls.model_computed_fields or len(data) <= _SHORT:
        return cls.model_validate_json(data)
    try:
        members = _members(data.decode())
    except ValueError:  # not an object as model_json writes it: the reading says why
        return cls.model_validate_json(data)
    lists: dict[str, Any] = {}
    head = []
    for name, value in members.items():
        if isinstance(value, list) and len(value) > PIECE:
            adapter = _list_adapter(cls, name)
            lists[name] = [item for i in range(0, len(value), PIECE) for item in
                           adapter.validate_json("[" + ",".join(value[i:i + PIECE]) + "]")]
            value = value[:PIECE]
        written = "[" + ",".join(value) + "]" if isinstance(value, list) else value
        head.append(f"{orjson.dumps(name).decode()}:{written}")
    model = cls.model_validate_json("{" + ",".join(head) + "}")
    return model.model_copy(update=lists) if lists else model


# Shorter answers are read in one call (well under a millisecond).
_SHORT = 64 << 10
_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def _skip(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    return match.end() if match else at


def _members(text: str) -> dict[str, str | list[str]]:
    """The JSON text of each member of the object ``text``, an array's as its items'."""
    members: dict[str, str | list[str]] = {}
    at = _skip(text, 0)
    if text[at:at + 1] != "{":
        raise ValueError("not an object")
    at = _skip(text, at + 1)
    while text[at:at + 1] == '"':
        name, at = _DECODER.raw_decode(text, at)
        at = _skip(text, _skip(text, at) + 1)  # past the colon
        if text[at:at + 1] == "[":
            members[name], at = _items(text, at)
        else:
            start = at
            at = _DECODER.raw_decode(text, at)[1]
            members[name] = text[start:at]
        at = _skip(text, at)
        at = _skip(text, at + 1) if text[at:at + 1] == "," else at
    return members


def _items(text: str, at: int) -> tuple[list[str], int]:
    """The JSON text of each item of the array starting at ``at``, and where it ends."""
    items = []
    at = _skip(text, at + 1)
    while text[at:at + 1] != "]":
        start = at
        at = _DECODER.raw_decode(text, at)[1]
        items.append(text[start:at])
        at = _skip(text, at)
        at = _skip(text, at + 1) if text[at:at + 1] == "," else at
    return items, at + 1


def streamed_json(streamed: Streamed, limit: int = 0) -> bytes:
    """``orjson.dumps({**head, name: list(items)})`` written one item per call, the items
    made as they are written (so the whole answer is never held as data), refused as
    soon as it grows over ``limit`` bytes (0: none)."""
    head = streamed.head
    start = orjson.dumps(head)
    start = (start[:-1] + b"," if head else b"{") + orjson.dumps(streamed.name) + b":["
    written = [start]
    size = len(start) + 2
    for item in streamed.items:
        piece = orjson.dumps(item)
        size += len(piece) + 1
        if 0 < limit < size:
            raise answer_too_large(size, limit, streamed.what)
        written.append(piece)
    return written[0] + b",".join(written[1:]) + b"]}"


# The messages of an outcome, each as its model writes it (a handful per answer).
_MESSAGES: TypeAdapter[list[Violation] | list[Event]] = TypeAdapter(list[Violation] | list[Event])


def outcome_json(answer: Mapping[str, Any]) -> bytes:
    """A judged action's answer (its fields: ``returns.Returned.fields``) as its model's
    JSON, byte for byte (``contract.Outcome.model_dump_json()``): the same keys in the
    same order, its messages dumped by their models, and the plain data (the resulting
    state, the patch, the derived facts) written by orjson."""
    signature = answer["signature"]
    return orjson.dumps({
        "ruleset": answer["ruleset"], "ruleset_version": answer["ruleset_version"],
        "legal": answer["legal"], "applied": answer["applied"],
        "violations": _MESSAGES.dump_python(answer["violations"], mode="json"),
        "state": answer["state"], "patch": answer["patch"],
        "events": _MESSAGES.dump_python(answer["events"], mode="json"),
        "derived": answer["derived"], "reversible": answer["reversible"],
        "state_hash": answer["state_hash"],
        "signature": signature.model_dump() if signature is not None else None})

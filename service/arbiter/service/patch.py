"""Lean answers: a resulting state sent as an RFC 6902 JSON Patch against the state the
client sent, for clients that keep their copy and want only what changed.

The patch is made by walking both documents: a map's keys are removed, added or walked
into; a list keeps the items it starts and ends with unchanged as they are (so an army
leaving the middle of a list is one ``remove``, not a ``replace`` of every army after it),
and its middle is walked index by index over the length both share, then grown with
``add`` or shrunk with ``remove`` from its end (so each operation's index is valid when it
is applied); anything else that differs is replaced. Applied in order to the client's
state, it gives the new state exactly.
"""

from __future__ import annotations

from typing import Any

import orjson

from arbiter.engine.errors import pointer

Operation = dict[str, Any]


def json_patch(before: Any, after: Any) -> list[Operation]:
    """The operations that turn ``before`` into ``after``."""
    operations: list[Operation] = []
    _diff(before, after, (), operations)
    return operations


def _diff(before: Any, after: Any, at: tuple[object, ...], out: list[Operation]) -> None:
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before:
            if key not in after:
                out.append({"op": "remove", "path": pointer(*at, key)})
        for key, value in after.items():
            if key in before:
                _diff(before[key], value, (*at, key), out)
            else:
                out.append({"op": "add", "path": pointer(*at, key), "value": value})
        return
    if isinstance(before, list) and isinstance(after, list):
        _diff_list(before, after, at, out)
        return
    if type(before) is not type(after) or before != after:
        out.append({"op": "replace", "path": pointer(*at), "value": after})


def _diff_list(before: list[Any], after: list[Any], at: tuple[object, ...],
               out: list[Operation]) -> None:
    shortest = min(len(before), len(after))
    start = 0
    while start < shortest and _same(before[start], after[start]):
        start += 1
    end = 0  # items equal at the end of both, after ``start``
    while end < shortest - start and _same(before[-1 - end], after[-1 - end]):
        end += 1
    old, new = before[start:len(before) - end], after[start:len(after) - end]
    shared = min(len(old), len(new))
    for i in range(shared):
        _diff(old[i], new[i], (*at, start + i), out)
    for i in range(shared, len(new)):
        out.append({"op": "add", "path": pointer(*at, start + i), "value": new[i]})
    for i in range(len(old) - 1, shared - 1, -1):
        out.append({"op": "remove", "path": pointer(*at, start + i)})


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: Python's ``==`` alone takes 1 for true and 1.0 for 1."""
    return bool(a == b) and orjson.dumps(a) == orjson.dumps(b)

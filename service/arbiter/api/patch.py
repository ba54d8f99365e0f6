"""Lean answers: a resulting state sent as an RFC 6902 JSON Patch against the state the
client sent, for clients that keep their copy and want only what changed.

The patch is made by walking both documents: a map's keys are removed, added or walked
into; a list is walked index by index over the length both share, then grown with
``add`` or shrunk with ``remove`` from its end (so each operation's index is valid when it
is applied); anything else that differs is replaced. Applied in order to the client's
state, it gives the new state exactly.
"""

from __future__ import annotations

from typing import Any

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
        shared = min(len(before), len(after))
        for i in range(shared):
            _diff(before[i], after[i], (*at, i), out)
        for i in range(shared, len(after)):
            out.append({"op": "add", "path": pointer(*at, i), "value": after[i]})
        for i in range(len(before) - 1, shared - 1, -1):
            out.append({"op": "remove", "path": pointer(*at, i)})
        return
    if type(before) is not type(after) or before != after:
        out.append({"op": "replace", "path": pointer(*at), "value": after})

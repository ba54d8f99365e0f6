"""Lean answers: a resulting state sent as an RFC 6902 JSON Patch against the state the
client sent, for clients that keep their copy and want only what changed.

The state as sent may leave out what has a default; the resulting state has every field.
A field the client never sent whose value in the resulting state is still its default
(the state as read, ``filled``, has the same) is left out of the patch: the patch says
what changed, not what the model fills in (a first move of a two-field action was 15
operations, 13 of them defaults). A default that did change is added whole.

The patch is made by walking both documents: a map's keys are removed, added or walked
into; a list keeps the items it starts and ends with unchanged as they are (so an army
leaving the middle of a list is one ``remove``, not a ``replace`` of every army after it),
and its middle is walked index by index over the length both share, then grown with
``add`` or shrunk with ``remove`` from its end (so each operation's index is valid when it
is applied); anything else that differs is replaced. Applied in order to the client's
state, it gives the new state exactly.
"""

from __future__ import annotations

import copy
from typing import Any

import orjson

from arbiter.engine.errors import pointer

Operation = dict[str, Any]


def json_patch(before: Any, after: Any, filled: Any = None) -> list[Operation]:
    """The operations that turn ``before`` into ``after``, or into ``after`` less the
    defaults ``before`` left out and ``after`` keeps as they were in ``filled`` (``before``
    as read: with its defaults, in ``after``'s form)."""
    operations: list[Operation] = []
    if filled is None:
        _diff(before, after, (), operations)
    else:
        _diff_sent(before, filled, after, (), operations)
    return operations


def _diff_sent(sent: Any, filled: Any, after: Any, at: tuple[object, ...],
               out: list[Operation]) -> None:
    """``_diff`` of ``sent`` and ``after``, walking ``filled`` (``sent`` as read) beside
    them: a key ``sent`` lacks is left alone while ``after`` has it as ``filled`` does."""
    if isinstance(sent, dict) and isinstance(after, dict):
        known = filled if isinstance(filled, dict) else {}
        for key in sent:
            if key not in after:
                out.append({"op": "remove", "path": pointer(*at, key)})
        for key, value in after.items():
            if key in sent:
                _diff_sent(sent[key], known.get(key, sent[key]), value, (*at, key), out)
            elif not (key in known and _same(known[key], value)):
                out.append({"op": "add", "path": pointer(*at, key), "value": value})
        return
    if isinstance(sent, list) and isinstance(after, list) and isinstance(filled, list) \
            and len(filled) == len(sent):
        _diff_list(filled, after, at, out, sent)
        return
    if isinstance(sent, (dict, list)) or isinstance(after, (dict, list)):
        _diff(sent, after, at, out)
    elif not _same(filled, after):
        out.append({"op": "replace", "path": pointer(*at), "value": after})


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
               out: list[Operation], sent: list[Any] | None = None) -> None:
    """``before``'s items matched with ``after``'s; ``sent``: ``before`` as sent (when
    ``before`` is it as read), whose items are walked beside them."""
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
        if sent is None:
            _diff(old[i], new[i], (*at, start + i), out)
        else:
            _diff_sent(sent[start + i], old[i], new[i], (*at, start + i), out)
    for i in range(shared, len(new)):
        out.append({"op": "add", "path": pointer(*at, start + i), "value": new[i]})
    for i in range(len(old) - 1, shared - 1, -1):
        out.append({"op": "remove", "path": pointer(*at, start + i)})


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: Python's ``==`` alone takes 1 for true and 1.0 for 1."""
    return bool(a == b) and orjson.dumps(a) == orjson.dumps(b)


def applied(document: Any, operations: list[Operation]) -> Any:
    """``document`` with ``operations`` (as ``json_patch`` makes them: add, remove and
    replace at paths that hold) applied, ``document`` left as it was."""
    result = copy.deepcopy(document)
    for operation in operations:
        tokens = [t.replace("~1", "/").replace("~0", "~")
                  for t in operation["path"].split("/")[1:]]
        if not tokens:
            result = copy.deepcopy(operation["value"])
            continue
        parent = result
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last: Any = int(tokens[-1]) if isinstance(parent, list) else tokens[-1]
        if operation["op"] == "remove":
            del parent[last]
        elif operation["op"] == "add" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(operation["value"]))
        else:
            parent[last] = copy.deepcopy(operation["value"])
    return result

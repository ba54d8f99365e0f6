"""Where a problem is, said both ways: the REST JSON pointer (``/action/moves/0/from_region``)
and the GraphQL path of the same input (``["validate", "action", "redeploy", "moves", 0,
"fromRegion"]``): the field that takes the argument, the argument, the one-of member,
camelCase field names, and a count map's entry by its index in the list it travels as.

``Where`` reads a pointer against the argument values a resolver received (strawberry's
input objects); ``input_problems`` does the same for the inputs GraphQL itself refused,
from its own types.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import strawberry

from arbiter.graphql.types import TypeMaker

Path = list[str | int]


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)


def segments(pointer: str) -> list[str]:
    """The unescaped segments of a JSON pointer (RFC 6901)."""
    if not pointer:
        return []
    return [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/")[1:]]


@dataclass(frozen=True, slots=True)
class Where:
    """One field's arguments as it received them: ``field`` its GraphQL name, ``arguments``
    by their Python (REST) names; ``parent`` the field above it that took the state;
    ``whole`` the argument that is REST's whole body (a board: PUT's body is the board
    itself), in which every pointer is read."""

    field: str
    arguments: dict[str, Any]
    maker: TypeMaker
    parent: Where | None = None
    counts: dict[str, str] = dataclasses.field(default_factory=dict)  # count-map arguments
    whole: str | None = None

    def path(self, pointer: str) -> Path | None:
        """The GraphQL path of what ``pointer`` names in this field's arguments (or its
        parent's); None when no argument holds it (a pointer at the whole request)."""
        parts = segments(pointer)
        if not parts:
            return [self.field]
        if self.whole is not None:
            return [self.field, camel(self.whole),
                    *_walk(self.arguments[self.whole], parts, self.maker)]
        if parts[0] in self.arguments:
            value = self.arguments[parts[0]]
            if parts[0] in self.counts and len(parts) > 1 and isinstance(value, list):
                return [self.field, camel(parts[0]), *_entry(value, self.counts[parts[0]],
                                                             parts[1:])]
            return [self.field, camel(parts[0]), *_walk(value, parts[1:], self.maker)]
        return self.parent.path(pointer) if self.parent is not None else None


def _walk(value: Any, parts: list[str], maker: TypeMaker) -> Path:
    """The GraphQL segments of ``parts`` (a pointer's rest) inside ``value``."""
    path: Path = []
    for i, part in enumerate(parts):
        if value is None or value is strawberry.UNSET:
            return path + [_segment(p) for p in parts[i:]]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            value, member = _member(value, maker)
            if member is not None:
                path.append(camel(member))
            counts = maker.count_fields.get(type(value), {})
            path.append(camel(part))
            entries = getattr(value, part, None)
            if part in counts and i + 1 < len(parts) and isinstance(entries, list):
                return path + _entry(entries, counts[part], parts[i + 1:])
            value = entries
        elif isinstance(value, list):
            index = _index(part)
            path.append(index if index is not None else part)
            value = value[index] if index is not None and 0 <= index < len(value) else None
        elif isinstance(value, dict):
            path.append(part)
            value = value.get(part)
        else:
            path.append(_segment(part))
            value = None
    return path


def _member(value: Any, maker: TypeMaker) -> tuple[Any, str | None]:
    """A one-of input's member that is set, and its tag; other inputs as they are."""
    if type(value) not in maker._one_of:
        return value, None
    for tag in maker.one_of(type(value)).variants:
        inner = getattr(value, tag, None)
        if inner is not None and inner is not strawberry.UNSET:
            return inner, tag
    return value, None


def _entry(entries: list[Any], key: str, rest: list[str]) -> Path:
    """``/units/archer`` in a count list: the index of archer's entry, then its count."""
    for index, entry in enumerate(entries):
        if getattr(entry, key, None) == rest[0]:
            return [index, "count", *(_segment(p) for p in rest[1:])]
    return [_segment(p) for p in rest]


def _index(part: str) -> int | None:
    return int(part) if part.isdigit() else None


def _segment(part: str) -> str | int:
    index = _index(part)
    return index if index is not None else part


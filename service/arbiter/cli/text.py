"""An answer's JSON as text for a person (``--format text`` of the query commands and
``new-game``): one ``field: value`` line per field, nested fields indented under theirs,
list items as ``- `` lines, and a small object or list kept on its line. Fields with
nothing in them (null, ``[]``, ``{}``) are left out: the JSON format has them all."""

from __future__ import annotations

from typing import Any

WIDTH = 100  # a line longer than this is split into nested lines


def _empty(value: Any) -> bool:
    return value is None or value == [] or value == {}


def inline(value: Any) -> str:
    """``value`` on one line: text bare, numbers and true/false as in JSON, an object as
    ``{field: value, ...}`` and a list as ``[item, ...]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {inline(v)}" for k, v in value.items()
                               if not _empty(v)) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(inline(v) for v in value) + "]"
    return str(value)


def lines(value: Any, indent: int = 0) -> list[str]:
    """``value`` (an object or a list) as indented lines."""
    pad = " " * indent
    out: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if _empty(item):
                continue
            if not isinstance(item, dict | list):
                out.append(f"{pad}{key}: {inline(item)}")
                continue
            one = f"{pad}{key}: {inline(item)}"
            out += [one] if len(one) <= WIDTH else [f"{pad}{key}:", *lines(item, indent + 2)]
        return out
    if isinstance(value, list):
        for item in value:
            one = f"{pad}- {inline(item)}"
            if len(one) <= WIDTH or not isinstance(item, dict | list):
                out.append(one)
            else:
                nested = lines(item, indent + 2)
                out.append(f"{pad}- {nested[0].lstrip()}" if nested else f"{pad}-")
                out += nested[1:]
        return out
    return [pad + inline(value)]


def text(answer: Any) -> str:
    """The whole answer as text, ending with a newline."""
    return "\n".join(lines(answer)) + "\n"

"""A small SVG element builder: every text and attribute value is escaped, and characters
XML 1.0 cannot carry (control characters a client may put in an id) become U+FFFD, so a
picture is well-formed whatever the state's ids hold."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

# XML 1.0 allows tab, newline and carriage return among the control characters, and no
# surrogates or the two non-characters U+FFFE/U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                          "'": "&#39;"})

Attr = str | int | float | None


def escape(text: str) -> str:
    """Text safe inside an element or a double-quoted attribute."""
    return _NOT_XML.sub("\ufffd", text).translate(_ESCAPES)


def number(value: float) -> str:
    """A coordinate with at most one decimal: short files, and the same digits each time."""
    text = f"{round(value, 1) + 0.0:.1f}"  # + 0.0: never "-0"
    return text[:-2] if text.endswith(".0") else text


@dataclass(slots=True)
class El:
    """An element: its tag, attributes (None leaves one out; floats print with one
    decimal), children and text."""

    tag: str
    attrs: Mapping[str, Attr] = field(default_factory=dict)
    children: list[El] = field(default_factory=list)
    text: str | None = None

    def add(self, *children: El) -> El:
        self.children.extend(children)
        return self

    def extend(self, children: Iterable[El]) -> El:
        self.children.extend(children)
        return self


def el(tag: str, text: str | None = None, /, **attrs: Attr) -> El:
    """``el("circle", cx=1, r=2)``; an attribute named with a trailing underscore
    (``class_``) or with underscores for dashes (``font_size``) is written the SVG way."""
    return El(tag, {_attr_name(k): v for k, v in attrs.items()}, [], text)


def _attr_name(name: str) -> str:
    return name.removesuffix("_").replace("_", "-")


def _value(value: Attr) -> str:
    if isinstance(value, float):
        return number(value)
    return escape(str(value))


def write(root: El) -> str:
    """The element as XML text (no declaration: the answer is embedded in JSON or HTML)."""
    parts: list[str] = []
    _write(root, parts)
    return "".join(parts)


def _write(node: El, parts: list[str]) -> None:
    attrs = "".join(f' {k}="{_value(v)}"' for k, v in node.attrs.items() if v is not None)
    if not node.children and node.text is None:
        parts.append(f"<{node.tag}{attrs}/>")
        return
    parts.append(f"<{node.tag}{attrs}>")
    if node.text is not None:
        parts.append(escape(node.text))
    for child in node.children:
        _write(child, parts)
    parts.append(f"</{node.tag}>")

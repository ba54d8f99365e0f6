"""How much room a drawn thing takes: axis-aligned boxes in the picture's coordinates (px),
and the box of a text from the font's measured metrics, so the drawing can keep every
label clear of every piece without a browser to measure them.

The metrics are DejaVu Sans (the pictures' first font) as headless Chromium's
``getBBox()`` measures it: a text's box runs from 0.93 em above its baseline to 0.24 em
below (the font's ascent and descent, whatever the letters), and each character advances
by its width below, the wider of the book and bold faces, rounded up to 0.05 em (measured
at 100 px; a digit is 0.636 em in book, 0.696 em in bold). A character not listed counts
1.1 em, as wide as the widest listed. Verdana, the fallback, is within these widths but
for its bold digits (0.711 em): ``PAD`` keeps a margin for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

ASCENT = 0.93
DESCENT = 0.24
PAD = 1.0    # px round a text's box: Verdana's wider bold digits, and rounding
_WIDTHS = {
    0.35: " il'", 0.4: "jI.,:;·/", 0.45: "fJ-", 0.5: "rt()", 0.55: "_", 0.6: "csz?",
    0.65: "xL", 0.7: "0123456789aekovyEFT", 0.75: "bdghnpquCPSYZ", 0.8: "ABRVX",
    0.85: "DGHKNU+→#", 0.9: "OQ&", 0.95: "w", 1.0: "M…@", 1.05: "m%", 1.15: "W",
}
EM = {c: width for width, chars in _WIDTHS.items() for c in chars}
UNKNOWN = 1.1


@dataclass(frozen=True, slots=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def meets(self, other: Box) -> bool:
        """The two overlap (boxes that only touch do not)."""
        return (self.left < other.right and other.left < self.right
                and self.top < other.bottom and other.top < self.bottom)

    def moved(self, dx: float, dy: float) -> Box:
        return Box(self.left + dx, self.top + dy, self.right + dx, self.bottom + dy)

    def grown(self, by: float) -> Box:
        return Box(self.left - by, self.top - by, self.right + by, self.bottom + by)

    def union(self, other: Box) -> Box:
        return Box(min(self.left, other.left), min(self.top, other.top),
                   max(self.right, other.right), max(self.bottom, other.bottom))

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top


def disc(x: float, y: float, r: float) -> Box:
    return Box(x - r, y - r, x + r, y + r)


def text_width(text: str, size: float) -> float:
    return size * math.fsum(EM.get(c, UNKNOWN) for c in text)


def text_box(text: str, x: float, baseline: float, size: float, anchor: str = "middle",
             halo: float = 0.0) -> Box:
    """The box of ``text`` written at ``x`` (its ``text-anchor``: start, middle) on
    ``baseline`` at ``size`` px, with a white halo of ``halo`` px round its letters."""
    width = text_width(text, size)
    left = x - width / 2 if anchor == "middle" else x
    return Box(left, baseline - ASCENT * size, left + width,
               baseline + DESCENT * size).grown(PAD + halo / 2)

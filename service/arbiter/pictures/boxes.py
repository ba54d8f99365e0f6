"""How much room a drawn thing takes: axis-aligned boxes in the picture's coordinates (px),
and the box of a text from the font's measured metrics, so the drawing can keep every
label clear of every piece without a browser to measure them.

The metrics are DejaVu Sans (the pictures' first font) as headless Chromium's
``getBBox()`` measures it at every size the pictures write (7 to 11 px by tenths, and
100 px), book and bold, the largest found rounded up to 0.05 em: a text's box runs from
1 em above its baseline to 0.3 em below (the font's ascent and descent, 0.93 and 0.24 em
at 100 px, rounded to the pixel at small sizes), whatever the letters, and each character
advances by its width below. Small sizes round advances to the pixel too, so a bold digit
takes up to 0.8 em at 7 to 11 px, against 0.696 em at 100 px.
A character not listed counts 1.25 em, wider than any listed. Verdana, the fallback, is
within these widths; ``PAD`` keeps a margin round every text besides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

ASCENT = 1.0
DESCENT = 0.3
PAD = 1.0    # px round a text's box: rounding, a fallback font
_WIDTHS = {
    0.35: " '", 0.4: "il", 0.45: "I.,:;·", 0.5: "-()/", 0.55: "j", 0.6: "ftJ", 0.65: "cr?",
    0.7: "sz", 0.75: "1235789adeghnquxyEFL", 0.8: "046bopvCS_", 0.85: "kBPZ",
    0.9: "ADGHNRTUVX+#", 0.95: "KOQ→", 1.0: "Y&", 1.05: "wM…", 1.1: "m@%", 1.2: "W",
}
EM = {c: width for width, chars in _WIDTHS.items() for c in chars}
UNKNOWN = 1.25


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

"""What a JSON body may cost before any parser sees it: its nesting depth, its number of
values and the length of its longest string, measured over the bytes as they came, in
memory bounded by the body's size (a copy or two of it, never a tree).

Why before: the parsers behind the strict reading are not bounded by a body's size alone.
pydantic-core answers a body that does not match its model with errors that each carry
their whole input as Python objects, one copy per error (a 1 MB body of 510,000 tiny lists
under an unknown key, with ``state`` and ``action`` missing: 4 errors, +210 MiB, 2.4 s);
orjson reads 1024 levels but writes only 255, and the service writes client JSON back (a
body nested 256 deep was a 500). Bounded here, what follows is bounded too: a refused body
costs the scan alone.

The scan, in C-speed passes over the bytes (``bytes.split``, ``translate``, ``count``):
strings are cut out first (on their quotes; a body with a backslash, which may escape a
quote, by a regular expression whose possessive quantifier makes it linear), so brackets,
commas and colons inside strings count for nothing; values are then one more than the
commas, plus each container with something in it (every element after the first follows
a comma; a member's key is no value); depth is the running sum of brackets opened and
closed. Measured on a loaded 2-core machine: a 1.5 KB validate body 0.16 ms against 0.08
for the strict reading's orjson parse and write-back; the 502 KB 10,000-hex body 65 ms
against 40; the 1 MB junk body of 510,000 values 116 ms, refused before the 167 ms of
parsing it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import accumulate

from arbiter.engine.errors import Problem
from arbiter.service.problems import LimitExceeded

# orjson writes at most 255 levels: the depth limit stays below, so whatever the service
# writes back of a client's JSON (its board, its state in a GraphQL variable) is writable.
WRITABLE_DEPTH = 254
_WHITESPACE = b" \t\r\n"
# Opening brackets +1, closing -1 (as signed bytes), everything else dropped.
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


@dataclass(frozen=True, slots=True)
class Measured:
    """What the scan found: ``depth`` levels of nesting, ``values`` JSON values (every
    scalar, array and object, a member's key not counted), and ``longest`` the bytes of
    the longest string as sent (escapes as written; a string past ``string_cap`` counts as
    ``string_cap + 1``)."""

    depth: int
    values: int
    longest: int


def measure(body: bytes, string_cap: int) -> Measured:
    """The depth, values and longest string of ``body`` (read as JSON, whatever it is:
    a body that is not JSON is measured as if it were, and refused by its parse after)."""
    if b"\\" in body:
        # A quote may be escaped: the strings are found by what may be in them, each
        # replaced by a 0; one past the cap is left whole, its quote left over.
        short = re.compile(rb'"(?:[^"\\]|\\.){0,%d}+"' % string_cap)
        bare = short.sub(b"0", body)
        longest = string_cap + 1 if b'"' in bare else 0
    else:
        # Without escapes, every other piece between quotes is a string.
        pieces = body.split(b'"')
        longest = max(map(len, pieces[1::2]), default=0)
        bare = b"0".join(pieces[0::2])
        del pieces
    bare = bare.translate(None, _WHITESPACE)
    values = 1 + bare.count(b",") + bare.count(b"[") + bare.count(b"{") \
        - bare.count(b"[]") - bare.count(b"{}")
    steps = memoryview(bare.translate(_STEPS, _NOT_BRACKETS)).cast("b")
    depth = max(accumulate(steps), default=0)
    return Measured(depth, values, longest)


@dataclass(frozen=True, slots=True)
class JsonBounds:
    """The bounds on one JSON body (``ARBITER_MAX_JSON_DEPTH``, ``ARBITER_MAX_JSON_VALUES``,
    ``ARBITER_MAX_JSON_STRING_BYTES``)."""

    max_depth: int = 64
    max_values: int = 131_072
    max_string_bytes: int = 65_536

    def check(self, body: bytes) -> None:
        """Raise ``LimitExceeded`` for a body over a bound: 413 for too many values or too
        long a string, 422 for nesting too deep, each naming its variable."""
        # Upper bounds first (commas and brackets within strings counted too): a body
        # within them all is within the bounds.
        rough = 1 + body.count(b",") + body.count(b"[") + body.count(b"{")
        if rough <= self.max_values and len(body) <= self.max_string_bytes \
                and body.count(b"[") + body.count(b"{") <= self.max_depth:
            return
        found = measure(body, self.max_string_bytes)
        if found.values > self.max_values:
            raise LimitExceeded(413, "ARBITER_MAX_JSON_VALUES", self.max_values, [Problem(
                "", f"the body holds {found.values} JSON values; at most {self.max_values} "
                "(ARBITER_MAX_JSON_VALUES)")])
        if found.longest > self.max_string_bytes:
            raise LimitExceeded(413, "ARBITER_MAX_JSON_STRING_BYTES", self.max_string_bytes,
                                [Problem("", f"the body holds a string of more than "
                                         f"{self.max_string_bytes} bytes "
                                         "(ARBITER_MAX_JSON_STRING_BYTES)")])
        if found.depth > self.max_depth:
            raise LimitExceeded(422, "ARBITER_MAX_JSON_DEPTH", self.max_depth, [Problem(
                "", f"the body is nested {found.depth} levels deep; at most {self.max_depth} "
                "(ARBITER_MAX_JSON_DEPTH)")])

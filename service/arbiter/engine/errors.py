"""Malformed input, as opposed to an illegal action.

A state or action that cannot be judged at all (an army on a hex that does not exist, a
count larger than the pile it comes from, two armies with one id) raises
``InvalidInput``; the transport turns it into a 422 problem naming the JSON pointer of
each bad field. An action that is well formed but breaks a rule is a ``Violation``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One bad field: its RFC 6901 JSON pointer within the request body, and why."""

    pointer: str
    detail: str


def pointer(*parts: object) -> str:
    """Build a JSON pointer, escaping ``~`` and ``/`` in each part (RFC 6901)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class InvalidInput(Exception):
    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(f"{p.pointer}: {p.detail}" for p in self.problems))


class Problems:
    """Collects problems and raises them together, so a client sees every bad field."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, ptr: str, detail: str) -> None:
        self.items.append(Problem(ptr, detail))

    def raise_if_any(self) -> None:
        if self.items:
            raise InvalidInput(self.items)

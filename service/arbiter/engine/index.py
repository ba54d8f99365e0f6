"""Indexing the pieces of a state by id while checking it: the one place that reports an id
listed twice and a reference to something the state does not hold, each at its JSON
pointer, so every ruleset's board says these things the same way."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from arbiter.engine.errors import Problems, pointer


class HasId(Protocol):
    @property
    def id(self) -> str: ...


def index_by_id(items: Sequence[HasId], at: tuple[object, ...], what: str,
                problems: Problems) -> dict[str, int]:
    """The position of each item by its id (the first, when one repeats). A repeated id is
    reported at ``<at>/<i>/id``: "<what> <id> is listed twice"."""
    found: dict[str, int] = {}
    for i, item in enumerate(items):
        item_id = item.id
        if item_id in found:
            problems.add(pointer(*at, i, "id"), f"{what} {item_id} is listed twice")
            continue
        found[item_id] = i
    return found


def check_ref(ref: str, known: Collection[str], at: tuple[object, ...], what: str,
              problems: Problems) -> bool:
    """Whether ``ref`` names one of ``known``; if not, "unknown <what> <ref>" at ``at``."""
    if ref in known:
        return True
    problems.add(pointer(*at), f"unknown {what} {ref}")
    return False

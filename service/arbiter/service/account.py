"""What one request has spent so far: seconds of judging (against its compute budget),
bytes of answers (against the answer limit, added up over the questions of a request that
asks several), and the answers it has read back from the cache (so that the aliases of
one question in one GraphQL operation read its cached answer once). Opened by the HTTP
guard for each request (``opened``), read and added to by whatever works for the request
in its context (``spent_now``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Spent:
    seconds: float = 0.0
    answer_bytes: int = 0
    read_back: dict[bytes, Any] = field(default_factory=dict)


_spent: ContextVar[Spent | None] = ContextVar("arbiter_spent", default=None)


@contextmanager
def opened() -> Iterator[Spent]:
    """A fresh account for the request answered in this block."""
    spent = Spent()
    token = _spent.set(spent)
    try:
        yield spent
    finally:
        _spent.reset(token)


def spent_now() -> Spent:
    """The current request's account (a fresh one outside a request: the CLI, a test)."""
    return _spent.get() or Spent()

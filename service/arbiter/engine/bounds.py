"""The bounds a request is judged within, as the engine sees them: two questions its long
loops ask, answered by whoever runs the engine.

- ``checkpoint()``: the engine's long loops (the legal-actions listing, path searches,
  a turn's resolution, a picture's layout, a batch of actions) call it between two steps;
  it raises when the request's compute budget is spent, so the work stops there.
- ``check_answer(predicted)``: a query that can answer far more than it was asked (every
  path to every hex, every target in range of each) predicts the size of its answer from
  what it found, before building it; over the limit this raises.

The service sets the bounds for each computation (``within``; its ``Bounds`` raise its
own problems, a 422 naming the budget and a 413 naming the answer limit); unset, both
are no-ops (the tests of the rules). The engine never reads a clock: the bounds do. A
check is a context-variable read and a call, a fraction of a microsecond, so it sits
between steps that each cost more than that.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol


class Bounds(Protocol):
    def checkpoint(self) -> None:
        """Raise when the computation has spent its budget."""

    def check_answer(self, predicted: int, what: str) -> None:
        """Raise when an answer of ``predicted`` bytes of JSON would be over the limit."""


_BOUNDS: ContextVar[Bounds | None] = ContextVar("arbiter_bounds", default=None)


def checkpoint() -> None:
    """Between two steps of a long loop: stop here when the budget is spent."""
    bounds = _BOUNDS.get()
    if bounds is not None:
        bounds.checkpoint()


def check_answer(predicted: int, what: str = "the answer") -> None:
    """Before building an answer predicted to take ``predicted`` bytes of JSON."""
    bounds = _BOUNDS.get()
    if bounds is not None:
        bounds.check_answer(predicted, what)


@contextmanager
def within(bounds: Bounds | None) -> Iterator[None]:
    """The engine's work in this block (this thread, this context) runs within ``bounds``."""
    token = _BOUNDS.set(bounds)
    try:
        yield
    finally:
        _BOUNDS.reset(token)

"""How large an answer may grow: a query that can answer far more than it was asked
(every path to every hex, every target in range of each) predicts the size of its answer
from what it found, before building it, and calls ``check_answer``; over the limit it
raises ``AnswerTooLarge``, which the transport turns into a 413 naming
``ARBITER_MAX_ANSWER_BYTES``. The limit is set by the transport for the computation
(``ANSWER_LIMIT``, a context variable: per request, per thread); unset, answers are not
bounded here (the CLI, the tests of the rules)."""

from __future__ import annotations

from contextvars import ContextVar

ANSWER_LIMIT: ContextVar[int] = ContextVar("arbiter_answer_limit", default=0)


class AnswerTooLarge(Exception):
    """An answer predicted (or found) to be over ``maximum`` bytes of JSON."""

    def __init__(self, predicted: int, maximum: int, what: str) -> None:
        self.predicted = predicted
        self.maximum = maximum
        self.what = what
        super().__init__(f"{what} would take about {predicted} bytes; at most {maximum} "
                         "(ARBITER_MAX_ANSWER_BYTES)")


def check_answer(predicted: int, what: str = "the answer") -> None:
    """Raise ``AnswerTooLarge`` when ``predicted`` bytes exceed the current limit."""
    maximum = ANSWER_LIMIT.get()
    if 0 < maximum < predicted:
        raise AnswerTooLarge(predicted, maximum, what)

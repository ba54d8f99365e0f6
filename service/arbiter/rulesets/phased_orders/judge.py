"""``judge`` for phased_orders: the action goes to its judging in ``turn.py`` (``resolve``:
a whole turn; ``submit``: one player's orders checked alone), which fills a verdict
against this ruleset's catalogue. Its 422 pointers name the action's fields as validate's
body holds them (``/action/orders/0/unit``); ``from_action`` moves them to the top, for a
request that holds those fields there (the resolve query, a picture's trace overlay)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Verdict

from .board import Board
from .catalogue import CATALOGUE
from .models import PhasedOrdersAnyAction, PhasedOrdersSubmit
from .turn import judge_resolve, judge_submit


def judge(board: Board, action: PhasedOrdersAnyAction) -> Judgement:
    verdict = Verdict(CATALOGUE)
    if isinstance(action, PhasedOrdersSubmit):
        return judge_submit(board, action, verdict)
    return judge_resolve(board, action, verdict)


@contextmanager
def from_action() -> Iterator[None]:
    """The judge's pointers without their ``/action`` (``/orders/0/unit``), for a request
    whose own top holds the action's fields: a pointer names the body it answers."""
    try:
        yield
    except InvalidInput as exc:
        raise InvalidInput(
            Problem(p.pointer.removeprefix("/action"), p.detail) for p in exc.problems
        ) from None

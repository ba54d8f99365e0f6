"""``Compute.run``: work in a worker thread, or inline on the event loop when the caller
knows it to be small; either way held to the request's budget and answer limit."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from arbiter.api.limits import (
    BudgetExceeded,
    Compute,
    LimitExceeded,
    LoopShare,
    end_request,
    start_request,
)
from arbiter.engine.sizes import check_answer


def _run(compute: Compute, fn: object, inline: bool) -> object:
    async def main() -> object:
        token = start_request()
        try:
            return await compute.run(fn, inline)  # type: ignore[arg-type]  # any callable
        finally:
            end_request(token)

    return asyncio.run(main())


@pytest.mark.parametrize("inline", [False, True])
def test_the_work_runs_on_the_loop_only_when_inline(inline: bool) -> None:
    ran_in: list[threading.Thread] = []
    assert _run(Compute(1000, 2), lambda: ran_in.append(threading.current_thread()) or 7,
                inline) == 7
    assert (ran_in[0] is threading.main_thread()) is inline


@pytest.mark.parametrize("inline", [False, True])
def test_work_past_the_budget_is_refused_either_way(inline: bool) -> None:
    with pytest.raises(BudgetExceeded):
        _run(Compute(20, 1), lambda: time.sleep(0.06), inline)


@pytest.mark.parametrize("inline", [False, True])
def test_the_answer_limit_holds_either_way(inline: bool) -> None:
    with pytest.raises(LimitExceeded) as refused:
        _run(Compute(1000, 1, max_answer_bytes=100), lambda: check_answer(1000, "it"), inline)
    assert refused.value.limit == "ARBITER_MAX_ANSWER_BYTES"


def test_inline_work_takes_at_most_its_share_of_the_loop() -> None:
    """Past ``share`` of a window, work offered inline goes to a thread until it ends."""
    share = LoopShare(window=60.0, share=0.5)  # 30 s of a minute: the test never ends it
    assert share.take()
    share.spend(20.0)
    assert share.take()
    share.spend(10.0)
    assert not share.take()
    compute = Compute(1000, 1)
    compute._loop_time = share
    assert _run(compute, lambda: threading.current_thread() is threading.main_thread(),
                True) is False
    ended = LoopShare(window=0.001, share=0.5)
    assert ended.take()
    ended.spend(5.0)
    time.sleep(0.01)
    assert ended.take()  # a new window


def _here(compute: Compute, fn: object) -> object:
    """``Compute.run_here`` from this thread, the service's loop running in another (as
    a GraphQL operation runs on GraphQL's thread)."""
    service = asyncio.new_event_loop()
    thread = threading.Thread(target=service.run_forever, daemon=True)
    thread.start()
    token = start_request()
    try:
        return compute.run_here(fn, service)  # type: ignore[arg-type]  # any callable
    finally:
        end_request(token)
        service.call_soon_threadsafe(service.stop)
        thread.join(5)
        service.close()


def test_run_here_works_on_the_calling_thread() -> None:
    ran_in: list[threading.Thread] = []
    assert _here(Compute(1000, 1), lambda: ran_in.append(threading.current_thread()) or 7) == 7
    assert ran_in == [threading.current_thread()]


def test_run_here_stops_work_at_its_deadline() -> None:
    """Busy Python work (no sleep to end on its own) is stopped by the service loop's
    watch once its budget is spent, not when it would have ended (20 s)."""
    def spin() -> None:
        end = time.perf_counter() + 20
        while time.perf_counter() < end:
            pass

    started = time.perf_counter()
    with pytest.raises(BudgetExceeded):
        _here(Compute(150, 1), spin)
    assert time.perf_counter() - started < 5


def test_run_here_holds_the_answer_limit_and_refuses_a_spent_budget() -> None:
    with pytest.raises(LimitExceeded) as refused:
        _here(Compute(1000, 1, max_answer_bytes=100), lambda: check_answer(1000, "it"))
    assert refused.value.limit == "ARBITER_MAX_ANSWER_BYTES"
    with pytest.raises(BudgetExceeded):
        _here(Compute(20, 1), lambda: time.sleep(0.06))

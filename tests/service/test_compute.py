"""``Compute.run``: work in a worker thread, inline on the event loop when the caller knows
it to be small, or on the calling thread when the request runs on another loop; every
way held to the request's budget (cooperatively: the engine's checkpoints) and to the
answer limit."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from arbiter.engine.bounds import check_answer, checkpoint
from arbiter.service.account import opened, spent_now
from arbiter.service.compute import Compute
from arbiter.service.loop_share import LoopShare
from arbiter.service.loops import run_on
from arbiter.service.problems import BudgetExceeded, LimitExceeded


def _run(compute: Compute, fn: Callable[[], Any], inline: bool = False) -> Any:
    async def main() -> Any:
        with opened():
            return await compute.run(fn, inline)

    return asyncio.run(main())


def _away(compute: Compute, fn: Callable[[], Any]) -> Any:
    """``Compute.run`` for a request run on another loop, in another thread (as a GraphQL
    operation runs on GraphQL's own loop)."""
    other = asyncio.new_event_loop()
    thread = threading.Thread(target=other.run_forever, daemon=True)
    thread.start()

    async def main() -> Any:
        with opened():
            return await run_on(other, compute.run(fn))

    try:
        return asyncio.run(main())
    finally:
        other.call_soon_threadsafe(other.stop)
        thread.join(5)
        other.close()


def spin(seconds: float) -> Callable[[], None]:
    """Busy Python work that meets a checkpoint at every step, for ``seconds``."""
    def work() -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            checkpoint()
    return work


@pytest.mark.parametrize("inline", [False, True])
def test_the_work_runs_on_the_loop_only_when_inline(inline: bool) -> None:
    ran_in: list[threading.Thread] = []
    assert _run(Compute(1000, 2), lambda: ran_in.append(threading.current_thread()) or 7,
                inline) == 7
    assert (ran_in[0] is threading.main_thread()) is inline


def test_work_for_a_request_on_another_loop_runs_on_that_loops_thread() -> None:
    ran_in: list[str] = []
    assert _away(Compute(1000, 1), lambda: ran_in.append(threading.current_thread().name)
                 or 7) == 7
    assert ran_in and not ran_in[0].startswith("arbiter-judge")
    assert ran_in[0] != threading.main_thread().name


@pytest.mark.parametrize("where", ["thread", "inline", "away"])
def test_the_budget_stops_work_at_its_next_checkpoint(where: str) -> None:
    """Work that would run 20 s stops at the first checkpoint past its 150 ms."""
    compute = Compute(150, 1)
    started = time.perf_counter()
    with pytest.raises(BudgetExceeded) as refused:
        if where == "away":
            _away(compute, spin(20))
        else:
            _run(compute, spin(20), inline=where == "inline")
    assert time.perf_counter() - started < 5
    assert refused.value.limit == "ARBITER_COMPUTE_BUDGET_MS"


@pytest.mark.parametrize("inline", [False, True])
def test_work_past_the_budget_without_a_checkpoint_is_refused_all_the_same(
        inline: bool) -> None:
    with pytest.raises(BudgetExceeded):
        _run(Compute(20, 1), lambda: time.sleep(0.06), inline)


def test_the_budget_is_shared_by_the_computations_of_one_request() -> None:
    """Each computation gets what the request's earlier ones left."""
    compute = Compute(200, 1)

    async def main() -> float:
        with opened():
            await compute.run(spin(0.12))
            with pytest.raises(BudgetExceeded):
                await compute.run(spin(0.12))
            return spent_now().seconds

    assert asyncio.run(main()) < 0.5


def test_no_budget_is_no_deadline() -> None:
    assert _run(Compute(0, 1), lambda: spin(0.05)() or "done") == "done"


@pytest.mark.parametrize("where", ["thread", "inline", "away"])
def test_the_answer_limit_holds_every_way(where: str) -> None:
    compute = Compute(1000, 1, max_answer_bytes=100)
    with pytest.raises(LimitExceeded) as refused:
        if where == "away":
            _away(compute, lambda: check_answer(1000, "it"))
        else:
            _run(compute, lambda: check_answer(1000, "it"), inline=where == "inline")
    assert refused.value.limit == "ARBITER_MAX_ANSWER_BYTES"


def test_outside_a_computation_the_bounds_are_none() -> None:
    checkpoint()
    check_answer(10**12)


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

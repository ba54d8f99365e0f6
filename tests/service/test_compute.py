"""``Compute.run``: work in a worker thread, whichever loop the request runs on, or inline
on the event loop when the caller knows it to be small (moved to a thread when it is
not); every way held to the request's budget (cooperatively: the engine's checkpoints)
and to the answer limit, and never more at once than the compute threads."""

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
from arbiter.service.slots import HELD, Held


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


def test_work_for_a_request_on_another_loop_runs_in_the_compute_threads() -> None:
    ran_in: list[str] = []
    assert _away(Compute(1000, 1), lambda: ran_in.append(threading.current_thread().name)
                 or 7) == 7
    assert ran_in and ran_in[0].startswith("arbiter-judge")


def test_inline_work_that_is_not_small_moves_to_a_thread() -> None:
    """Past ``INLINE_SECONDS`` at a checkpoint, work offered inline stops and is done again
    in a thread: the loop is held for a few milliseconds, not for the work."""
    ran_in: list[threading.Thread] = []

    def work() -> str:
        ran_in.append(threading.current_thread())
        spin(0.1)()
        return "done"

    assert _run(Compute(5000, 1), work, inline=True) == "done"
    assert ran_in[0] is threading.main_thread()
    assert ran_in[1] is not threading.main_thread() and len(ran_in) == 2


def test_two_loops_judge_no_more_at_once_than_the_threads() -> None:
    """REST on the service's loop and GraphQL on its own share the slots: with one thread,
    work from either loop never overlaps the other's."""
    compute = Compute(5000, 1)
    running, most = [0], [0]
    lock = threading.Lock()

    def work() -> None:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1

    other = asyncio.new_event_loop()
    thread = threading.Thread(target=other.run_forever, daemon=True)
    thread.start()

    async def main() -> None:
        with opened():
            await asyncio.gather(*(compute.run(work) for _ in range(3)),
                                 *(run_on(other, compute.run(work)) for _ in range(3)))

    try:
        asyncio.run(main())
    finally:
        other.call_soon_threadsafe(other.stop)
        thread.join(5)
        other.close()
    assert most[0] == 1
    assert compute.slots.free == 1


def test_an_operation_holds_its_slot_until_it_gives_it_up() -> None:
    """A GraphQL operation's slot (``slots.Held``) is taken at its first judging and kept
    across its others: another request waits until the operation gives it up."""
    compute = Compute(5000, 1)
    order: list[str] = []

    async def operation() -> None:
        held = Held(compute.slots)
        HELD.set(held)
        await compute.run(lambda: order.append("op 1"))
        await asyncio.sleep(0.05)  # completing its answer, slot held
        await compute.run(lambda: order.append("op 2"))
        order.append("op written")
        held.give_up()

    async def other() -> None:
        await asyncio.sleep(0.01)
        await compute.run(lambda: order.append("other"))

    async def main() -> None:
        with opened():
            await asyncio.gather(asyncio.create_task(operation()), other())

    asyncio.run(main())
    assert order == ["op 1", "op 2", "op written", "other"]
    assert compute.slots.free == 1


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

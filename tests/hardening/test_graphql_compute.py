"""Issue 29, item 7 and the last finding of item 11: GraphQL judges in the worker's compute
threads, as REST does.

All GraphQL of a worker used to run on one thread of its own, judging included: two
clients looping an operation that runs to the budget made a third client's
``{ __typename }`` wait for both (9.6 s), and with that thread judging beside the
``ARBITER_COMPUTE_THREADS`` (2) of REST, three requests judged at once where the README's
memory arithmetic counts two. Now an operation's judging takes one of the compute
threads (held until its answer is written), and an operation that judges nothing waits
for none.

Against a live ``arbiter serve``; latencies are compared with the same request on the
quiet server of the same run, memory is the worker's peak (``VmHWM``) over its idle peak.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest

from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_STATE
from hardening.test_bounded import ferry_board
from hardening.test_held_connections import in_flight
from support import serving

pytestmark = pytest.mark.server

JSON = {"content-type": "application/json"}
URL = "/v1/rulesets/hex_maneuver"
LISTING = ("query($s: HexManeuverState!) { hexManeuver(state: $s) { "
           "legalActions(player: \"red\", limit: 10000) { count } } }")
CHEAP = {"query": "{ __typename }"}


def timed(call: Callable[[], httpx.Response]) -> tuple[httpx.Response, float]:
    started = time.perf_counter()
    response = call()
    return response, time.perf_counter() - started


def test_a_cheap_operation_does_not_wait_for_long_ones() -> None:
    env = {"ARBITER_COMPUTE_THREADS": "2", "ARBITER_COMPUTE_BUDGET_MS": "3000",
           "ARBITER_CACHE_SIZE": "0"}
    listing = orjson.dumps({"query": LISTING, "variables": {"s": ferry_board(30, 0)}})
    with serving(env) as server, httpx.Client(base_url=server.base, timeout=60) as http:
        quiet = statistics.median(timed(lambda: http.post("/graphql", json=CHEAP))[1]
                                  for _ in range(7))
        stop = threading.Event()
        answers: list[Any] = []

        def loop() -> None:
            with httpx.Client(base_url=server.base, timeout=60) as client:
                while not stop.is_set():
                    answers.append(client.post("/graphql", content=listing,
                                               headers=JSON).json())

        clients = [threading.Thread(target=loop) for _ in range(2)]
        for client in clients:
            client.start()
        try:
            time.sleep(1.0)  # not a measurement: both long operations are under way
            busy = []
            for _ in range(5):
                response, seconds = timed(lambda: http.post("/graphql", json=CHEAP))
                assert response.json() == {"data": {"__typename": "Query"}}
                busy.append(seconds)
                time.sleep(0.2)
        finally:
            stop.set()
            for client in clients:
                client.join()
    print(f"\n{{ __typename }} beside two looping listings: slowest {max(busy) * 1000:.0f} ms, "
          f"median {statistics.median(busy) * 1000:.0f} ms; quiet {quiet * 1000:.1f} ms")
    limits = {e["extensions"]["limit"] for a in answers for e in a.get("errors", [])}
    assert limits == {"ARBITER_COMPUTE_BUDGET_MS"}, answers[:2]  # they did run to the budget
    assert max(busy) < 40 * quiet, (busy, quiet)


SMALL = ("query($s: HexManeuverState!) { hexManeuver(state: $s) { "
         "reachable(army: \"red-1\") { destinations { cost } } } }")


def test_a_third_judging_waits_for_a_compute_thread() -> None:
    """Two REST listings that run to the budget take both compute threads: a GraphQL
    operation that judges (one small question) waits for one of them, where it used to
    judge at once on GraphQL's own thread, a third judging the memory arithmetic does not
    count (two REST and one GraphQL reachable measured +168 MiB against 120)."""
    env = {"ARBITER_COMPUTE_THREADS": "2", "ARBITER_COMPUTE_BUDGET_MS": "3000",
           "ARBITER_CACHE_SIZE": "0"}
    listing = orjson.dumps({"state": ferry_board(30, 0), "player": "red", "limit": 10_000})
    judging = {"query": SMALL, "variables": {"s": EXAMPLE_STATE}}
    with serving(env) as server, httpx.Client(base_url=server.base, timeout=60) as http:
        assert http.post("/graphql", json=judging).json()["data"] is not None
        quiet = statistics.median(timed(lambda: http.post("/graphql", json=judging))[1]
                                  for _ in range(5))
        finished: list[float] = []

        def list_all() -> None:
            with httpx.Client(base_url=server.base, timeout=60) as client:
                response = client.post(f"{URL}/legal-actions", content=listing,
                                       headers=JSON)
                assert response.json()["limit"] == "ARBITER_COMPUTE_BUDGET_MS"
                finished.append(time.perf_counter())

        listings = [threading.Thread(target=list_all) for _ in range(2)]
        for thread in listings:
            thread.start()
        # Both listings admitted (the scrape is the third request in flight), then a
        # moment to be judged: a fixed wait alone let a loaded machine's GraphQL operation
        # take a compute thread before they did.
        deadline = time.perf_counter() + 30
        while in_flight(server.base) < 3 and time.perf_counter() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)  # not a measurement
        response, waited = timed(lambda: http.post("/graphql", json=judging))
        done = time.perf_counter()
        for thread in listings:
            thread.join()
    print(f"\nGraphQL reachable beside two REST listings: {waited * 1000:.0f} ms "
          f"(quiet {quiet * 1000:.1f} ms); listings done {min(finished) - done:+.2f} s "
          "after it")
    assert response.json()["data"]["hexManeuver"]["reachable"]["destinations"]
    # It waited for a listing to give its compute thread up.
    assert waited > 20 * quiet, (waited, quiet)
    assert done > min(finished) - 10 * quiet, (done, finished)

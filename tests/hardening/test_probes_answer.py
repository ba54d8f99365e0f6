"""Issue 20: /healthz answers within 100 ms while the largest requests allowed are judged.

Judging runs in worker threads, but a thread inside one long call into pydantic-core or
orjson holds the GIL: a 2.7 MB ``reachable`` answer validated into its models in one
call kept /healthz waiting about a second. Each request here is the largest of its kind
the default limits allow (answers near ``ARBITER_MAX_ANSWER_BYTES``, legal-actions at its
largest ``limit`` until the budget stops it, a body of most of ``ARBITER_MAX_BODY_BYTES``),
with /healthz polled from another connection meanwhile. The bar is the issue's 100 ms,
plus the slowest probe of a quiet spell of this same run (what the machine itself adds:
the tests share a loaded machine); it is checked by the timing suite (the tests marked
``timing``, `make check-timing`), as four CPU hogs beside the server break it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest

from hardening.test_bounded import Probes, ferry_board, timed
from support import serve

pytestmark = pytest.mark.server
URL = "/v1/rulesets/hex_maneuver"
JSON = {"content-type": "application/json"}
BAR = 0.100  # the issue's: a probe answers within 100 ms while every worker judges
MOVE = {"type": "maneuver", "player": "red", "army": "a0", "path": [{"q": 1, "r": 0}]}


def polled(base: str) -> Probes:
    """/healthz polled every 5 ms, at least five times."""
    return Probes(base, every=0.005, at_least=5)


def served(budget_ms: int) -> Iterator[tuple[httpx.Client, float]]:
    """A server with the default answer and body limits and this budget, and the slowest
    probe of a quiet second on it."""
    env = {"ARBITER_CACHE_SIZE": "0", "ARBITER_COMPUTE_BUDGET_MS": str(budget_ms),
           "ARBITER_COMPUTE_THREADS": "2"}
    with serve(env) as base, httpx.Client(base_url=base, timeout=120) as http:
        with polled(base) as quiet:
            time.sleep(1.0)
        yield http, quiet.slowest


@pytest.fixture(scope="module")
def largest() -> Iterator[tuple[httpx.Client, float]]:
    """A 3 s budget: legal-actions at its largest limit is stopped by it."""
    yield from served(3000)


@pytest.fixture(scope="module")
def roomy() -> Iterator[tuple[httpx.Client, float]]:
    """A budget the largest GraphQL answer cannot reach on a slow shared machine (it takes
    0.7–1.5 s here; CI once saw it pass 3 s): what is tested with it is the probes while
    the answer is completed, not the budget."""
    yield from served(30_000)


def big_body_board() -> dict[str, Any]:
    """Most of a 1 MiB body within the default cell limits: 9919 hexes, 2000 armies."""
    state = ferry_board(57, 0)
    state["armies"] = [{**a, "id": a["id"] + "-" + "x" * 40} if i else a
                       for i, a in enumerate(state["armies"][:2000])]
    return state


CASES = {
    # 355 KB where galleys ferry everywhere, 50 structures in range: a 2.7 MB answer.
    "reachable": ("reachable", lambda: {"state": ferry_board(40, 50), "army": "a0"}, 200),
    # 60 whole states of 58 KB: a 3.5 MB answer, under the 4 MiB limit.
    "validate-batch": ("validate-batch", lambda: {"state": ferry_board(14, 0),
                                                  "actions": [MOVE] * 60,
                                                  "return": "state"}, 200),
    # The largest limit on a board with more maneuvers than it: stopped by the budget.
    "legal-actions": ("legal-actions", lambda: {"state": ferry_board(20, 0),
                                                "player": "red", "limit": 10_000}, 422),
    # A body of most of ARBITER_MAX_BODY_BYTES, parsed and judged, its state returned.
    "big-body": ("validate", lambda: {"state": big_body_board(), "action": MOVE}, 200),
}


@pytest.mark.parametrize("case", list(CASES))
def test_healthz_answers_during_the_largest_requests(
        largest: tuple[httpx.Client, float], case: str) -> None:
    """Each largest request answered as it should be while /healthz, polled at least five
    times meanwhile, answers 200 every time (Probes); within 100 ms is the timing suite's."""
    http, _ = largest
    route, make, status = CASES[case]
    body = orjson.dumps(make())
    with polled(str(http.base_url)):
        response = http.post(f"{URL}/{route}", content=body, headers=JSON)
    assert response.status_code == status, response.text[:300]
    if status == 200:
        assert len(response.content) > 500_000, len(response.content)
    else:
        assert response.json()["limit"] == "ARBITER_COMPUTE_BUDGET_MS"


@pytest.mark.timing
@pytest.mark.parametrize("case", list(CASES))
def test_healthz_answers_within_100_ms_during_the_largest_requests(
        largest: tuple[httpx.Client, float], case: str) -> None:
    http, quiet = largest
    route, make, status = CASES[case]
    body = orjson.dumps(make())
    assert len(body) < 1_048_576
    seen = []
    for _ in range(2):  # asked again once: one stall of a shared machine is not the loop's
        with polled(str(http.base_url)) as probes:
            response = http.post(f"{URL}/{route}", content=body, headers=JSON)
        assert response.status_code == status, response.text[:300]
        if status == 200:
            assert len(response.content) > 500_000, len(response.content)
        else:
            assert response.json()["limit"] == "ARBITER_COMPUTE_BUDGET_MS"
        seen.append(sorted(probes.latencies)[-5:])
        if probes.slowest < BAR + quiet:
            break
    assert min(s[-1] for s in seen) < BAR + quiet, (case, quiet, seen)


def large_graphql_answer() -> bytes:
    query = ("query($s: HexManeuverState!) { hexManeuver(state: $s) { reachable(army: "
             '"a0") { destinations { hex { q r } cost path { q r } } } } }')
    return orjson.dumps({"query": query, "variables": {"s": ferry_board(30, 20)}})


def test_healthz_answers_while_graphql_completes_a_large_answer(
        roomy: tuple[httpx.Client, float]) -> None:
    http, _ = roomy
    with polled(str(http.base_url)):  # each probe answered 200
        answer = http.post("/graphql", content=large_graphql_answer(), headers=JSON).json()
    assert "errors" not in answer, str(answer)[:300]
    assert len(answer["data"]["hexManeuver"]["reachable"]["destinations"]) > 1000


@pytest.mark.timing
def test_healthz_answers_within_100_ms_while_graphql_completes_a_large_answer(
        roomy: tuple[httpx.Client, float]) -> None:
    """graphql-core completes an answer's fields in Python (a 355 KB reachable with every
    path selected held the service's loop 1.9 s): that runs on GraphQL's own loop now."""
    http, quiet = roomy
    body = large_graphql_answer()
    seen = []
    for _ in range(2):  # asked again once: one stall of a shared machine is not the loop's
        with polled(str(http.base_url)) as probes:
            response = http.post("/graphql", content=body, headers=JSON)
        answer = response.json()
        assert "errors" not in answer, str(answer)[:300]
        assert len(answer["data"]["hexManeuver"]["reachable"]["destinations"]) > 1000
        seen.append(sorted(probes.latencies)[-5:])
        if probes.slowest < BAR + quiet:
            break
    assert min(s[-1] for s in seen) < BAR + quiet, (quiet, seen)


def test_a_batch_of_large_states_is_refused_as_it_grows(
        largest: tuple[httpx.Client, float]) -> None:
    """200 actions on a 700 KB state, each answered with a patch: the outcomes were all
    held, whole states and all, before any was written (2.6 GB, 30 s); now each is written
    as it is judged and the answer refused as soon as it is over 4 MiB."""
    http, _ = largest
    state = big_body_board()
    one = orjson.dumps({"state": state, "actions": [MOVE], "return": "patch"})
    many = orjson.dumps({"state": state, "actions": [MOVE] * 200, "return": "patch"})
    http.post(f"{URL}/validate-batch", content=one, headers=JSON)
    single = min(timed(lambda: http.post(f"{URL}/validate-batch", content=one,
                                         headers=JSON))[1] for _ in range(3))
    response, seconds = timed(lambda: http.post(f"{URL}/validate-batch", content=many,
                                                headers=JSON))
    assert response.status_code == 413, response.text[:300]
    assert response.json()["limit"] == "ARBITER_MAX_ANSWER_BYTES"
    # A few outcomes' worth of work (each patch is about 1.1 MB here), not 200.
    assert seconds < 10 * single, (seconds, single)

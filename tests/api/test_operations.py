"""What an operator relies on: every request's id (the client's X-Request-ID when sane, a
new one otherwise) on the response and on every log line of that request; 404 for a path
under a ruleset that names nothing (405 only for a real route asked with the wrong
method); the metrics — requests by endpoint and status (401 and 429 among them), in
flight, violations by ruleset and code, limit hits by limit, circuit breakers, process
metrics — and, with two worker processes, every scrape adding up both."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from arbiter.http.app import create_app
from arbiter.http.guard import Guard
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.settings import Settings
from arbiter.telemetry.logs import JsonFormatter
from support import free_port, stop, wait_healthy

URL = "/v1/rulesets/hex_maneuver"


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics text by (name, sorted labels)."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(text: str, name: str, **labels: str) -> float:
    return samples(text).get((name, tuple(sorted(labels.items()))), 0.0)


# --- the request id -------------------------------------------------------------------------


def test_a_request_id_is_made_when_none_is_sent(client: TestClient) -> None:
    first, second = client.get("/healthz"), client.get("/healthz")
    assert re.fullmatch(r"[0-9a-f]{32}", first.headers["x-request-id"])
    assert first.headers["x-request-id"] != second.headers["x-request-id"]


def test_a_sane_request_id_is_kept_and_any_other_replaced(client: TestClient) -> None:
    sane = "3f2b8c1e-0d4a-4e5b-9c7d-1a2b3c4d5e6f"
    assert client.get("/healthz", headers={"x-request-id": sane}).headers["x-request-id"] == sane
    for bad in ("x" * 129, "two words", 'quote"d', "new\\nline"):
        answered = client.get("/healthz", headers={"x-request-id": bad}).headers["x-request-id"]
        assert answered != bad and re.fullmatch(r"[0-9a-f]{32}", answered)


def test_every_answer_carries_it_problems_and_refusals_too() -> None:
    client = TestClient(create_app(Settings(api_keys="k", max_body_bytes=100)))
    for response in (client.get(f"{URL}/zz"), client.get("/v1/rulesets"),
                     client.post(f"{URL}/validate", content=b"x" * 200,
                                 headers={"authorization": "Bearer k"})):
        assert response.status_code in (401, 404, 413)
        assert response.headers["x-request-id"]


def test_every_log_line_of_a_request_carries_its_id() -> None:
    """The access line and lines the app writes while answering, in the event loop or in a
    worker thread, all name the request; a line outside any request names none."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("arbiter")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        logging.getLogger("arbiter.test").info("in the loop")
        await anyio.to_thread.run_sync(lambda: logging.getLogger("arbiter.test").info("thread"))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    try:
        client = TestClient(Guard(app))
        rid = client.get("/x", headers={"x-request-id": "req-42"}).headers["x-request-id"]
        logging.getLogger("arbiter.test").info("outside")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    lines = stream.getvalue().splitlines()
    assert rid == "req-42" and len(lines) == 4
    assert all('"request_id":"req-42"' in line for line in lines[:3]), lines
    assert '"message":"request"' in lines[2] and "request_id" not in lines[3]


# --- 404 for what does not exist --------------------------------------------------------------


def test_an_unknown_query_is_404_and_a_known_route_asked_by_get_is_405(
        client: TestClient) -> None:
    unknown = client.get(f"{URL}/zz")
    assert unknown.status_code == 404
    assert unknown.headers["content-type"].startswith("application/problem+json")
    assert "'zz'" in unknown.json()["detail"]
    assert client.post(f"{URL}/zz", json={}).status_code == 404
    assert client.get("/v1/rulesets/nope/validate").status_code == 404
    assert client.get(f"{URL}/schema/nope").status_code == 404
    for route in ("validate", "validate-batch", "reachable"):
        wrong = client.get(f"{URL}/{route}")
        assert wrong.status_code == 405 and wrong.headers["allow"] == "POST", route


# --- the metrics -------------------------------------------------------------------------------


def test_the_metrics_count_requests_violations_limits_and_refusals() -> None:
    # Three: the key and the rate are checked from the headers, before the body, so the
    # request over the body limit takes a token too.
    client = TestClient(create_app(Settings(api_keys="k", rate_limit=0.001, rate_burst=3,
                                            max_body_bytes=50_000)))
    auth = {"authorization": "Bearer k"}
    illegal = {**EXAMPLE_ACTION, "player": "blue"}
    assert client.post(f"{URL}/validate", json={"state": EXAMPLE_STATE, "action": illegal},
                       headers=auth).json()["violations"][0]["code"] == "not_your_army"
    assert client.get("/v1/rulesets").status_code == 401
    assert client.post(f"{URL}/validate", content=b"x" * 60_000,
                       headers=auth).status_code == 413
    assert client.get("/v1/rulesets", headers=auth).status_code == 200
    assert client.get("/v1/rulesets", headers=auth).status_code == 429
    text = client.get("/metrics").text
    assert value(text, "arbiter_violations_total", ruleset="hex_maneuver",
                 code="not_your_army") == 1
    assert value(text, "arbiter_http_requests_total", endpoint="rest", status="401") == 1
    assert value(text, "arbiter_http_requests_total", endpoint="rest", status="429") == 1
    assert value(text, "arbiter_limit_hits_total", limit="ARBITER_MAX_BODY_BYTES") == 1
    assert value(text, "arbiter_limit_hits_total", limit="ARBITER_RATE_LIMIT") == 1
    assert value(text, "arbiter_requests_in_flight") == 1  # the scrape itself
    assert value(text, "arbiter_http_request_seconds_count", endpoint="rest") == 5
    assert value(text, "arbiter_requests_total", route="validate", ruleset="hex_maneuver",
                 status="200") == 1
    pid = str(os.getpid())
    assert value(text, "process_resident_memory_bytes", pid=pid) > 0
    assert value(text, "arbiter_info", version=__import__("arbiter").__version__) == 1


def test_graphql_verdicts_count_their_violations_too() -> None:
    from arbiter.graphql.types import to_graphql
    from arbiter.rulesets.hex_maneuver.models import HexManeuverAction

    client = TestClient(create_app(Settings()))
    illegal = to_graphql(HexManeuverAction, {**EXAMPLE_ACTION, "player": "blue"})
    query = ("query($state: HexManeuverState!, $a: HexManeuverActionInput!) { hexManeuver("
             "state: $state) { validate(action: $a) { legal } validateBatch(actions: [$a, $a])"
             " { outcomes { legal } } } }")
    body = client.post("/graphql", json={"query": query, "variables": {
        "state": EXAMPLE_STATE, "a": illegal}}).json()
    assert body["data"]["hexManeuver"]["validate"]["legal"] is False
    text = client.get("/metrics").text
    assert value(text, "arbiter_violations_total", ruleset="hex_maneuver",
                 code="not_your_army") == 3


def test_a_failing_redis_opens_the_breaker_in_the_metrics() -> None:
    client = TestClient(create_app(Settings(redis_url="redis://127.0.0.1:1/0",
                                            redis_timeout_ms=50, redis_min_bytes=0,
                                            cache_size=0)))
    body = {"state": EXAMPLE_STATE, "army": EXAMPLE_ACTION["army"]}
    assert value(client.get("/metrics").text, "arbiter_redis_breaker_open", breaker="cache") == 0
    for _ in range(4):
        assert client.post(f"{URL}/reachable", json=body).status_code == 200
    text = client.get("/metrics").text
    assert value(text, "arbiter_redis_breaker_open", breaker="cache") == 1
    assert value(text, "arbiter_cache_total", tier="redis", result="error") >= 3


@pytest.fixture(scope="module")
def two_workers() -> Iterator[str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ARBITER_") and k != "PROMETHEUS_MULTIPROC_DIR"}
    env |= {"ARBITER_PORT": str(port), "ARBITER_WORKERS": "2", "ARBITER_LOG_LEVEL": "warning",
            "ARBITER_RULESETS": "hex_maneuver"}
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "serve"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc, timeout=60)
        yield base
    finally:
        stop(proc)


@pytest.mark.server
def test_with_two_workers_every_scrape_adds_up_both(two_workers: str) -> None:
    illegal = {"state": EXAMPLE_STATE, "action": {**EXAMPLE_ACTION, "player": "blue"}}
    for _ in range(30):
        # A connection each, so the kernel hands them to both workers.
        with httpx.Client(base_url=two_workers, timeout=30) as one:
            assert one.post(f"{URL}/validate", json=illegal).status_code == 200
    for scrape in range(4):
        with httpx.Client(base_url=two_workers, timeout=30) as one:
            text = one.get("/metrics").text
        assert value(text, "arbiter_http_requests_total", endpoint="rest", status="200") == 30
        assert value(text, "arbiter_violations_total", ruleset="hex_maneuver",
                     code="not_your_army") == 30
        assert value(text, "arbiter_http_requests_total", endpoint="metrics",
                     status="200") == scrape
        pids = {labels for (name, labels) in samples(text)
                if name == "process_resident_memory_bytes"}
        assert len(pids) == 2, pids

"""Issue 20, item 5: slow clients cannot hold a worker. Against a live ``arbiter serve``
with small deadlines and caps: a body that stops arriving gets 408 and its connection is
closed, a head that never ends has its connection closed, requests beyond the in-flight
cap and connections beyond the connection cap get 503 with Retry-After, and /healthz
answers throughout. Times are compared with a plain request of the same run (plus the
configured deadline), never with a constant."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import orjson
import pytest

from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from support import serve

pytestmark = pytest.mark.server

URL = "/v1/rulesets/hex_maneuver/validate"
BODY = orjson.dumps({"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION})
DEADLINE_MS = 2000
# How many plain requests' time the answer may take beyond a configured deadline.
SLACK = 40
ENV = {"ARBITER_HEADER_TIMEOUT_MS": str(DEADLINE_MS), "ARBITER_BODY_TIMEOUT_MS":
       str(DEADLINE_MS), "ARBITER_MAX_IN_FLIGHT": "4", "ARBITER_MAX_CONNECTIONS": "12"}


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serve(ENV) as url:
        yield url


def plain(base: str) -> float:
    """Seconds of an ordinary validate (the best of three: a warm worker)."""
    times = []
    for _ in range(3):
        started = time.perf_counter()
        assert httpx.post(base + URL, content=BODY,
                          headers={"content-type": "application/json"}).status_code == 200
        times.append(time.perf_counter() - started)
    return min(times)


def healthz(base: str) -> float:
    started = time.perf_counter()
    assert httpx.get(base + "/healthz", timeout=10).status_code == 200
    return time.perf_counter() - started


def connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=30)


def slow_body(base: str, sent: int = 200_000) -> socket.socket:
    """A connection that sends a head for a 1 MB body, part of it, then nothing."""
    conn = connect(base)
    conn.sendall(f"POST {URL} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                 f"content-length: 1000000\r\n\r\n".encode() + b"[" * sent)
    return conn


def in_flight(base: str) -> float:
    """The server's requests in flight (this scrape included)."""
    for line in httpx.get(base + "/metrics").text.splitlines():
        if line.startswith("arbiter_requests_in_flight "):
            return float(line.split()[1])
    raise AssertionError("no arbiter_requests_in_flight")


def answer(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    got = b""
    while chunk := conn.recv(65536):
        got += chunk
    return got


def test_a_body_that_stops_gets_408_and_its_connection_closed(base: str) -> None:
    quick = plain(base)
    started = time.perf_counter()
    conn = slow_body(base)
    probes = [healthz(base) for _ in range(3)]
    got = answer(conn)
    elapsed = time.perf_counter() - started
    conn.close()
    assert got.startswith(b"HTTP/1.1 408 "), got[:200]
    head, _, body = got.partition(b"\r\n\r\n")
    assert b"connection: close" in head.lower()
    problem = orjson.loads(body)
    assert problem["limit"] == "ARBITER_BODY_TIMEOUT_MS" and problem["status"] == 408
    assert elapsed <= DEADLINE_MS / 1000 + SLACK * quick, (elapsed, quick)
    assert max(probes) <= SLACK * quick, (probes, quick)


def test_a_head_that_never_ends_has_its_connection_closed(base: str) -> None:
    quick = plain(base)
    started = time.perf_counter()
    conn = connect(base)
    conn.sendall(b"POST /v1/rulesets HTTP/1.1\r\nhost: x\r\nx-slow: ")
    probe = healthz(base)
    got = answer(conn)  # returns once the server closes the connection
    elapsed = time.perf_counter() - started
    conn.close()
    assert got == b""
    assert elapsed <= DEADLINE_MS / 1000 + SLACK * quick, (elapsed, quick)
    assert probe <= SLACK * quick


def test_requests_beyond_the_in_flight_cap_get_503_probes_do_not(base: str) -> None:
    quick = plain(base)
    holders = [slow_body(base, 1000) for _ in range(4)]
    while in_flight(base) < 5:  # until the four heads are in: four bodies being read
        time.sleep(0.01)
    try:
        refused = httpx.post(base + URL, content=BODY,
                             headers={"content-type": "application/json"})
        probes = [healthz(base) for _ in range(3)]
        assert httpx.get(base + "/readyz").status_code == 200
        assert httpx.get(base + "/metrics").status_code == 200
    finally:
        answers = [answer(conn) for conn in holders]
        for conn in holders:
            conn.close()
    assert refused.status_code == 503, refused.text
    assert refused.headers["retry-after"] == "1"
    assert refused.json()["limit"] == "ARBITER_MAX_IN_FLIGHT"
    assert max(probes) <= SLACK * quick
    assert all(a.startswith(b"HTTP/1.1 408 ") for a in answers)
    assert plain(base) > 0  # the slots are free again
    metrics = httpx.get(base + "/metrics").text
    assert 'arbiter_limit_hits_total{limit="ARBITER_MAX_IN_FLIGHT"}' in metrics


def test_connections_beyond_the_cap_get_503_and_are_closed(base: str) -> None:
    quick = plain(base)
    idle = [connect(base) for _ in range(12)]
    time.sleep(0.2)  # not a measurement: the server accepts them meanwhile
    try:
        with httpx.Client(base_url=base) as client:
            refused = client.post(URL, content=BODY, headers={"content-type":
                                                              "application/json"})
        probe = healthz(base)
    finally:
        for conn in idle:
            conn.close()
    assert refused.status_code == 503, refused.text
    assert refused.headers["retry-after"] == "1"
    assert refused.headers["connection"] == "close"
    assert refused.json()["limit"] == "ARBITER_MAX_CONNECTIONS"
    assert probe <= SLACK * quick
    time.sleep(SLACK * quick)  # the idle connections are gone
    assert plain(base) > 0


def test_a_head_over_the_limit_gets_431_and_its_connection_closed(base: str) -> None:
    quick = plain(base)
    conn = connect(base)
    started = time.perf_counter()
    # A little over the 64 KiB allowed, all of which the server reads before it answers
    # (uvicorn with httptools kept every header line: 100 MB of them took 100 MB).
    conn.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n"
                 + (b"x-junk: " + b"a" * 1000 + b"\r\n") * 70)
    got = answer(conn)
    elapsed = time.perf_counter() - started
    conn.close()
    assert got.startswith(b"HTTP/1.1 431 "), got[:200]
    assert orjson.loads(got.partition(b"\r\n\r\n")[2])["limit"] == "ARBITER_MAX_HEADER_BYTES"
    assert elapsed <= SLACK * quick, (elapsed, quick)
    assert healthz(base) <= SLACK * quick

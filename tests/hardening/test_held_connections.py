"""Issue 29, items 1 and 2 and its "honest probes": what one client's connections can hold.

1. A client that asks and never reads (a small receive buffer, ten pipelined
   ``GET /openapi.json`` of 783 KB each) held an admission slot per connection for as long
   as it kept the socket open: with every slot so held, every other request got 503 and
   the probes said all was well. The answer waiting for the client now has
   ``ARBITER_SEND_TIMEOUT_MS``: past it the connection is closed and its slot freed;
   /readyz answers 503 once admission has been full for a few seconds.
2. Header lines sent behind a request being answered were read and kept without bound
   (10.5 MB took the worker from 99 to 353 MiB): the connection now stops reading while
   its request is answered, and a head over ``ARBITER_MAX_HEADER_BYTES`` gets its 431
   once the answer is out.

Against a live ``arbiter serve`` with small deadlines and caps; times are compared with a
plain request of the same run (plus the configured deadline), never with a constant;
memory is the worker's peak (``VmHWM``).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import orjson
import pytest

from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from hardening.test_bounded import ferry_board
from hardening.test_slow_clients import healthz, plain
from support import Server, serving

pytestmark = pytest.mark.server

URL = "/v1/rulesets/hex_maneuver/validate"
BODY = orjson.dumps({"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION})
JSON = {"content-type": "application/json"}
DEADLINE_MS = 2000
SLOTS = 8
# How many plain requests' time an answer may take beyond a configured deadline.
SLACK = 40
ENV = {"ARBITER_HEADER_TIMEOUT_MS": str(DEADLINE_MS), "ARBITER_BODY_TIMEOUT_MS":
       str(DEADLINE_MS), "ARBITER_SEND_TIMEOUT_MS": str(DEADLINE_MS),
       "ARBITER_MAX_IN_FLIGHT": str(SLOTS), "ARBITER_MAX_CONNECTIONS": "64",
       "ARBITER_CACHE_SIZE": "0", "ARBITER_COMPUTE_BUDGET_MS": "5000"}
# What uvloop said each time a slow reader's socket was closed under an answer.
CLOSED_TRANSPORT = "unable to perform operation"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serving(ENV) as running:
        yield running


def in_flight(base: str) -> float:
    """The server's requests in flight (this scrape included)."""
    for line in httpx.get(base + "/metrics").text.splitlines():
        if line.startswith("arbiter_requests_in_flight "):
            return float(line.split()[1])
    raise AssertionError("no arbiter_requests_in_flight")


def connect(base: str, receive_buffer: int | None = None) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    conn = socket.socket()
    if receive_buffer is not None:  # before connecting: it sets the window offered
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    conn.settimeout(60)
    conn.connect((host, int(port)))
    return conn


def slow_reader(base: str) -> socket.socket:
    """A connection that asks for ten 783 KB answers at once and reads none of them."""
    conn = connect(base, receive_buffer=4096)
    conn.sendall(b"GET /openapi.json HTTP/1.1\r\nhost: x\r\n\r\n" * 10)
    return conn


def drained(conn: socket.socket) -> int:
    """Bytes the server sent until it closed the connection (reset or not)."""
    got = 0
    try:
        while chunk := conn.recv(1 << 20):
            got += len(chunk)
    except ConnectionResetError:
        pass
    return got


def until(check: object, seconds: float) -> float:
    """Seconds until ``check()`` is true, polled; ``seconds`` and more when it never is."""
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        if check():  # type: ignore[operator]
            return time.perf_counter() - started
        time.sleep(0.05)
    return time.perf_counter() - started


def test_readers_that_never_read_are_closed_and_free_their_slots(server: Server) -> None:
    base = server.base
    quick = plain(base)
    quiet = min(healthz(base) for _ in range(5))
    readers = [slow_reader(base) for _ in range(SLOTS)]
    try:
        # Every slot is held by an answer waiting for its reader.
        assert until(lambda: in_flight(base) >= SLOTS + 1, 10) < 10, in_flight(base)
        held = httpx.post(base + URL, content=BODY, headers=JSON)
        probe = healthz(base)
        # Past the send deadline the readers are closed and an ordinary request is taken.
        bar = 2 * DEADLINE_MS / 1000 + SLACK * quick
        freed = until(lambda: httpx.post(base + URL, content=BODY, headers=JSON,
                                         timeout=30).status_code == 200, bar + 30)
        sent = [drained(conn) for conn in readers]
    finally:
        for conn in readers:
            conn.close()
    print(f"\nslow readers: held {held.status_code}; freed after {freed:.2f} s "
          f"(deadline {DEADLINE_MS} ms, bar {bar:.2f} s); probe {probe * 1000:.1f} ms, "
          f"quiet {quiet * 1000:.1f} ms; sent each {sent}; peak RSS "
          f"{server.peak_rss_mib():.0f} MiB")
    assert held.status_code == 503 and held.json()["limit"] == "ARBITER_MAX_IN_FLIGHT"
    assert freed < bar, (freed, bar)
    assert probe <= SLACK * quiet + SLACK * quick, (probe, quiet)
    # Each reader got at most what fits in the buffers before the connection was closed:
    # never all ten answers.
    assert all(got < 10 * 783_000 for got in sent), sent
    assert until(lambda: in_flight(base) == 1, bar) < bar  # only the scrape itself
    log = server.log()
    assert CLOSED_TRANSPORT not in log, log[-2000:]
    assert "Traceback" not in log, log[-4000:]


def test_readyz_says_so_when_admission_stays_full() -> None:
    """/healthz says the process lives; /readyz says whether it takes requests: 503 once
    every slot has been held for a few seconds (``admission.FULL_FOR``), 200 again once
    one is free. Bodies that stop arriving hold the slots, with the default deadlines."""
    with serving({"ARBITER_MAX_IN_FLIGHT": "4"}) as server:
        base = server.base
        assert httpx.get(base + "/readyz").status_code == 200
        holders = []
        for _ in range(4):
            conn = connect(base)
            conn.sendall(f"POST {URL} HTTP/1.1\r\nhost: x\r\ncontent-type: "
                         f"application/json\r\ncontent-length: 100000\r\n\r\n{{".encode())
            holders.append(conn)
        try:
            assert until(lambda: in_flight(base) >= 5, 10) < 10
            first = httpx.get(base + "/readyz")  # full, but not yet for long
            unready = until(lambda: httpx.get(base + "/readyz").status_code == 503, 15)
            answer = httpx.get(base + "/readyz")
            alive = httpx.get(base + "/healthz")
        finally:
            for conn in holders:
                conn.close()
        ready = until(lambda: httpx.get(base + "/readyz").status_code == 200, 10)
    print(f"\nreadyz: {first.status_code} at once, {answer.status_code} after "
          f"{unready:.2f} s full: {answer.text[:120]}; 200 again {ready:.2f} s after")
    assert first.status_code == 200, first.text
    assert answer.status_code == 503, answer.text
    assert answer.json()["status"] == "full"
    assert answer.json()["limit"] == "ARBITER_MAX_IN_FLIGHT"
    assert alive.status_code == 200
    assert ready < 10


def slow_request(base: str) -> socket.socket:
    """A connection whose legal-actions request runs to the compute budget."""
    body = orjson.dumps({"state": ferry_board(30, 0), "player": "red", "limit": 10_000})
    conn = connect(base)
    conn.sendall(f"POST /v1/rulesets/hex_maneuver/legal-actions HTTP/1.1\r\nhost: x\r\n"
                 f"content-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
                 .encode() + body)
    return conn


def test_header_lines_behind_a_slow_request_are_bounded(server: Server) -> None:
    base = server.base
    quiet = min(healthz(base) for _ in range(5))
    before = server.peak_rss_mib()
    conn = slow_request(base)
    conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    flood = b"a:b\r\n" * 20_000  # 100 KB a send
    sent = 0
    probes: list[float] = []
    stop = threading.Event()

    def poll() -> None:
        while not stop.is_set():
            probes.append(healthz(base))
            time.sleep(0.02)

    poller = threading.Thread(target=poll)
    poller.start()
    conn.settimeout(3.0)  # a send that waits this long: the server stopped reading
    try:
        while sent < 20_000_000:  # 20 MB, unless the server stops taking them
            try:
                conn.sendall(flood)
            except (TimeoutError, OSError):
                break
            sent += len(flood)
        conn.settimeout(60)
        got = b""
        try:
            while chunk := conn.recv(65536):
                got += chunk
        except ConnectionResetError:
            pass
    finally:
        stop.set()
        poller.join()
        conn.close()
    peak = server.peak_rss_mib()
    statuses = re.findall(rb"HTTP/1.1 (\d{3}) ", got)
    print(f"\nheader flood behind a slow request: sent {sent / 1e6:.1f} MB, answers "
          f"{statuses}, peak RSS {before:.0f} -> {peak:.0f} MiB, slowest probe "
          f"{max(probes) * 1000:.0f} ms (quiet {quiet * 1000:.1f} ms)")
    # The slow request's answer, then the 431 for the head that never ended.
    assert statuses == [b"422", b"431"], got[-600:]
    assert peak - before < 40, (before, peak)
    assert max(probes) < 15 * quiet, (max(probes), quiet)


def test_readers_that_leave_under_an_answer_leave_no_error(server: Server) -> None:
    """Item 11: slow readers that close their sockets under a pipelined answer made the
    worker log an error each ("unable to perform operation on TCPTransport closed"): the
    answer under way was not told its connection was lost."""
    base = server.base
    readers = [slow_reader(base) for _ in range(SLOTS)]
    assert until(lambda: in_flight(base) >= SLOTS + 1, 10) < 10
    for conn in readers:  # before the send deadline
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")  # reset
        conn.close()
    assert until(lambda: in_flight(base) == 1, 10) < 10
    assert httpx.post(base + URL, content=BODY, headers=JSON).status_code == 200
    log = server.log()
    print(f"\nreaders that left: {log.count(CLOSED_TRANSPORT)} closed-transport errors logged")
    assert CLOSED_TRANSPORT not in log, log[-2000:]

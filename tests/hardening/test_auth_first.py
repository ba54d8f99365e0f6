"""Issue 29, item 8: authentication before work. Against a live ``arbiter serve`` with API
keys: 64 clients without a key each send the head of a 1 MB body and most of it, then
nothing. Each is refused with 401 from its headers alone, its connection closed, before
its body is read; so they hold no slot in flight and no body buffer, and a client with a
key is answered meanwhile (before, the 64 held every slot until their body deadline,
and every request with a valid key got 503). Compared with the same run's quiet
requests, never a constant."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import orjson
import pytest

from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from support import peak_rss_kib, serving

pytestmark = pytest.mark.server

KEY = "player-key-" + "p" * 32
URL = "/v1/rulesets/hex_maneuver/validate"
BODY = orjson.dumps({"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION})
KEYLESS = 64
SENT = 900_000  # of a 1 MB body: 64 of them held 58 MB of buffers before
# How many quiet requests' time a request with a key may take beside the attack.
SLACK = 20


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    # The failure throttle off: the attack is not slowed by it (it would only help).
    with serving({"ARBITER_API_KEYS": KEY, "ARBITER_AUTH_FAILURE_LIMIT": "0",
                  "ARBITER_BODY_TIMEOUT_MS": "20000"}) as running:
        yield running.base, running.pid


def keyed(client: httpx.Client) -> tuple[int, float]:
    started = time.perf_counter()
    r = client.post(URL, content=BODY,
                    headers={"content-type": "application/json", "x-api-key": KEY})
    return r.status_code, time.perf_counter() - started


def healthz(client: httpx.Client) -> float:
    started = time.perf_counter()
    assert client.get("/healthz").status_code == 200
    return time.perf_counter() - started


def keyless_slow_body(base: str, answers: list[bytes], opened: list[socket.socket]) -> None:
    """A head for a 1 MB body without a key, then 900 KB of it, then nothing; what the
    server answers, if it answers before the client gives up."""
    host, port = base.removeprefix("http://").split(":")
    conn = socket.create_connection((host, int(port)), timeout=30)
    opened.append(conn)
    try:
        conn.sendall(f"POST {URL} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                     "content-length: 1000000\r\n\r\n".encode() + b"[" * SENT)
        conn.settimeout(8)
        answers.append(conn.recv(65536))
    except TimeoutError:  # nothing came back: the server is still reading the body
        answers.append(b"timeout")
    except OSError:  # the server closed it while the body was still coming: refused
        answers.append(b"closed")


def test_keyless_slow_bodies_hold_nothing_a_client_with_a_key_needs(
        server: tuple[str, int]) -> None:
    base, pid = server
    client = httpx.Client(base_url=base, timeout=30)  # one connection, opened before
    quiet = min(keyed(client)[1] for _ in range(5))
    quiet_probe = min(healthz(client) for _ in range(3))
    before = peak_rss_kib(pid)
    answers: list[bytes] = []
    opened: list[socket.socket] = []
    threads = [threading.Thread(target=keyless_slow_body, args=(base, answers, opened))
               for _ in range(KEYLESS)]
    try:
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # not a measurement: the 64 heads and bodies are on their way
        during = [keyed(client) for _ in range(5)]
        probes = [healthz(client) for _ in range(3)]
        for thread in threads:
            thread.join()
    finally:
        for conn in opened:
            conn.close()
        client.close()
    grown = peak_rss_kib(pid) - before
    print(f"\nquiet keyed {quiet * 1000:.1f} ms, probe {quiet_probe * 1000:.1f} ms; beside "
          f"{KEYLESS} keyless slow bodies: keyed {[s for s, _ in during]} "
          f"{max(t for _, t in during) * 1000:.1f} ms max, probe "
          f"{max(probes) * 1000:.1f} ms max, peak RSS +{grown // 1024} MiB")
    assert [status for status, _ in during] == [200] * 5
    assert max(t for _, t in during) <= SLACK * quiet, (during, quiet)
    assert max(probes) <= SLACK * max(quiet_probe, quiet), (probes, quiet_probe)
    # Each refused from its headers: 401, the connection closed, the body never read.
    refused = [a for a in answers if a.startswith(b"HTTP/1.1 401 ")]
    assert len(refused) + answers.count(b"closed") == KEYLESS, answers[:3]
    assert all(b"connection: close" in a.lower() for a in refused)
    # 64 bodies of 900 KB held would be 56 MiB; read and dropped at once, a few.
    assert grown < 16 * 1024, grown

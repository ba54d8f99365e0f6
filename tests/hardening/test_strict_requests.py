"""Issue 20, item 6, against live ``arbiter serve`` processes: the rate limiter's bucket
is the peer's unless a trusted proxy forwarded the address; failed authentication is
throttled per address and counted; a body that is not JSON gets 415 on every JSON
endpoint; duplicate members, NaN and 1e400 get 422 naming them by pointer, over REST and
GraphQL alike; a cached answer is never served by a replica whose limits refuse its
request; and a Redis value without the deployment's MAC, or over the size bound, is a
counted miss."""

from __future__ import annotations

import time
from typing import Any

import httpx
import orjson
import pytest

from arbiter.rulesets import builtin_registry
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from cache.conftest import REDIS_URL, require_redis
from support import serve

pytestmark = pytest.mark.server

HEX = "/v1/rulesets/hex_maneuver"
BODY = {"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION}
QUERY = builtin_registry().get("hex_maneuver").queries["reachable"].examples[0]  # type: ignore[union-attr]  # a built-in ruleset
JSON = {"content-type": "application/json"}


def metric(text: str, name: str) -> float:
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(name + "{") or line.startswith(name + " "))


def test_the_client_cannot_choose_its_rate_limit_bucket() -> None:
    limited = {"ARBITER_RATE_LIMIT": "0.01", "ARBITER_RATE_BURST": "1"}
    with serve(limited) as base:
        codes = [httpx.post(f"{base}{HEX}/validate", json=BODY,
                            headers={"x-forwarded-for": f"10.0.0.{i}"}).status_code
                 for i in range(3)]
        assert codes == [200, 429, 429]  # one bucket: the peer's
    with serve({**limited, "ARBITER_TRUSTED_PROXIES": "127.0.0.1"}) as base:
        codes = [httpx.post(f"{base}{HEX}/validate", json=BODY,
                            headers={"x-forwarded-for": f"10.0.0.{i}"}).status_code
                 for i in (1, 2, 1)]
        assert codes == [200, 200, 429]  # the proxy's word for the client is believed


def test_failed_authentication_is_throttled_and_counted() -> None:
    env = {"ARBITER_API_KEYS": "alpha-key-0123456789", "ARBITER_AUTH_FAILURE_LIMIT": "3"}
    with serve(env) as base:
        url = f"{base}{HEX}/validate"
        good = {"x-api-key": "alpha-key-0123456789"}
        started = time.perf_counter()
        assert httpx.post(url, json=BODY, headers=good).status_code == 200
        plain = time.perf_counter() - started
        codes = [httpx.post(url, json=BODY, headers={"x-api-key": f"guess-{i}"}).status_code
                 for i in range(3)]
        assert codes == [401, 401, 401]
        started = time.perf_counter()
        throttled = httpx.post(url, json=BODY, headers={"x-api-key": "guess-4"})
        refused = time.perf_counter() - started
        assert throttled.status_code == 429 and int(throttled.headers["retry-after"]) >= 1
        assert throttled.json()["limit"] == "ARBITER_AUTH_FAILURE_LIMIT"
        # Once throttled, the address gets 429 before its key is compared: the good one too.
        assert httpx.post(url, json=BODY, headers=good).status_code == 429
        assert httpx.get(f"{base}/healthz").status_code == 200
        assert refused <= 5 * plain  # refused without judging
        metrics = httpx.get(f"{base}/metrics").text
    assert metric(metrics, 'arbiter_auth_failures_total{reason="invalid"}') == 3
    assert metric(metrics, 'arbiter_auth_failures_total{reason="throttled"}') == 2
    assert metric(metrics, 'arbiter_http_requests_total{endpoint="rest",status="401"}') == 3
    assert metric(metrics, 'arbiter_http_requests_total{endpoint="rest",status="429"}') == 2
    assert metric(metrics, 'arbiter_limit_hits_total{limit="ARBITER_AUTH_FAILURE_LIMIT"}') == 2


def _endpoints() -> list[tuple[str, str, bytes]]:
    board = orjson.dumps({k: EXAMPLE_STATE[k] for k in ("hexes",)})
    return [
        ("POST", f"{HEX}/validate", orjson.dumps(BODY)),
        ("POST", f"{HEX}/validate-batch", orjson.dumps({"state": EXAMPLE_STATE,
                                                        "actions": [EXAMPLE_ACTION]})),
        ("POST", f"{HEX}/new-game", orjson.dumps({"state": EXAMPLE_STATE})),
        ("POST", f"{HEX}/reachable", orjson.dumps(QUERY)),
        ("PUT", f"{HEX}/boards/sha256:{'0' * 64}", board),
        ("POST", "/graphql", orjson.dumps({"query": "{ rulesets { id } }"})),
    ]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x",
                                          "application/json; charset=latin-1"])
def test_a_body_not_declared_json_gets_415_everywhere(http: httpx.Client,
                                                      content_type: str) -> None:
    for method, path, body in _endpoints():
        r = http.request(method, path, content=body, headers={"content-type": content_type})
        assert r.status_code == 415, (path, r.text)
        assert r.headers["content-type"] == "application/problem+json"


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON;charset=\"UTF-8\"",
                                          "application/merge-patch+json"])
def test_json_in_every_spelling_is_judged(http: httpx.Client, content_type: str) -> None:
    for method, path, body in _endpoints():
        r = http.request(method, path, content=body, headers={"content-type": content_type})
        assert r.status_code != 415, (path, r.text)
        if "/boards/" not in path:  # that board id is not its content's: a 422 of its own
            assert r.status_code == 200, (path, r.text)


def strict_problem(r: httpx.Response) -> list[str]:
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == "application/problem+json"
    return [e["pointer"] for e in r.json()["errors"]]


def test_duplicate_members_are_refused_by_pointer(http: httpx.Client) -> None:
    action = orjson.dumps(EXAMPLE_ACTION).decode()
    state = orjson.dumps(EXAMPLE_STATE).decode()
    twice = f'{{"state": {state}, "action": {action}, "action": {action}}}'
    assert strict_problem(http.post(f"{HEX}/validate", content=twice, headers=JSON)) == \
        ["/action"]
    inner = state.replace('"players":', '"players": [], "players":', 1)
    assert strict_problem(http.post(f"{HEX}/validate", content=f'{{"state": {inner}, '
                                    f'"action": {action}}}', headers=JSON)) == \
        ["/state/players"]
    # A \\u escape takes the careful reading: a colon hidden in it cannot balance a duplicate.
    hidden = f'{{"state": {state}, "mode": "\\u003a", "action": {action}, "action": {action}}}'
    assert strict_problem(http.post(f"{HEX}/validate", content=hidden, headers=JSON)) == \
        ["/action"]
    gql = b'{"query": "{ rulesets { id } }", "query": "{ rulesets { title } }"}'
    assert strict_problem(http.post("/graphql", content=gql, headers=JSON)) == ["/query"]


def test_non_finite_numbers_are_refused_by_pointer(http: httpx.Client) -> None:
    for bad in ("NaN", "Infinity", "-Infinity", "1e400"):
        body = orjson.dumps(QUERY).decode()[:-1] + f', "rng": {bad}}}'
        assert strict_problem(http.post(f"{HEX}/reachable", content=body, headers=JSON)) == \
            ["/rng"], bad
        gql = ('{"query": "query($s: HexManeuverState!) { hexManeuver(state: $s) '
               '{ validate(action: {type: \\"pass\\"}) { legal } } }", "variables": '
               f'{{"s": {{"x": [{bad}]}}}}}}')
        assert strict_problem(http.post("/graphql", content=gql, headers=JSON)) == \
            ["/variables/s/x/0"], bad


def _cached(client: Any, prefix: str) -> list[bytes]:
    return [key for key in client.scan_iter(match=prefix + "*")
            if b":rate:" not in key and b":board" not in key]


def test_a_replica_with_lower_limits_never_serves_a_cached_answer() -> None:
    client = require_redis()
    prefix = f"test-limits-{time.time_ns()}:"
    env = {"ARBITER_REDIS_URL": REDIS_URL, "ARBITER_REDIS_KEY_PREFIX": prefix,
           "ARBITER_REDIS_MIN_BYTES": "0"}
    try:
        with serve(env) as wide, serve({**env, "ARBITER_MAX_CELLS": "5"}) as narrow:
            assert httpx.post(f"{wide}{HEX}/reachable", json=QUERY).status_code == 200
            deadline = time.monotonic() + 10
            while not _cached(client, prefix) and time.monotonic() < deadline:
                time.sleep(0.05)  # the answer is written to Redis in the background
            assert _cached(client, prefix)
            refused = httpx.post(f"{narrow}{HEX}/reachable", json=QUERY)
            assert refused.status_code == 413 and refused.json()["limit"] == \
                "ARBITER_MAX_CELLS"
    finally:
        for key in client.scan_iter(match=prefix + "*"):
            client.delete(key)


def test_redis_values_without_the_mac_or_over_the_bound_are_counted_misses() -> None:
    client = require_redis()
    prefix = f"test-mac-{time.time_ns()}:"
    env = {"ARBITER_REDIS_URL": REDIS_URL, "ARBITER_REDIS_KEY_PREFIX": prefix,
           "ARBITER_REDIS_MIN_BYTES": "0", "ARBITER_CACHE_KEY": "k" * 32,
           "ARBITER_CACHE_MAX_VALUE_BYTES": "65536"}
    try:
        with serve(env) as first:
            truth = httpx.post(f"{first}{HEX}/reachable", json=QUERY).content
            deadline = time.monotonic() + 10
            while not _cached(client, prefix) and time.monotonic() < deadline:
                time.sleep(0.05)
        (key,) = _cached(client, prefix)
        stored = client.get(key)
        assert stored is not None
        # Planted: a well-formed frame of another secret, then a giant.
        from arbiter.cache.redis_tier import frame
        plain_key = key.decode()[len(prefix):]
        for planted, counted in ((frame(plain_key, b'{"destinations": []}', b"x" * 32),
                                  "corrupt"), (stored + b" " * 70_000, "oversize")):
            client.set(key, planted)
            with serve(env) as fresh:
                answer = httpx.post(f"{fresh}{HEX}/reachable", json=QUERY)
                metrics = httpx.get(f"{fresh}/metrics").text
            assert answer.status_code == 200 and answer.content == truth
            assert metric(metrics, f'arbiter_cache_total{{result="{counted}",tier="redis"}}') \
                == 1, counted
    finally:
        for key in client.scan_iter(match=prefix + "*"):
            client.delete(key)

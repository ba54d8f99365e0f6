"""Optional API keys, per-key rate limits (in process, in Redis, and in process again while
Redis is down), CORS, security headers on every response, no internals in a 500, and the
one JSON log line per request."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from starlette.testclient import TestClient

from arbiter.http.app import create_app
from arbiter.http.openapi import build_openapi
from arbiter.http.ratelimit import MemoryBuckets
from arbiter.http.security import ApiKeys, offered_key
from arbiter.rulesets import builtin_registry
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.settings import Settings
from arbiter.telemetry.logs import JsonFormatter, log_config
from cache.conftest import REDIS_URL, require_redis

URL = "/v1/rulesets/hex_maneuver"
BODY = {"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION}
SECURITY_HEADERS = {"x-content-type-options": "nosniff", "referrer-policy": "no-referrer",
                    "x-frame-options": "DENY"}


@pytest.fixture
def app_with() -> Iterator[Any]:
    clients: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        client = TestClient(create_app(Settings(**settings)), raise_server_exceptions=False)
        clients.append(client.__enter__())
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


# -- API keys ------------------------------------------------------------------------------

def test_keys_are_off_by_default(app_with: Any) -> None:
    client = app_with()
    assert client.post(f"{URL}/validate", json=BODY).status_code == 200


def test_a_key_is_needed_in_either_header(app_with: Any) -> None:
    client = app_with(api_keys="alpha-key, beta-key")
    missing = client.post(f"{URL}/validate", json=BODY)
    assert missing.status_code == 401 and missing.headers["content-type"] == \
        "application/problem+json"
    assert missing.headers["www-authenticate"].startswith("Bearer")
    assert "X-API-Key" in missing.json()["detail"]
    wrong = client.post(f"{URL}/validate", json=BODY, headers={"x-api-key": "gamma-key"})
    assert wrong.status_code == 401 and wrong.json()["detail"] == "the API key is not valid"
    assert client.post(f"{URL}/validate", json=BODY,
                       headers={"authorization": "Bearer alpha-key"}).status_code == 200
    assert client.post(f"{URL}/validate", json=BODY,
                       headers={"X-API-Key": "beta-key"}).status_code == 200
    assert client.post("/graphql", json={"query": "{ rulesets { id } }"}).status_code == 401
    assert client.get("/v1/rulesets").status_code == 401


def test_health_metrics_and_documents_stay_open(app_with: Any) -> None:
    client = app_with(api_keys="alpha-key", rate_limit=0.001, rate_burst=1)
    for _ in range(3):
        for path in ("/healthz", "/readyz", "/metrics", "/openapi.json"):
            assert client.get(path).status_code == 200, path
    assert client.get("/graphql", headers={"accept": "text/html"}).status_code == 200


def test_keys_are_kept_only_as_digests() -> None:
    settings = Settings(api_keys="alpha-key,beta-key")
    assert "alpha-key" not in repr(settings) and settings.api_keys == ""
    assert hashlib.sha256(b"alpha-key").hexdigest() in settings.api_key_sha256
    env = Settings.from_env({"ARBITER_API_KEYS": "alpha-key",
                             "ARBITER_API_KEY_SHA256": hashlib.sha256(b"z").hexdigest()})
    assert "alpha-key" not in repr(env)
    keys = ApiKeys.from_hex(env.api_key_sha256)
    assert keys.identify("z") and keys.identify("alpha-key") and not keys.identify("y")


def test_every_digest_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    compare = hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        calls.append(b)
        return compare(a, b)

    keys = ApiKeys.from_hex(",".join(hashlib.sha256(k.encode()).hexdigest()
                                     for k in ("a", "b", "c")))
    monkeypatch.setattr("arbiter.http.security.hmac.compare_digest", counting)
    assert keys.identify("a") == hashlib.sha256(b"a").hexdigest()[:12]
    assert len(calls) == 3  # no early exit on the first match
    with pytest.raises(ValueError, match="SHA-256"):
        ApiKeys.from_hex("abcd")


def test_offered_key_reads_bearer_or_header() -> None:
    assert offered_key({b"authorization": b"Bearer k1"}) == "k1"
    assert offered_key({b"authorization": b"bearer  k1 "}) == "k1"
    assert offered_key({b"authorization": b"Basic abc"}) is None
    assert offered_key({b"x-api-key": b"k2"}) == "k2"
    assert offered_key({}) is None


def test_the_document_declares_keys_and_rate_limits_when_on(app_with: Any) -> None:
    doc = app_with(api_keys="k", rate_limit=5).get("/openapi.json").json()
    assert set(doc["components"]["securitySchemes"]) == {"bearerKey", "headerKey"}
    op = doc["paths"][f"{URL}/validate"]["post"]
    assert {"401", "429"} <= set(op["responses"])
    assert doc["paths"]["/healthz"]["get"]["security"] == []
    default = build_openapi(builtin_registry(), "x")
    assert "securitySchemes" not in default["components"]


# -- rate limits ----------------------------------------------------------------------------

def test_rate_limit_is_off_by_default(app_with: Any) -> None:
    client = app_with()
    for _ in range(30):
        assert client.get("/v1/rulesets").status_code == 200


def test_over_the_rate_is_429_with_retry_after_per_key(app_with: Any) -> None:
    client = app_with(api_keys="k1,k2", rate_limit=0.5, rate_burst=2)
    k1 = {"authorization": "Bearer k1"}
    assert [client.get("/v1/rulesets", headers=k1).status_code for _ in range(3)] == \
        [200, 200, 429]
    limited = client.get("/v1/rulesets", headers=k1)
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
    assert limited.headers["content-type"] == "application/problem+json"
    assert limited.json()["limit"] == "ARBITER_RATE_LIMIT"
    assert client.get("/v1/rulesets", headers={"x-api-key": "k2"}).status_code == 200


def test_without_keys_the_rate_is_per_client_address(app_with: Any) -> None:
    client = app_with(rate_limit=0.5, rate_burst=1)
    assert client.get("/v1/rulesets").status_code == 200
    assert client.get("/v1/rulesets").status_code == 429


def test_memory_buckets_refill_at_the_rate() -> None:
    now = [0.0]
    buckets = MemoryBuckets(rate=2.0, burst=2, clock=lambda: now[0])
    assert [buckets.take("a")[0] for _ in range(3)] == [True, True, False]
    assert buckets.take("a")[1] == pytest.approx(0.5)
    now[0] = 0.5
    assert buckets.take("a")[0] is True
    small = MemoryBuckets(rate=1.0, burst=1, max_buckets=2, clock=lambda: now[0])
    for who in ("a", "b", "c"):
        small.take(who)
    assert len(small._buckets) == 2


@pytest.mark.redis
def test_redis_buckets_are_shared_by_replicas(app_with: Any) -> None:
    require_redis()
    prefix = f"arbiter-test-{uuid.uuid4().hex[:12]}:"
    settings = {"redis_url": REDIS_URL, "redis_key_prefix": prefix, "api_keys": "k",
                "rate_limit": 0.01, "rate_burst": 3, "redis_timeout_ms": 500}
    first, second = app_with(**settings), app_with(**settings)
    key = {"x-api-key": "k"}
    try:
        statuses = [first.get("/v1/rulesets", headers=key).status_code,
                    second.get("/v1/rulesets", headers=key).status_code,
                    first.get("/v1/rulesets", headers=key).status_code,
                    second.get("/v1/rulesets", headers=key).status_code]
        assert statuses == [200, 200, 200, 429]
        retry = int(second.get("/v1/rulesets", headers=key).headers["retry-after"])
        assert retry > 60  # Redis' bucket: 0.01 tokens per second
    finally:
        r = redis.Redis.from_url(REDIS_URL)
        for k in r.scan_iter(match=prefix + "*"):
            r.delete(k)
        r.close()


def test_with_redis_down_the_limit_holds_in_process(app_with: Any) -> None:
    client = app_with(redis_url="redis://127.0.0.1:1/0", redis_timeout_ms=50,
                      rate_limit=0.5, rate_burst=2)
    statuses = [client.get("/v1/rulesets").status_code for _ in range(4)]
    assert statuses == [200, 200, 429, 429]
    assert client.post(f"{URL}/reachable", json={"state": EXAMPLE_STATE,
                                                 "army": "red-1"}).status_code == 429


# -- CORS, headers, internals --------------------------------------------------------------

def test_cors_is_off_by_default(app_with: Any) -> None:
    r = app_with().post(f"{URL}/validate", json=BODY, headers={"origin": "https://app.example"})
    assert "access-control-allow-origin" not in r.headers


def test_cors_allows_the_configured_origins(app_with: Any) -> None:
    client = app_with(cors_origins="https://app.example, https://other.example",
                      api_keys="k")
    preflight = client.options(f"{URL}/validate", headers={
        "origin": "https://app.example", "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, content-encoding, x-api-key"})
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == "https://app.example"
    assert "x-api-key" in preflight.headers["access-control-allow-headers"].lower()
    # (the clients send large bodies gzipped)
    assert "content-encoding" in preflight.headers["access-control-allow-headers"].lower()
    r = client.post(f"{URL}/validate", json=BODY, headers={
        "origin": "https://app.example", "x-api-key": "k"})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == \
        "https://app.example"
    denied = client.post(f"{URL}/validate", json=BODY, headers={
        "origin": "https://evil.example", "x-api-key": "k"})
    assert "access-control-allow-origin" not in denied.headers
    # A refused key is still readable by the page that sent it.
    refused = client.post(f"{URL}/validate", json=BODY, headers={"origin": "https://app.example"})
    assert refused.status_code == 401 and "access-control-allow-origin" in refused.headers


@pytest.fixture
def broken_validate(monkeypatch: pytest.MonkeyPatch) -> None:
    from arbiter.engine.ruleset import Position

    def boom(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals /etc/passwd")

    monkeypatch.setattr(Position, "ruling", boom)


@pytest.mark.usefixtures("broken_validate")
def test_a_crash_is_a_500_problem_without_internals(app_with: Any,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    client = app_with()
    with caplog.at_level(logging.ERROR, logger="arbiter"):
        r = client.post(f"{URL}/validate", json=BODY)
    assert r.status_code == 500 and r.headers["content-type"] == "application/problem+json"
    assert "secret" not in r.text and "Traceback" not in r.text
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "secret internals" in caplog.text  # the log has it, the client does not
    move = {"maneuver": {"player": "red", "army": "red-1", "path": [{"q": 1, "r": -1}]}}
    query = """query($s: HexManeuverState!, $m: HexManeuverActionInput!) {
      hexManeuver(state: $s) { validate(action: $m) { legal } } }"""
    g = client.post("/graphql", json={"query": query, "variables": {"s": EXAMPLE_STATE,
                                                                       "m": move}})
    assert "secret" not in g.text and "Traceback" not in g.text


def test_security_headers_on_every_kind_of_response(app_with: Any) -> None:
    client = app_with(api_keys="k", max_body_bytes=50_000)
    limited = app_with(rate_limit=0.001, rate_burst=1)
    limited.get("/v1/rulesets")
    key = {"x-api-key": "k"}
    responses = [
        client.get("/healthz"),                                               # 200
        client.get("/nowhere", headers=key),                                  # 404
        client.put(f"{URL}/validate", headers=key),                           # 405
        client.post(f"{URL}/validate", headers=key, content=b"x" * 60_000),    # 413
        client.post(f"{URL}/validate", headers=key, content=b"{"),             # 422
        client.post(f"{URL}/validate", content=b"{}"),                         # 401
        limited.post(f"{URL}/validate", content=b"{}"),                        # 429
        client.post("/graphql", content=b"[", headers={"content-type": "application/json"}),
    ]
    assert [r.status_code for r in responses] == [200, 404, 405, 413, 422, 401, 429, 401]
    for r in responses:
        for name, value in SECURITY_HEADERS.items():
            assert r.headers[name] == value, (r.status_code, name)
    assert responses[2].headers["allow"] == "POST"


# -- logs ----------------------------------------------------------------------------------

def _access(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "arbiter.access"]


def test_one_json_line_per_request_without_the_body(app_with: Any,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    client = app_with()
    with caplog.at_level(logging.INFO, logger="arbiter.access"):
        client.post(f"{URL}/validate", json=BODY)
        client.post(f"{URL}/validate", content=b"{")
    records = _access(caplog)
    assert len(records) == 2
    line = json.loads(JsonFormatter().format(records[0]))
    assert line["message"] == "request" and line["method"] == "POST"
    assert line["path"] == f"{URL}/validate" and line["status"] == 200
    assert line["ruleset"] == "hex_maneuver" and line["duration_ms"] > 0
    assert line["bytes_in"] > 0 and line["bytes_out"] > 0
    assert "body" not in line and "red-1" not in json.dumps(line)
    assert json.loads(JsonFormatter().format(records[1]))["status"] == 422


def test_bodies_are_logged_only_when_asked(app_with: Any,
                                          caplog: pytest.LogCaptureFixture) -> None:
    client = app_with(log_bodies=True, api_keys="k")
    with caplog.at_level(logging.INFO, logger="arbiter.access"):
        client.post(f"{URL}/validate", json=BODY, headers={"x-api-key": "k"})
    (record,) = _access(caplog)
    line = json.loads(JsonFormatter().format(record))
    assert "red-1" in line["body"] and line["api_key"] == hashlib.sha256(b"k").hexdigest()[:12]
    assert line["api_key"] != "k"


def test_log_config_makes_every_logger_json() -> None:
    config = log_config("warning")
    assert config["loggers"]["arbiter"]["level"] == "WARNING"
    record = logging.LogRecord("arbiter", logging.ERROR, __file__, 1, "boom %s", ("x",), None)
    assert json.loads(JsonFormatter().format(record))["message"] == "boom x"

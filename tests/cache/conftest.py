"""Redis for the cache tests: the real one at 127.0.0.1:6379 (CI has it), with a key
prefix unique to this run and removed afterwards. Outside CI, no Redis means a visible
skip; inside CI (CI=true) it is a failure."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import redis

REDIS_URL = os.environ.get("ARBITER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def require_redis() -> redis.Redis:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5)
    try:
        client.ping()
    except redis.RedisError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but no Redis at {REDIS_URL}: {exc}")
        pytest.skip(f"no Redis at {REDIS_URL} ({exc}); set CI=true to make this a failure")
    return client


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    client = require_redis()
    prefix = f"arbiter-test-{uuid.uuid4().hex[:12]}:"
    yield prefix
    for key in client.scan_iter(match=prefix + "*", count=500):
        client.delete(key)
    client.close()

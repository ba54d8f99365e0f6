"""HTTP with retries: httpx underneath, an API key on every request, a timeout, and
exponential backoff with full jitter on what a retry can cure (a connection that failed,
429 over the rate limit, 503 busy), honouring the service's Retry-After. A 4xx verdict
or problem is never retried: the same request would get the same answer. A connection
that fails on the last try is an ``ArbiterNetworkError`` (``ArbiterTimeoutError`` when
it timed out), httpx's own error as its cause.

Bodies of ``COMPRESS_BYTES`` or more go gzipped (``compress=False``: as they are);
answers come in gzip, or Brotli and zstd too when the ``brotli`` and ``zstandard``
packages are installed (httpx asks for and decodes each)."""

from __future__ import annotations

import asyncio
import gzip
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from arbiter_client.errors import ArbiterNetworkError, ArbiterProblem, ArbiterTimeoutError

RETRIED_STATUSES = frozenset({429, 503})
# Bodies from this size on go gzipped: a 20 KB validate body of 331 hexes goes as 2.1 KB.
# Smaller ones fit in a packet or two as they are, and the service sends back as they are
# answers under 1 KiB for the same reason.
COMPRESS_BYTES = 1024
GZIP_LEVEL = 5


@dataclass(frozen=True)
class Retry:
    """``attempts`` tries in all; before try n+1 the client waits the Retry-After the
    service sent (at most ``max_wait``), else a random time up to ``base * 2**n`` (at most
    ``cap``): full jitter, so clients turned away together do not come back together."""

    attempts: int = 4
    base: float = 0.25
    cap: float = 8.0
    max_wait: float = 60.0

    def delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_wait)
        return random.uniform(0, min(self.cap, self.base * 2 ** attempt))


NO_RETRY = Retry(attempts=1)


def retry_after(headers: Mapping[str, str]) -> float | None:
    value = headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None  # an HTTP date: fall back on the backoff


def auth_headers(api_key: str | None, key_header: str) -> dict[str, str]:
    """The API key as a bearer token (``key_header="authorization"``) or in X-API-Key."""
    headers = {"accept": "application/json"}
    if api_key is None:
        return headers
    if key_header.lower() == "authorization":
        headers["authorization"] = f"Bearer {api_key}"
    else:
        headers[key_header] = api_key
    return headers


def encoded(body: bytes | None, compress: bool) -> tuple[bytes | None, dict[str, str] | None]:
    """The body as it goes, and its headers."""
    if body is None:
        return None, None
    if compress and len(body) >= COMPRESS_BYTES:
        return gzip.compress(body, GZIP_LEVEL, mtime=0), {"content-type": "application/json",
                                                          "content-encoding": "gzip"}
    return body, {"content-type": "application/json"}


def network_error(method: str, path: str, error: httpx.TransportError) -> ArbiterNetworkError:
    kind = ArbiterTimeoutError if isinstance(error, httpx.TimeoutException) \
        else ArbiterNetworkError
    return kind(f"{method} {path}: {type(error).__name__}: {error}", error)


def _checked(response: httpx.Response) -> httpx.Response:
    if response.status_code >= 400:
        raise ArbiterProblem.from_response(response.status_code, response.content)
    return response


class Transport:
    def __init__(self, base_url: str, *, api_key: str | None = None,
                 key_header: str = "authorization", timeout: float = 30.0,
                 retry: Retry = Retry(), http: httpx.Client | None = None,
                 sleep: Callable[[float], None] = time.sleep, compress: bool = True) -> None:
        self.http = http or httpx.Client(base_url=base_url, timeout=timeout,
                                         headers=auth_headers(api_key, key_header))
        self.retry = retry
        self.sleep = sleep
        self.compress = compress

    def request(self, method: str, path: str, body: bytes | None = None) -> httpx.Response:
        body, headers = encoded(body, self.compress)
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                response = self.http.request(method, path, content=body, headers=headers)
            except httpx.TransportError as error:
                if last:
                    raise network_error(method, path, error) from error
                self.sleep(self.retry.delay(attempt, None))
                continue
            if response.status_code in RETRIED_STATUSES and not last:
                self.sleep(self.retry.delay(attempt, retry_after(response.headers)))
                continue
            return _checked(response)
        raise AssertionError("unreachable: the last attempt returns or raises")

    def close(self) -> None:
        self.http.close()


class AsyncTransport:
    def __init__(self, base_url: str, *, api_key: str | None = None,
                 key_header: str = "authorization", timeout: float = 30.0,
                 retry: Retry = Retry(), http: httpx.AsyncClient | None = None,
                 sleep: Callable[[float], Any] = asyncio.sleep, compress: bool = True) -> None:
        self.http = http or httpx.AsyncClient(base_url=base_url, timeout=timeout,
                                              headers=auth_headers(api_key, key_header))
        self.retry = retry
        self.sleep = sleep
        self.compress = compress

    async def request(self, method: str, path: str,
                      body: bytes | None = None) -> httpx.Response:
        body, headers = encoded(body, self.compress)
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                response = await self.http.request(method, path, content=body, headers=headers)
            except httpx.TransportError as error:
                if last:
                    raise network_error(method, path, error) from error
                await self.sleep(self.retry.delay(attempt, None))
                continue
            if response.status_code in RETRIED_STATUSES and not last:
                await self.sleep(self.retry.delay(attempt, retry_after(response.headers)))
                continue
            return _checked(response)
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def close(self) -> None:
        await self.http.aclose()

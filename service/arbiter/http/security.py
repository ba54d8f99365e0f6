"""Optional API keys and per-key rate limiting, as one ASGI middleware (``Gate``), in front
of admission and the body's reading (``admission.Admit``): a key is checked from the
headers alone, so a request without a valid one is refused (with ``Connection: close``
when it came with a body, which is left unread) before it holds a slot in flight or a
byte of buffer that a client with a key needs.

Issuer keys (``ARBITER_ISSUER_KEYS``, ``ARBITER_ISSUER_KEY_SHA256``: the game servers',
who may start games) are keys too, accepted wherever an API key is; the gate marks a
request that carries one (``request.state.issuer``) for new-game (``service.issuing``).
With issuer keys but no API keys, a request without a key goes on, and one with a key
that is neither is refused as an unknown key would be (and throttled alike).

Keys (``ARBITER_API_KEYS``, ``ARBITER_API_KEY_SHA256``) are held only as SHA-256 digests
and compared in constant time against every known digest, so neither a key nor its
position leaks through timing. A request names its key in ``Authorization: Bearer <key>``
or ``X-API-Key: <key>``; a missing or unknown key is a 401 problem. Rate limiting
(``ARBITER_RATE_LIMIT``) is a token bucket per key (per client address without keys),
kept in Redis when one is configured so every replica shares it, in process otherwise or
while Redis fails; an empty bucket is a 429 problem with ``Retry-After``. Failed
authentications are throttled per client address (``ARBITER_AUTH_FAILURE_LIMIT`` a minute,
in each worker): beyond them every request from the address is a 429 before its key is
compared, so keys cannot be guessed at speed; each failure is counted in
``arbiter_auth_failures_total`` by reason. The client address is the peer's, or the one
a proxy of ``ARBITER_TRUSTED_PROXIES`` forwarded (uvicorn's proxy headers are believed
from those addresses only: ``cli``), so a client cannot choose its bucket. Health, readiness,
metrics, the OpenAPI document, the GraphiQL page and the browser pages (index, playground,
docs and their static files: ``pages.py``) stay open. Both are off by default.
"""

from __future__ import annotations

import hashlib
import hmac
import math

from starlette.types import ASGIApp, Receive, Scope, Send

from arbiter.http.guard import send_problem
from arbiter.http.pages import OPEN_PAGES, OPEN_PREFIXES
from arbiter.http.ratelimit import MemoryBuckets, RateLimiter
from arbiter.telemetry.metrics import Metrics

OPEN_PATHS = frozenset({"/healthz", "/readyz", "/metrics", "/openapi.json", *OPEN_PAGES})


class ApiKeys:
    """The known keys as SHA-256 digests; ``identify`` says which one a request carries."""

    def __init__(self, digests: list[bytes]) -> None:
        self._digests = list(digests)

    @classmethod
    def from_hex(cls, hex_digests: str) -> ApiKeys:
        digests = []
        for item in hex_digests.split(","):
            item = item.strip().lower()
            if not item:
                continue
            raw = bytes.fromhex(item)
            if len(raw) != 32:
                raise ValueError("ARBITER_API_KEY_SHA256 holds SHA-256 digests: 64 hex digits")
            digests.append(raw)
        return cls(digests)

    def __bool__(self) -> bool:
        return bool(self._digests)

    def identify(self, key: str) -> str | None:
        """The key's identity (a short digest prefix, safe to log), or None when unknown.
        Every digest is compared, whatever matches, in constant time each."""
        offered = hashlib.sha256(key.encode("utf-8", "surrogateescape")).digest()
        found = None
        for digest in self._digests:
            if hmac.compare_digest(offered, digest):
                found = digest
        return None if found is None else found.hex()[:12]


def offered_key(headers: dict[bytes, bytes]) -> str | None:
    """The key in ``Authorization: Bearer`` or ``X-API-Key``, if any."""
    auth = headers.get(b"authorization")
    if auth is not None:
        scheme, _, value = auth.decode("latin-1").partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    key = headers.get(b"x-api-key")
    if key is not None and key.strip():
        return key.decode("latin-1").strip()
    return None


def is_open(scope: Scope) -> bool:
    path = scope.get("path", "")
    return (path in OPEN_PATHS or path.startswith(OPEN_PREFIXES)
            or (path == "/graphql" and scope.get("method") == "GET"))


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class FailureThrottle:
    """Failed authentications per client address: a token bucket of ``per_minute`` in
    process (kept by address, least recently used dropped beyond 100 000)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.buckets = MemoryBuckets(per_minute / 60, per_minute)

    def wait(self, address: str) -> int:
        """Whole seconds before ``address`` may try again (0: now)."""
        wait = self.buckets.wait(address)
        return math.ceil(wait) if wait > 0 else 0

    def failed(self, address: str) -> None:
        self.buckets.take(address)


def has_body(scope: Scope) -> bool:
    """Whether the request comes with a body (which a refusal leaves unread)."""
    headers = dict(scope["headers"])
    length = headers.get(b"content-length")
    return b"transfer-encoding" in headers or (length is not None and length.strip() != b"0")


class Gate:
    """Authentication, then rate limiting, in front of admission and the application."""

    def __init__(self, app: ASGIApp, keys: ApiKeys, limiter: RateLimiter | None,
                 failures: FailureThrottle | None = None, metrics: Metrics | None = None,
                 issuers: ApiKeys | None = None) -> None:
        self.app = app
        self.keys = keys
        self.limiter = limiter
        self.failures = failures
        self.metrics = metrics
        self.issuers = issuers or ApiKeys([])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_open(scope) or scope.get("method") == "OPTIONS":
            await self.app(scope, receive, send)
            return
        identity: str | None = None
        state = scope.setdefault("state", {})
        offered = offered_key(dict(scope["headers"]))
        if self.keys or (self.issuers and offered is not None):
            found = await self._authenticated(scope, send, offered)
            if found is None:
                return
            identity, state["issuer"] = found
            state["api_key"] = identity
        if self.limiter is not None:
            if identity is None:
                identity = f"addr:{client_address(scope)}"
            allowed, retry_after = await self.limiter.take(identity)
            if not allowed:
                await send_problem(
                    send, 429, f"rate limit exceeded: at most {self.limiter.rate:g} requests "
                    f"per second on average, {self.limiter.burst} at once (ARBITER_RATE_LIMIT, "
                    "ARBITER_RATE_BURST)", {"retry-after": str(retry_after)},
                    limit="ARBITER_RATE_LIMIT", retry_after=retry_after)
                return
        await self.app(scope, receive, send)

    async def _authenticated(self, scope: Scope, send: Send, key: str | None
                             ) -> tuple[str, bool] | None:
        """The identity of the request's key and whether it is an issuer's; None once a
        401 or 429 has been sent (closing the connection when a body is left unread)."""
        address = client_address(scope)
        unread = {"connection": "close"} if has_body(scope) else {}
        wait = self.failures.wait(address) if self.failures is not None else 0
        if wait > 0:
            assert self.failures is not None
            self._count("throttled")
            await send_problem(
                send, 429, f"too many failed authentications from this address: at most "
                f"{self.failures.per_minute} a minute (ARBITER_AUTH_FAILURE_LIMIT)",
                {"retry-after": str(wait), **unread}, limit="ARBITER_AUTH_FAILURE_LIMIT",
                retry_after=wait)
            return None
        if key is not None:
            # Both sets are compared whatever the first finds: the time says nothing.
            issuer = self.issuers.identify(key)
            identity = self.keys.identify(key)
            if issuer is not None:
                return issuer, True
            if identity is not None:
                return identity, False
        if self.failures is not None:
            self.failures.failed(address)
        self._count("missing" if key is None else "invalid")
        detail = ("an API key is required: send Authorization: Bearer <key> or "
                  "X-API-Key: <key>") if key is None else "the API key is not valid"
        await send_problem(send, 401, detail, {"www-authenticate": 'Bearer realm="arbiter"',
                                               **unread})
        return None

    def _count(self, reason: str) -> None:
        if self.metrics is not None:
            self.metrics.auth_failed(reason)

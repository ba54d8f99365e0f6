"""Optional API keys and per-key rate limiting, as one ASGI middleware (``Gate``).

Keys (``ARBITER_API_KEYS``, ``ARBITER_API_KEY_SHA256``) are held only as SHA-256 digests
and compared in constant time against every known digest, so neither a key nor its
position leaks through timing. A request names its key in ``Authorization: Bearer <key>``
or ``X-API-Key: <key>``; a missing or unknown key is a 401 problem. Rate limiting
(``ARBITER_RATE_LIMIT``) is a token bucket per key (per client address without keys),
kept in Redis when one is configured so every replica shares it, in process otherwise or
while Redis fails; an empty bucket is a 429 problem with ``Retry-After``. Health, readiness,
metrics, the OpenAPI document, the GraphiQL page and the browser pages (index, playground,
docs and their static files: ``pages.py``) stay open. Both are off by default.
"""

from __future__ import annotations

import hashlib
import hmac

from starlette.types import ASGIApp, Receive, Scope, Send

from arbiter.api.guard import send_problem
from arbiter.api.pages import OPEN_PAGES, OPEN_PREFIXES
from arbiter.api.ratelimit import RateLimiter

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


class Gate:
    """Authentication, then rate limiting, in front of the application."""

    def __init__(self, app: ASGIApp, keys: ApiKeys, limiter: RateLimiter | None) -> None:
        self.app = app
        self.keys = keys
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_open(scope) or scope.get("method") == "OPTIONS":
            await self.app(scope, receive, send)
            return
        identity: str | None = None
        if self.keys:
            headers = dict(scope["headers"])
            key = offered_key(headers)
            identity = self.keys.identify(key) if key is not None else None
            if identity is None:
                detail = ("an API key is required: send Authorization: Bearer <key> or "
                          "X-API-Key: <key>") if key is None else "the API key is not valid"
                await send_problem(send, 401, detail,
                                    {"www-authenticate": 'Bearer realm="arbiter"'})
                return
            scope.setdefault("state", {})["api_key"] = identity
        if self.limiter is not None:
            if identity is None:
                client = scope.get("client")
                identity = f"addr:{client[0] if client else 'unknown'}"
            allowed, retry_after = await self.limiter.take(identity)
            if not allowed:
                await send_problem(
                    send, 429, f"rate limit exceeded: at most {self.limiter.rate:g} requests "
                    f"per second on average, {self.limiter.burst} at once (ARBITER_RATE_LIMIT, "
                    "ARBITER_RATE_BURST)", {"retry-after": str(retry_after)},
                    limit="ARBITER_RATE_LIMIT", retry_after=retry_after)
                return
        await self.app(scope, receive, send)


"""The connection layer under the ASGI application: uvicorn's HTTP protocol (httptools when
installed, else h11, as uvicorn's own "auto" picks) with the two things uvicorn lacks.

- A deadline for a request's headers (``ARBITER_HEADER_TIMEOUT_MS``), counted from the
  connection's opening and again from the end of each answer: a connection that has not
  sent a whole request head by then is closed. uvicorn's keep-alive timer stops at the
  first byte a client sends, so without it one byte every few seconds held a connection
  (and its buffers) for ever. A request whose head is in has its body's own deadline in
  ``admission``.
- A bound on a request's head (``ARBITER_MAX_HEADER_BYTES``): httptools has none, and
  uvicorn kept every header line it was sent (100 MB of them in half a second took
  100 MB of the worker's memory); a longer head gets 431 and the connection is closed.
- The worker's open connections, which ``admission.Admission`` reads to refuse requests on
  connections beyond ``ARBITER_MAX_CONNECTIONS`` with 503 and ``Retry-After`` (uvicorn's
  ``limit_concurrency`` answers a plain-text 503 without ``Retry-After``, probes too).

``arbiter serve`` passes ``protocol()`` to uvicorn as its ``http`` class.
"""

from __future__ import annotations

import asyncio
import functools
from typing import TYPE_CHECKING, Any

import orjson
from uvicorn.protocols.http.h11_impl import H11Protocol

from arbiter.http.problems import LIMIT_TITLE, LIMIT_TYPE, problem_body
from arbiter.settings import Settings

# The mixin is typed as h11's protocol, whose steps httptools' names alike.
if TYPE_CHECKING:
    _ProtocolBase = H11Protocol
else:
    _ProtocolBase = object

# The set of open connections uvicorn keeps for this worker (the same object every
# protocol instance of the worker holds), once the first connection is made.
_open: set[Any] | None = None


def open_connections() -> int:
    """Connections this worker has open now (0 outside a server: the in-process tests)."""
    return len(_open) if _open is not None else 0


@functools.cache
def _settings() -> Settings:
    """The worker's settings, from its environment (which ``arbiter serve`` checked before
    starting it)."""
    return Settings.from_env()


def header_timeout() -> float:
    """Seconds a connection has for a request's head."""
    return _settings().header_timeout_ms / 1000


@functools.cache
def _too_large() -> bytes:
    """The whole 431 answer to a head over the limit."""
    limit = _settings().max_header_bytes
    body = orjson.dumps(problem_body(
        431, f"the request's head exceeds {limit} bytes (ARBITER_MAX_HEADER_BYTES)",
        type=LIMIT_TYPE, title=LIMIT_TITLE, limit="ARBITER_MAX_HEADER_BYTES", maximum=limit))
    return (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: "
            b"application/problem+json\r\nconnection: close\r\ncontent-length: "
            + str(len(body)).encode() + b"\r\n\r\n" + body)


class _Tracked(_ProtocolBase):
    """What the service adds to uvicorn's HTTP protocols (h11's and httptools', which
    name these steps alike): each connection counted, its head timed and bounded.

    It reads uvicorn's protocol state (``cycle``, ``connections``, ``transport``,
    ``loop``) and extends its steps (``on_response_complete`` among them), which are not
    a public API: pyproject.toml pins the uvicorn they were written for, and
    tests/test_pinned.py fails on any other."""

    head_bytes = 0
    head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn narrows the argument the same way
        super().connection_made(transport)
        global _open
        _open = self.connections
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._received(len(data))

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def _waiting(self) -> bool:
        """No request is being answered: what the client sends now is a request's head."""
        return self.cycle is None or bool(self.cycle.response_complete)

    def _received(self, size: int) -> None:
        """Count what the client sent while its head is not in; refuse a head too long."""
        if not self._waiting():
            self.head_bytes = 0
            return
        self.head_bytes += size
        if self.head_bytes > _settings().max_header_bytes and not self.transport.is_closing():
            self.transport.write(_too_large())
            self.transport.close()

    def _arm(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
        self.head_timer = self.loop.call_later(header_timeout(), self._head_late)

    def _head_late(self) -> None:
        """The deadline passed: close the connection unless a request is being answered
        on it (then its head came in time)."""
        self.head_timer = None
        if self._waiting() and not self.transport.is_closing():
            self.transport.close()


class H11Connection(_Tracked, H11Protocol):
    pass


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is part of the install
    HttpToolsConnection: type[asyncio.Protocol] | None = None
else:
    class _HttpToolsConnection(_Tracked, HttpToolsProtocol):  # type: ignore[misc]  # (typed as h11's)
        pass

    HttpToolsConnection = _HttpToolsConnection


def protocol() -> type[asyncio.Protocol]:
    """The HTTP protocol class ``arbiter serve`` gives uvicorn."""
    return HttpToolsConnection or H11Connection

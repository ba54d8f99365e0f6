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


def _waiting(conn: Any) -> bool:
    """No request is being answered on ``conn``: what it sends now is a request's head."""
    return conn.cycle is None or bool(conn.cycle.response_complete)


def _received(conn: Any, size: int) -> None:
    """Count what a connection sent while its head is not in; refuse a head too long."""
    if not _waiting(conn):
        conn._arbiter_head_bytes = 0
        return
    conn._arbiter_head_bytes = getattr(conn, "_arbiter_head_bytes", 0) + size
    if conn._arbiter_head_bytes > _settings().max_header_bytes and \
            not conn.transport.is_closing():
        conn.transport.write(_too_large())
        conn.transport.close()


def _opened(conn: Any) -> None:
    global _open
    _open = conn.connections
    _arm(conn)


def _arm(conn: Any) -> None:
    timer = getattr(conn, "_arbiter_head_timer", None)
    if timer is not None:
        timer.cancel()
    conn._arbiter_head_timer = conn.loop.call_later(header_timeout(), _head_late, conn)


def _head_late(conn: Any) -> None:
    """The deadline passed: close the connection unless a request is being answered on it
    (then its head came in time)."""
    conn._arbiter_head_timer = None
    if _waiting(conn) and not conn.transport.is_closing():
        conn.transport.close()


def _answered(conn: Any) -> None:
    if not conn.transport.is_closing():
        _arm(conn)


def _lost(conn: Any) -> None:
    timer = getattr(conn, "_arbiter_head_timer", None)
    if timer is not None:
        timer.cancel()
        conn._arbiter_head_timer = None


class _Tracked(_ProtocolBase):
    """What the service adds to uvicorn's HTTP protocols (h11's and httptools', which
    name these steps alike): each connection counted and its head timed."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn narrows the argument the same way
        super().connection_made(transport)
        _opened(self)

    def connection_lost(self, exc: Exception | None) -> None:
        _lost(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        _received(self, len(data))

    def on_response_complete(self) -> None:
        super().on_response_complete()
        _answered(self)


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

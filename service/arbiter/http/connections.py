"""The connection layer under the ASGI application: uvicorn's HTTP protocol (httptools when
installed, else h11, as uvicorn's own "auto" picks) with what uvicorn lacks. uvicorn has
flow control (``send`` waits while the client does not read) and a keep-alive timeout,
but no public setting for any of the following (its "Server Behavior" page lists them
all), so they live here, on the protocol's own steps.

- A deadline for a request's headers (``ARBITER_HEADER_TIMEOUT_MS``), counted from the
  connection's opening and again from the end of each answer: a connection that has not
  sent a whole request head by then is closed. uvicorn's keep-alive timer stops at the
  first byte a client sends, so without it one byte every few seconds held a connection
  (and its buffers) for ever. A request whose head is in has its body's own deadline in
  ``admission``.
- A bound on a request's head (``ARBITER_MAX_HEADER_BYTES``): httptools has none, and
  uvicorn kept every header line it was sent (100 MB of them in half a second took
  100 MB of the worker's memory); a longer head gets 431 and the connection is closed.
  The bytes are counted whatever the connection is doing: while a request was being
  answered they used not to be, and header lines pipelined behind a slow request took
  the worker from 82 to 556 MiB (20 MB of them). And once a request's body is in, the
  connection stops reading until its answer is out (what a client pipelines waits in
  the kernel's buffers, not the worker's), as uvicorn itself does once a pipelined head
  is in.
- A deadline for an answer the client does not read (``ARBITER_SEND_TIMEOUT_MS``, as
  nginx's ``send_timeout``: between two reads): uvicorn's ``send`` waits for the client
  to drain its buffer for as long as it takes, its request counted in flight meanwhile,
  so 64 connections asking for large answers and never reading held every slot of the
  worker. Past the deadline the connection is aborted (``close`` would wait for the
  buffer to drain, which is what never happens), its request told it is disconnected.
- The request being answered is the one told of a lost connection: uvicorn tells the last
  one it parsed, which with pipelined requests is one still queued, and the answer under
  way then wrote on the closed transport (an "unable to perform operation on
  TCPTransport closed" error logged for each).
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


def send_timeout() -> float:
    """Seconds an answer may wait for its client to read it."""
    return _settings().send_timeout_ms / 1000


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
    name these steps alike): each connection counted, its head timed and bounded, its
    answers' wait for the client bounded.

    It reads uvicorn's protocol state (``cycle``, ``flow``, ``connections``,
    ``transport``, ``loop``) and extends its steps (``on_response_complete`` and
    ``pause_writing`` among them), which are not a public API: pyproject.toml pins the
    uvicorn they were written for, and tests/test_pinned.py fails on any other."""

    head_bytes = 0
    head_timer: asyncio.TimerHandle | None = None
    send_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn narrows the argument the same way
        super().connection_made(transport)
        global _open
        _open = self.connections
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self.head_timer, self.send_timer):
            if timer is not None:
                timer.cancel()
        self.head_timer = self.send_timer = None
        answering = self._answering()
        if answering is not None and not answering.response_complete:
            answering.disconnected = True
            answering.message_event.set()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        if before is None or not before.more_body:
            # The last request's body is in: these bytes start a request's head.
            self.head_bytes += len(data)
        super().data_received(data)
        if self.cycle is not before:
            self.head_bytes = 0  # a head came in whole (what follows it in ``data`` aside)
        cycle = self.cycle
        if cycle is not None and not cycle.more_body and not cycle.response_complete:
            # Its answer is under way: what else the client sends waits in the kernel
            # (uvicorn reads on once the answer is out, ``on_response_complete``).
            self.flow.pause_reading()
        self._bound_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()
            self._bound_head()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self.send_timer is None:
            self.send_timer = self.loop.call_later(send_timeout(), self._send_late)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self.send_timer is not None:
            self.send_timer.cancel()
            self.send_timer = None

    def _answering(self) -> Any:
        """The request being answered on this connection (None between requests)."""
        return self.cycle

    def _waiting(self) -> bool:
        """No request is being answered: what the client sends now is a request's head."""
        return self.cycle is None or bool(self.cycle.response_complete)

    def _bound_head(self) -> None:
        """Refuse a head too long, once no answer is under way (then reading has stopped,
        and the 431 follows the answer)."""
        if (self.head_bytes > _settings().max_header_bytes and self._waiting()
                and not self.transport.is_closing()):
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
            if self.send_timer is None and self.transport.get_write_buffer_size():
                # ``close`` waits for the answer still buffered: not for ever.
                self.send_timer = self.loop.call_later(send_timeout(), self._send_late)

    def _send_late(self) -> None:
        """The client left an answer unread past the deadline: abort the connection."""
        self.send_timer = None
        self.transport.abort()


class H11Connection(_Tracked, H11Protocol):
    pass


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is part of the install
    HttpToolsConnection: type[asyncio.Protocol] | None = None
else:
    class _HttpToolsConnection(_Tracked, HttpToolsProtocol):  # type: ignore[misc]  # (typed as h11's)
        answering: Any = None

        def _start_asgi_task(self, cycle: Any, app: Any) -> None:
            # httptools parses pipelined requests ahead: ``cycle`` is the last one parsed,
            # this the one answered.
            self.answering = cycle
            super()._start_asgi_task(cycle, app)

        def _answering(self) -> Any:
            return self.answering

    HttpToolsConnection = _HttpToolsConnection


def protocol() -> type[asyncio.Protocol]:
    """The HTTP protocol class ``arbiter serve`` gives uvicorn."""
    return HttpToolsConnection or H11Connection

"""Content codings on the wire, both ways.

Answers: ``Compress``, the outermost ASGI middleware, encodes an answer in the coding the
request's ``Accept-Encoding`` prefers (``br``, ``zstd`` or ``gzip``; by its q-values, ties
going to the smallest output first), and says ``Vary: Accept-Encoding`` on every answer
that is sent compressed to some client. Starlette's ``GZipMiddleware`` knows gzip alone and
matches "gzip" anywhere in the header (``gzip;q=0`` included), hence this one.

What is left alone: an answer already encoded (``/openapi.json`` is, once per coding:
``Precoded``), a partial or bodiless one, one whose type is compressed already (images
but SVG, archives, fonts), and one under ``MIN_BYTES``. Large answers are encoded in a
worker thread, so the event loop (and ``/healthz``) answers meanwhile; a streamed one
(``FileResponse``) is encoded chunk by chunk, never held whole. An encoded answer is at
most a copy of about a fifth of the answer's size beside it (1/7 to 1/10 measured).

Requests: a body sent with ``Content-Encoding: gzip`` is decoded by ``admission.Admit``
(``decoded``) into at most ``ARBITER_MAX_BODY_BYTES`` bytes: the limit holds for what the
body says once decoded, so a small body that inflates past it is a 413 after the limit
plus one byte has been inflated, never more. Any other coding is a 415 naming gzip.

Measured (tests/bench/compression_bench.py; Python 3.11, one core of the 2-core machine,
the 331-hex validate answer of 27,800 bytes): gzip 9 took 765 µs for 2,615 bytes, 6 217 µs
for 2,743, 5 117 µs for 2,797, 1 47 µs for 3,802; Brotli 4 108 µs for 2,690, 11 31 ms for
2,107; zstd 3 31 µs for 2,986. The levels below are where the bytes stop paying for the
time: against the 2-3 ms of CPU the validate itself costs, 1 to 5 %.
"""

from __future__ import annotations

import asyncio
import hashlib
import zlib
from dataclasses import dataclass
from typing import Protocol

import brotli  # type: ignore[import-untyped]  # (Google's binding ships no type hints)
import zstandard
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbiter.http.scope import BYTES_SENT, CONTENT_ENCODING

# The codings answers are sent in, the smallest output first: the server's preference
# among codings a client weighs alike.
CODINGS = ("br", "zstd", "gzip")
# Under this many bytes an answer goes as it is. Measured: a 1,000-byte piece of the
# validate answer compressed to 245-324 bytes in 4-9 µs, a 300-byte one to 166-218:
# the time is nothing, but an answer under about 1 KiB goes in one TCP segment with its
# head whatever its coding (1,460 bytes of payload on Ethernet, fewer on mobile links
# than that only with tunnels), so compressing it saves no packet and no round trip,
# and a client's decoder costs more than the bytes saved.
MIN_BYTES = 1024
# Answers over this many bytes are encoded in a worker thread: 128 KiB took 0.5-1 ms
# (Brotli 4), a 2.9 MB reachable answer 14 ms, too long to hold the event loop.
THREAD_BYTES = 128 << 10
# Levels for answers made per request (above), and for ``Precoded`` ones, encoded once
# per worker: /openapi.json's 802,127 bytes took Brotli 9 29 ms (72,138 bytes), zstd 12
# 8 ms (75,109), gzip 9 21 ms (104,393); Brotli 11 took 661 ms for 66,006.
BROTLI_QUALITY, ZSTD_LEVEL, GZIP_LEVEL = 4, 3, 5
BROTLI_BEST, ZSTD_BEST, GZIP_BEST = 9, 12, 9
# Types compressed already, or not worth it: an answer of one goes as it is.
PRECOMPRESSED = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/avif",
                 "font/woff", "font/woff2", "application/gzip", "application/zip",
                 "application/zstd", "application/octet-stream", "text/event-stream")


class Encoder(Protocol):
    def process(self, data: bytes) -> bytes: ...
    def finish(self) -> bytes: ...


class _Zlib:
    def __init__(self, level: int) -> None:
        self.coder = zlib.compressobj(level, zlib.DEFLATED, 31)  # (31: gzip's framing)

    def process(self, data: bytes) -> bytes:
        return self.coder.compress(data)

    def finish(self) -> bytes:
        return self.coder.flush()


class _Zstd:
    def __init__(self, level: int, size: int) -> None:
        # The size, when known, goes in the frame's head (decoders that take a frame whole
        # need it).
        self.coder = zstandard.ZstdCompressor(level=level).compressobj(size=size)

    def process(self, data: bytes) -> bytes:
        return self.coder.compress(data)

    def finish(self) -> bytes:
        return self.coder.flush()


class _Brotli:
    def __init__(self, quality: int) -> None:
        self.coder = brotli.Compressor(quality=quality)

    def process(self, data: bytes) -> bytes:
        out: bytes = self.coder.process(data)
        return out

    def finish(self) -> bytes:
        out: bytes = self.coder.finish()
        return out


def encoder(coding: str, best: bool = False, size: int = -1) -> Encoder:
    """A streaming encoder of ``coding`` at the level for answers made per request, or the
    ``best`` one for answers encoded once; ``size``: the whole input's, when known."""
    if coding == "br":
        return _Brotli(BROTLI_BEST if best else BROTLI_QUALITY)
    if coding == "zstd":
        return _Zstd(ZSTD_BEST if best else ZSTD_LEVEL, size)
    return _Zlib(GZIP_BEST if best else GZIP_LEVEL)


def encode(coding: str, data: bytes, best: bool = False) -> bytes:
    """``data`` whole in ``coding``."""
    coder = encoder(coding, best, len(data))
    return coder.process(data) + coder.finish()


def negotiate(accept_encoding: str | None) -> str | None:
    """The coding to answer in for this ``Accept-Encoding`` (RFC 9110 12.5.3), or None:
    as it is. The highest q-value wins, ties to ``CODINGS``' order; ``*`` stands for
    every coding not named; q=0 refuses one."""
    if not accept_encoding:
        return None
    weights: dict[str, float] = {}
    for item in accept_encoding.split(",")[:32]:
        name, _, params = item.partition(";")
        name = name.strip().lower()
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
        weights.setdefault(name, q)
    best: tuple[float, int] | None = None
    chosen = None
    for rank, coding in enumerate(CODINGS):
        q = weights.get(coding, weights.get("*", 0.0))
        if q > 0 and (best is None or (q, -rank) > best):
            best, chosen = (q, -rank), coding
    return chosen


def compressible(headers: Headers) -> bool:
    media = headers.get("content-type", "").partition(";")[0].strip().lower()
    return media not in PRECOMPRESSED and not media.startswith(("audio/", "video/"))


class Compress:
    """Answers encoded as the client asks (module docstring)."""

    def __init__(self, app: ASGIApp, min_bytes: int = MIN_BYTES) -> None:
        self.app = app
        self.min_bytes = min_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        coding = negotiate(Headers(scope=scope).get("accept-encoding"))
        await self.app(scope, receive, _Encoding(send, coding, self.min_bytes, scope).send)


@dataclass
class _Encoding:
    """One answer's way out: its head held until its first body message says how it goes."""

    out: Send
    coding: str | None
    min_bytes: int
    scope: Scope
    start: Message | None = None
    coder: Encoder | None = None
    passing: bool = False

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            self.start = message
            headers = Headers(raw=message.get("headers", []))
            status = message["status"]
            self.passing = ("content-encoding" in headers or status in (204, 206, 304)
                            or status < 200 or not compressible(headers))
            if self.passing:
                await self.out(message)
            return
        if kind != "http.response.body" or self.passing:
            await self.out(message)
            return
        body: bytes = message.get("body", b"")
        more = message.get("more_body", False)
        if self.start is not None:  # the first body message
            start, self.start = self.start, None
            if not more and len(body) < self.min_bytes:
                self.passing = True
                await self.out(start)
                await self.out(message)
                return
            headers = MutableHeaders(raw=list(start.get("headers", [])))
            headers.add_vary_header("Accept-Encoding")
            if self.coding is None:
                self.passing = True
                await self.out({**start, "headers": headers.raw})
                await self.out(message)
                return
            self.coder = encoder(self.coding, size=-1 if more else len(body))
            headers["content-encoding"] = self.coding
            etag = headers.get("etag")
            if etag is not None and not etag.startswith("W/"):
                # Another coding is other bytes: a strong validator no longer names them.
                headers["etag"] = "W/" + etag
            if "content-length" in headers:
                del headers["content-length"]
            encoded = await self._encode(body, more)
            if not more:
                headers["content-length"] = str(len(encoded))
            self.scope[CONTENT_ENCODING] = self.coding
            await self.out({**start, "headers": headers.raw})
        else:
            encoded = await self._encode(body, more)
        await self.out({"type": "http.response.body", "body": encoded, "more_body": more})

    async def _encode(self, body: bytes, more: bool) -> bytes:
        coder = self.coder
        assert coder is not None

        def run() -> bytes:
            out = coder.process(body) if body else b""
            return out + coder.finish() if not more else out

        encoded = run() if len(body) <= THREAD_BYTES else \
            await asyncio.get_running_loop().run_in_executor(None, run)
        self.scope[BYTES_SENT] = self.scope.get(BYTES_SENT, 0) + len(encoded)
        return encoded


def etag_of(content: bytes) -> str:
    """A weak validator of ``content``: equal for each of its codings (RFC 9110 8.8.1)."""
    return 'W/"' + hashlib.sha256(content).hexdigest()[:32] + '"'


def not_modified(request: Request, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (weakly compared), or is ``*``."""
    given = request.headers.get("if-none-match")
    if given is None:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in given.split(",")}
    return "*" in tags or etag.removeprefix("W/") in tags


class Precoded:
    """A document served as it is or in each coding, encoded once (at the best levels,
    the first time a client asks for that coding), with its ETag and a 304 for a client
    that holds it."""

    def __init__(self, content: bytes, media_type: str,
                 cache_control: str = "no-cache") -> None:
        self.content = content
        self.media_type = media_type
        self.etag = etag_of(content)
        self.cache_control = cache_control
        self.encoded: dict[str, bytes] = {}

    async def response(self, request: Request) -> Response:
        headers = {"etag": self.etag, "cache-control": self.cache_control,
                   "vary": "Accept-Encoding"}
        if not_modified(request, self.etag):
            return Response(status_code=304, headers=headers)
        coding = negotiate(request.headers.get("accept-encoding"))
        if coding is None or len(self.content) < MIN_BYTES:
            return Response(self.content, media_type=self.media_type, headers=headers)
        if coding not in self.encoded:  # (two first askers may both encode it: no harm)
            self.encoded[coding] = await asyncio.get_running_loop().run_in_executor(
                None, encode, coding, self.content, True)
        return Response(self.encoded[coding], media_type=self.media_type,
                        headers={**headers, "content-encoding": coding})


class BodyTooLarge(Exception):
    """A request body over the limit once decoded."""


class UnknownCoding(Exception):
    """A request body in a coding the service does not read."""


class BadCoding(Exception):
    """A request body that is not what its coding says (truncated, corrupt)."""


def decoded(body: bytes | bytearray, content_encoding: str, max_bytes: int) -> bytes:
    """``body`` decoded from its ``Content-Encoding``: ``BodyTooLarge`` as soon as it would
    exceed ``max_bytes`` (what is inflated stops there), ``UnknownCoding`` for a coding
    other than gzip (and identity), ``BadCoding`` for a body that is not gzip."""
    codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
    codings = [c for c in codings if c != "identity"]
    if not codings:
        return bytes(body)
    if codings not in (["gzip"], ["x-gzip"]):
        raise UnknownCoding(content_encoding)
    out = bytearray()
    rest: bytes | bytearray = body
    while rest:  # gzip members one after another make one body (RFC 1952 2.2)
        inflater = zlib.decompressobj(31)
        try:
            out += inflater.decompress(rest, max_bytes + 1 - len(out))
        except zlib.error as exc:
            raise BadCoding(str(exc)) from None
        if len(out) > max_bytes:
            raise BodyTooLarge
        if not inflater.eof:
            if inflater.unconsumed_tail:  # (stopped at the limit, exactly on it)
                raise BodyTooLarge
            raise BadCoding("the gzip body ends before its end")
        rest = inflater.unused_data
    return bytes(out)


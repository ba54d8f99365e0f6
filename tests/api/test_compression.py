"""Content codings against a live ``arbiter serve``: answers in the coding the client
asks for (and as they are when it asks for none, or when they are too small to gain),
/openapi.json encoded and revalidated by its ETag, and request bodies sent gzipped,
every body limit holding for what they say once decoded, a small compressed bomb a 413
with the worker's memory as after an ordinary request."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import brotli  # type: ignore[import-untyped]
import httpx
import orjson
import pytest
import zstandard
from tests.bench import boards_hex_maneuver as hexes

from arbiter.http.compression import MIN_BYTES, BodyTooLarge, decoded, negotiate
from support import Server, peak_rss_mib, serving

pytestmark = pytest.mark.server
VALIDATE = "/v1/rulesets/hex_maneuver/validate"
JSON = {"content-type": "application/json"}
DECODE = {"br": brotli.decompress, "zstd": zstandard.ZstdDecompressor().decompress,
          "gzip": gzip.decompress}


@pytest.fixture(scope="module")
def worker() -> Iterator[Server]:
    with serving() as server:
        yield server


@dataclass(frozen=True)
class Wire:
    """An answer as it came on the wire."""

    status_code: int
    headers: httpx.Headers
    content: bytes


def raw(server: Server, method: str, path: str, **kwargs: Any) -> Wire:
    """The answer as it came on the wire (httpx decodes nothing read raw), asked for as it
    is unless the headers say otherwise (httpx asks for every coding it reads)."""
    with httpx.Client(base_url=server.base, timeout=60,
                      headers={"accept-encoding": "identity"}) as client, \
            client.stream(method, path, **kwargs) as response:
        return Wire(response.status_code, response.headers, b"".join(response.iter_raw()))


@pytest.mark.parametrize(("header", "coding"), [
    ("gzip, deflate, br, zstd", "br"), ("gzip", "gzip"), ("zstd", "zstd"),
    ("br;q=0.5, gzip", "gzip"), ("gzip;q=0, identity", None), ("*", "br"),
    ("*, br;q=0", "zstd"), ("", None), (None, None), ("compress", None),
    ("GZIP;Q=0.1", "gzip"), ("br;q=x, gzip;q=0.2", "gzip"),
])
def test_the_coding_follows_the_clients_weights_then_the_smallest(
        header: str | None, coding: str | None) -> None:
    assert negotiate(header) == coding


def test_a_large_answer_goes_in_each_coding_and_says_the_same(worker: Server) -> None:
    body = orjson.dumps(hexes.validate_body(10))  # 331 hexes: a 27.8 KB answer
    plain = raw(worker, "POST", VALIDATE, content=body,
                headers={**JSON, "accept-encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert plain.headers["vary"] == "Accept-Encoding"  # (a cache keeps each coding apart)
    assert len(plain.content) > 20_000
    for coding, decode in DECODE.items():
        sent = raw(worker, "POST", VALIDATE, content=body,
                   headers={**JSON, "accept-encoding": coding})
        assert sent.headers["content-encoding"] == coding
        assert sent.headers["vary"] == "Accept-Encoding"
        assert int(sent.headers["content-length"]) == len(sent.content)
        assert len(sent.content) < len(plain.content) / 6
        assert decode(sent.content) == plain.content


def test_a_small_answer_goes_as_it_is(worker: Server) -> None:
    answer = raw(worker, "GET", "/healthz", headers={"accept-encoding": "gzip, br"})
    assert len(answer.content) < MIN_BYTES
    assert "content-encoding" not in answer.headers and "vary" not in answer.headers
    assert orjson.loads(answer.content) == {"status": "ok"}


def test_a_problem_and_a_page_are_encoded_too(worker: Server) -> None:
    page = raw(worker, "GET", "/", headers={"accept-encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip", page.headers
    assert gzip.decompress(page.content).lstrip().lower().startswith(b"<!doctype html")


def test_a_file_streamed_is_encoded_as_it_streams(worker: Server) -> None:
    plain = raw(worker, "GET", "/static/vendor/swagger-ui-bundle.js")
    assert len(plain.content) > 64 << 10  # (more than one of FileResponse's chunks)
    for coding, decode in DECODE.items():
        sent = raw(worker, "GET", "/static/vendor/swagger-ui-bundle.js",
                   headers={"accept-encoding": coding})
        assert sent.headers["content-encoding"] == coding
        assert "content-length" not in sent.headers  # (sent chunked, as it is encoded)
        assert sent.headers["etag"] == "W/" + plain.headers["etag"]  # (other bytes)
        if coding == "zstd":  # (a frame streamed has no size in its head)
            decode = zstandard.ZstdDecompressor().decompressobj().decompress
        assert decode(sent.content) == plain.content


def test_openapi_is_encoded_and_revalidated_by_its_etag(worker: Server) -> None:
    plain = raw(worker, "GET", "/openapi.json")
    etag = plain.headers["etag"]
    assert etag.startswith('W/"') and plain.headers["cache-control"] == "no-cache"
    for coding, decode in DECODE.items():
        sent = raw(worker, "GET", "/openapi.json", headers={"accept-encoding": coding})
        assert sent.headers["content-encoding"] == coding
        assert sent.headers["etag"] == etag  # (one weak validator for every coding)
        assert len(sent.content) < len(plain.content) / 7
        assert decode(sent.content) == plain.content
    again = raw(worker, "GET", "/openapi.json",
                headers={"if-none-match": etag, "accept-encoding": "br"})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    other = raw(worker, "GET", "/openapi.json", headers={"if-none-match": 'W/"other"'})
    assert other.status_code == 200 and other.content == plain.content


def test_a_gzipped_body_is_read_as_the_same_body(worker: Server) -> None:
    body = orjson.dumps(hexes.validate_body(10))
    plain = raw(worker, "POST", VALIDATE, content=body, headers=JSON)
    sent = raw(worker, "POST", VALIDATE, content=gzip.compress(body),
               headers={**JSON, "content-encoding": "gzip"})
    assert sent.status_code == 200 and sent.content == plain.content
    # Two gzip members one after the other are one body (RFC 1952).
    half = len(body) // 2
    members = gzip.compress(body[:half]) + gzip.compress(body[half:])
    assert raw(worker, "POST", VALIDATE, content=members,
               headers={**JSON, "content-encoding": "gzip"}).content == plain.content


def test_a_body_in_a_coding_not_read_or_not_what_it_says_is_refused(worker: Server) -> None:
    body = orjson.dumps(hexes.validate_body(1))
    other = raw(worker, "POST", VALIDATE, content=brotli.compress(body),
                headers={**JSON, "content-encoding": "br"})
    assert other.status_code == 415 and other.headers["accept-encoding"] == "gzip"
    assert "gzip" in orjson.loads(other.content)["detail"]
    cut = raw(worker, "POST", VALIDATE, content=gzip.compress(body)[:-12],
              headers={**JSON, "content-encoding": "gzip"})
    assert cut.status_code == 400 and "gzip" in orjson.loads(cut.content)["detail"]
    junk = raw(worker, "POST", VALIDATE, content=body,
               headers={**JSON, "content-encoding": "gzip"})
    assert junk.status_code == 400


def bomb(decoded_bytes: int) -> bytes:
    """A gzip body of ``decoded_bytes`` spaces: about a thousandth of that on the wire."""
    coder = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = b" " * (1 << 20)
    parts = [coder.compress(chunk) for _ in range(decoded_bytes >> 20)]
    return b"".join(parts) + coder.flush()


def test_a_small_compressed_bomb_is_a_413_and_costs_no_memory(worker: Server) -> None:
    body = orjson.dumps(hexes.validate_body(10))
    raw(worker, "POST", VALIDATE, content=body, headers=JSON)  # an ordinary request first
    before = peak_rss_mib(worker.pid)
    hostile = bomb(1 << 30)  # 1 GiB of spaces in about 1 MB
    assert len(hostile) < 1_100_000
    refused = raw(worker, "POST", VALIDATE, content=hostile,
                  headers={**JSON, "content-encoding": "gzip"})
    assert refused.status_code == 413
    problem = orjson.loads(refused.content)
    assert problem["limit"] == "ARBITER_MAX_BODY_BYTES" and "decoded" in problem["detail"]
    # At most the limit inflated (1 MiB), and the bytes as sent: a few MiB, not a GiB.
    assert peak_rss_mib(worker.pid) - before < 16
    # A body that inflates to exactly the limit is read; one byte more is not.
    limit = 1_048_576
    at_limit = b"[" + b" " * (limit - 2) + b"]"
    assert raw(worker, "POST", VALIDATE, content=gzip.compress(at_limit),
               headers={**JSON, "content-encoding": "gzip"}).status_code == 422
    over = b"[" + b" " * (limit - 1) + b"]"
    assert raw(worker, "POST", VALIDATE, content=gzip.compress(over),
               headers={**JSON, "content-encoding": "gzip"}).status_code == 413


def test_the_json_bounds_hold_for_the_decoded_body(worker: Server) -> None:
    # 200,000 values (over ARBITER_MAX_JSON_VALUES' 131,072) in a few hundred bytes.
    many = b'{"state": [' + b",".join([b"0"] * 200_000) + b"]}"
    refused = raw(worker, "POST", VALIDATE, content=gzip.compress(many),
                  headers={**JSON, "content-encoding": "gzip"})
    assert refused.status_code == 413
    assert orjson.loads(refused.content)["limit"] == "ARBITER_MAX_JSON_VALUES"
    deep = b"[" * 100 + b"]" * 100
    nested = raw(worker, "POST", VALIDATE, content=gzip.compress(deep),
                 headers={**JSON, "content-encoding": "gzip"})
    assert nested.status_code == 422
    assert orjson.loads(nested.content)["limit"] == "ARBITER_MAX_JSON_DEPTH"


def test_decoding_stops_at_the_limit() -> None:
    assert decoded(gzip.compress(b"x" * 100), "gzip", 100) == b"x" * 100
    assert decoded(b"as it is", "identity", 3) == b"as it is"  # (the size is Admit's)
    with pytest.raises(BodyTooLarge):
        decoded(gzip.compress(b"x" * 101), "gzip", 100)

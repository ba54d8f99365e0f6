"""The one strict reading of a JSON body, for REST and the GraphQL HTTP body alike
(``JsonBodies``, an ASGI middleware in front of both, after the API keys).

A POST, PUT or PATCH under ``/v1/`` or to ``/graphql`` must say its body is JSON:
``application/json`` or ``application/*+json``, with no charset or UTF-8; a body declared
as anything else (``text/plain``, a form, multipart) gets 415 before it is judged. A body
with no Content-Type is read as JSON, the only thing the service takes.

Then what the parsers behind it would accept silently is refused with a 422 naming it by
JSON pointer: an object member given twice (orjson, pydantic and strawberry all keep the
last), ``NaN``/``Infinity`` and a number too large for a double (``1e400``). Malformed JSON
is left to the route, which says where it breaks.

The check is fast on what clients send: orjson parses the body and writes it back, and the
two hold as many colons unless a member was dropped as a duplicate. That holds when the
body has no ``\\u`` escape (which could hide a colon in a string): colons outside strings
are one per member, and every string of the body is written back (a duplicate's too,
except a duplicate's). A body with a ``\\u`` escape, or one orjson refuses, or whose
counts differ, is read again by Python's ``json`` with hooks that find and point at
what is wrong (``measured``: 20 KB validate body, docs/hardening.md).
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbiter.engine.errors import Problem, pointer
from arbiter.http.problems import problem, problem_for
from arbiter.http.scope import DOCUMENT, body_of
from arbiter.service.json_bounds import JsonBounds
from arbiter.service.problems import LimitExceeded

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
# Bodies up to this size are checked on the event loop (well under a millisecond).
IN_LOOP_BYTES = 64 << 10
MOST_PROBLEMS = 20
# (a test's app: no bound but the parsers' own)
NO_BOUNDS = JsonBounds(max_depth=1 << 30, max_values=1 << 62, max_string_bytes=1 << 62)


def is_json(content_type: bytes) -> bool:
    """``application/json`` or ``application/*+json``, with no charset or UTF-8."""
    media, _, params = content_type.partition(b";")
    media = media.strip().lower()
    if media != b"application/json" and not (media.startswith(b"application/")
                                             and media.endswith(b"+json")):
        return False
    for param in params.split(b";"):
        name, _, value = param.partition(b"=")
        if name.strip().lower() == b"charset" and \
                value.strip().strip(b'"').lower() not in (b"utf-8", b"utf8"):
            return False
    return True


class _Flagged:
    """What the slow reading found at a place: a non-finite number."""

    def __init__(self, detail: str) -> None:
        self.detail = detail


class _Twice(dict[str, Any]):
    """An object with members given more than once (the last kept, as the parsers do)."""

    def __init__(self, pairs: list[tuple[str, Any]], twice: list[str]) -> None:
        super().__init__(pairs)
        self.twice = twice


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) == len(pairs):
        return made
    seen: set[str] = set()
    twice = []
    for key, _ in pairs:
        if key in seen and key not in twice:
            twice.append(key)
        seen.add(key)
    return _Twice(pairs, twice)


def _number(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else _Flagged(
        f"{text} is too large for a number (a double): not accepted")


def _constant(name: str) -> _Flagged:
    return _Flagged(f"{name} is not JSON: not accepted")


def _found(node: Any, at: tuple[str | int, ...], out: list[Problem]) -> None:
    """Problems of the slow reading, in document order."""
    if len(out) >= MOST_PROBLEMS:
        return
    if isinstance(node, _Flagged):
        out.append(Problem(pointer(*at), node.detail))
    elif isinstance(node, dict):
        if isinstance(node, _Twice):
            out.extend(Problem(pointer(*at, key), f"the member {key!r} is given more than "
                               "once: not accepted") for key in node.twice)
        for key, value in node.items():
            _found(value, (*at, key), out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _found(value, (*at, i), out)


def slow_problems(body: bytes) -> list[Problem]:
    """The duplicates and non-finite numbers of ``body``, by pointer; none when it is not
    JSON at all (the route says so)."""
    try:
        document = json.loads(body, object_pairs_hook=_object, parse_float=_number,
                              parse_constant=_constant)
    except (ValueError, RecursionError):
        return []
    out: list[Problem] = []
    _found(document, (), out)
    return out[:MOST_PROBLEMS]


def body_problems(body: bytes) -> list[Problem]:
    """What the strict reading refuses in ``body`` (empty: nothing)."""
    return read_strictly(body)[1]


def read_strictly(body: bytes, bounds: JsonBounds = NO_BOUNDS) -> tuple[Any, list[Problem]]:
    """``body`` as orjson parsed it, when the fast check found it strict (else None), and
    what the strict reading refuses in it (empty: nothing); ``LimitExceeded`` for a body
    over ``bounds``, measured before it is parsed."""
    bounds.check(body)
    if b"\\u" not in body:
        try:
            document = orjson.loads(body)
            again = orjson.dumps(document)
        except (orjson.JSONDecodeError, orjson.JSONEncodeError):
            pass
        else:
            if again.count(b":") == body.count(b":"):
                return document, []
    return None, slow_problems(body)


def _checked(scope: Scope) -> bool:
    path = scope.get("path", "")
    return scope.get("method") in BODY_METHODS and (path.startswith("/v1/")
                                                    or path == "/graphql")


class JsonBodies:
    def __init__(self, app: ASGIApp, bounds: JsonBounds = NO_BOUNDS) -> None:
        self.app = app
        self.bounds = bounds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _checked(scope):
            await self.app(scope, receive, send)
            return
        content_type = next((v for k, v in scope["headers"] if k == b"content-type"), None)
        if content_type is not None and not is_json(content_type):
            shown = content_type.decode("latin-1")[:100]
            response = problem(415, f"the body must be JSON (Content-Type: application/json "
                               f"or application/*+json, UTF-8), not {shown!r}",
                               headers={"accept-post": "application/json"})
            await response(scope, receive, send)
            return
        body = body_of(scope)
        messages: list[Message] = []
        if body is None:  # (no guard in front: read it here)
            body, messages = await _read(receive)
        # A large body is read in a worker thread: its Python reading (the slow path) then
        # never holds the loop, and /healthz answers meanwhile.
        try:
            document, problems = read_strictly(body, self.bounds) \
                if len(body) <= IN_LOOP_BYTES else await asyncio.get_running_loop(
                    ).run_in_executor(None, read_strictly, body, self.bounds)
        except LimitExceeded as exc:
            await problem_for(exc)(scope, receive, send)
            return
        if problems:
            response = problem(422, "the body is not strict JSON: see errors", problems)
            await response(scope, receive, send)
            return
        if document is not None:
            scope[DOCUMENT] = document
        if scope.get("path") == "/graphql":
            # strawberry checks the content type itself: it sees the one spelling it knows.
            headers = [(k, v) for k, v in scope["headers"] if k != b"content-type"]
            headers.append((b"content-type", b"application/json"))
            scope = {**scope, "headers": headers}

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay if messages else receive, send)


async def _read(receive: Receive) -> tuple[bytes, list[Message]]:
    """The body from ``receive``, and its messages, to be replayed."""
    messages: list[Message] = []
    chunks = []
    more = True
    while more:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        more = message.get("more_body", False)
    return b"".join(chunks), messages

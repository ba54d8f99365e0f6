"""What the service's middleware leaves in a request's ASGI scope for what comes after
it, so that nothing is read or parsed twice: the body, read once by ``admission.Admit``
(within its size limit and deadline), its JSON document, parsed once by
``strict_json.JsonBodies`` (absent when its slow reading ran), and whether the request
carries an issuer key (``security.Gate``). Read with ``body_of``, ``document_of`` and
``is_issuer``."""

from __future__ import annotations

from typing import Any

from starlette.types import Scope

BODY = "arbiter.body"
# The body's bytes as far as they were read (a bytearray the guard logs the size of).
BODY_READ = "arbiter.body_read"
# A body sent encoded (Content-Encoding: gzip): its bytes as sent, ``BODY`` being decoded.
BODY_SENT = "arbiter.body_sent"
# An answer sent encoded (``compression.Compress``): its coding and its bytes as sent.
CONTENT_ENCODING = "arbiter.content_encoding"
BYTES_SENT = "arbiter.bytes_sent"
DOCUMENT = "arbiter.document"


def body_of(scope: Scope) -> bytes | None:
    """The request's body as the guard read it (None outside the guard: a test's app)."""
    body: bytes | None = scope.get(BODY)
    return body


def document_of(scope: Scope) -> Any:
    """The body's JSON document as the strict reading parsed it (None when it did not)."""
    return scope.get(DOCUMENT)


def is_issuer(scope: Scope) -> bool:
    """Whether the request carries a key of ARBITER_ISSUER_KEYS (as the gate found it)."""
    return bool(scope.get("state", {}).get("issuer"))

"""What the service's middleware leaves in a request's ASGI scope for what comes after
it, so that nothing is read or parsed twice: the body, read once by ``guard.Guard``
(within its size limit and deadline), and its JSON document, parsed once by
``strict_json.JsonBodies`` (absent when its slow reading ran). Read with ``body_of`` and
``document_of``."""

from __future__ import annotations

from typing import Any

from starlette.types import Scope

BODY = "arbiter.body"
DOCUMENT = "arbiter.document"


def body_of(scope: Scope) -> bytes | None:
    """The request's body as the guard read it (None outside the guard: a test's app)."""
    body: bytes | None = scope.get(BODY)
    return body


def document_of(scope: Scope) -> Any:
    """The body's JSON document as the strict reading parsed it (None when it did not)."""
    return scope.get(DOCUMENT)

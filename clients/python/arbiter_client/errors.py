"""What keeps a call from an answer, each an ``ArbiterError``: the service's refusals as
``ArbiterProblem``, which carries the RFC 9457 problem document with the JSON pointer of
every bad field; and ``ArbiterNetworkError`` (``ArbiterTimeoutError`` for a timeout) when
no answer came, after the retries. An illegal action is not an error: it is a verdict
(``Outcome.legal`` is false)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

BOARD_NOT_FOUND = "urn:arbiter:problem:board-not-found"


@dataclass(frozen=True)
class ProblemError:
    pointer: str   # RFC 6901 pointer into the request body ("" for the whole body)
    detail: str


class ArbiterError(Exception):
    """Any failure of a call to the service."""


class ArbiterNetworkError(ArbiterError):
    """No answer came: the connection was refused, dropped, or failed (DNS, TLS), on
    every try. ``cause`` is httpx's error (also ``__cause__``)."""

    def __init__(self, message: str, cause: Exception) -> None:
        super().__init__(message)
        self.cause = cause


class ArbiterTimeoutError(ArbiterNetworkError):
    """No answer came within the client's ``timeout``, on every try."""


class ArbiterProblem(ArbiterError):
    """A 4xx or 5xx answer: ``status``, ``type`` (``urn:arbiter:problem:...``), ``title``,
    ``detail``, ``errors`` (each with its pointer) and the whole ``document``."""

    def __init__(self, status: int, document: dict[str, Any]) -> None:
        self.status = status
        self.document = document
        self.type: str = str(document.get("type", "about:blank"))
        self.title: str = str(document.get("title", ""))
        self.detail: str = str(document.get("detail", ""))
        self.errors = [ProblemError(str(e.get("pointer", "")), str(e.get("detail", "")))
                       for e in document.get("errors", []) if isinstance(e, dict)]
        where = "; ".join(f"{e.pointer or '/'}: {e.detail}" for e in self.errors)
        super().__init__(f"{status} {self.title}: {self.detail}" + (f" ({where})" if where else ""))

    @property
    def limit(self) -> str | None:
        """The setting a request over a limit is over (ARBITER_MAX_CELLS, ...)."""
        return self.document.get("limit")

    @property
    def board(self) -> str | None:
        """With a board-not-found problem: the id of the board the service lacks."""
        return self.document.get("board")

    @classmethod
    def from_response(cls, status: int, content: bytes) -> ArbiterProblem:
        try:
            document = json.loads(content)
        except ValueError:
            document = None
        if not isinstance(document, dict):
            document = {"type": "about:blank", "title": f"HTTP {status}", "status": status,
                        "detail": content[:200].decode("utf-8", "replace")}
        return cls(status, document)

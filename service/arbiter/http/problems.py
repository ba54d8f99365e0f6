"""RFC 9457 problem documents: every 4xx and 5xx of the service, and the one for each typed
problem the lifecycle raises (``service.problems``, and the engine's ``InvalidInput``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from starlette.responses import Response

from arbiter.engine.errors import InvalidInput, Problem
from arbiter.service.problems import (
    BoardNotFound,
    BudgetExceeded,
    LimitExceeded,
    SignatureRefused,
    Unanswerable,
    status_and_detail,
)

PROBLEM_TYPES = {
    400: "urn:arbiter:problem:bad-request",
    401: "urn:arbiter:problem:unauthorized",
    404: "urn:arbiter:problem:not-found",
    405: "urn:arbiter:problem:method-not-allowed",
    408: "urn:arbiter:problem:request-timeout",
    413: "urn:arbiter:problem:too-large",
    415: "urn:arbiter:problem:unsupported-media-type",
    422: "urn:arbiter:problem:invalid-request",
    429: "urn:arbiter:problem:rate-limited",
    431: "urn:arbiter:problem:header-too-large",
    500: "urn:arbiter:problem:internal",
    503: "urn:arbiter:problem:unavailable",
}
LIMIT_TYPE = "urn:arbiter:problem:limit-exceeded"
LIMIT_TITLE = "The request is over a limit"
BOARD_NOT_FOUND = "urn:arbiter:problem:board-not-found"
STATE_SIGNATURE = "urn:arbiter:problem:state-signature"
TITLES = {
    400: "Bad request", 401: "Unauthorized", 404: "Not found", 405: "Method not allowed",
    408: "Request timeout",
    413: "Request too large", 415: "Unsupported media type",
    422: "The request is malformed", 429: "Too many requests",
    431: "Request header fields too large", 500: "Internal error",
    503: "Service unavailable",
}


def problem_body(status: int, detail: str, errors: Sequence[Problem] = (),
                 **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": PROBLEM_TYPES.get(status, "about:blank"),
        "title": TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
    }
    if errors:
        body["errors"] = [{"pointer": p.pointer, "detail": p.detail} for p in errors]
    body.update(extra)
    return body


def problem(status: int, detail: str, errors: Sequence[Problem] = (),
            headers: dict[str, str] | None = None, **extra: Any) -> Response:
    return Response(orjson.dumps(problem_body(status, detail, errors, **extra)),
                    status_code=status, media_type="application/problem+json", headers=headers)


def problem_for(exc: Exception) -> Response:
    """The problem document of what kept a request from being answered (one of
    ``UNANSWERED``), as a response."""
    status, extra = problem_of(exc)
    problems = exc.problems if isinstance(exc, (Unanswerable, InvalidInput)) else []
    return problem(status, status_and_detail(exc)[1], problems, **extra)


def problem_of(exc: Exception) -> tuple[int, dict[str, Any]]:
    """The status of what kept a request from being answered, and what its kind adds to
    its problem document (its type and title, the limit it is over, the board not found)."""
    status, _ = status_and_detail(exc)
    if isinstance(exc, LimitExceeded):
        return status, {"type": LIMIT_TYPE, "title": LIMIT_TITLE, "limit": exc.limit,
                        "maximum": exc.maximum}
    if isinstance(exc, BudgetExceeded):
        return status, {"type": LIMIT_TYPE, "title": LIMIT_TITLE, "limit": exc.limit,
                        "maximum": exc.budget_ms}
    if isinstance(exc, SignatureRefused):
        return status, {"type": STATE_SIGNATURE,
                        "title": "The state's signature is missing or does not hold"}
    if isinstance(exc, BoardNotFound):
        return status, board_not_found(exc)
    return status, {}


def board_not_found(missing: BoardNotFound) -> dict[str, str]:
    """What a board-not-found problem adds: the client answers it by sending the state
    with its board inline once more (with ``board`` too, to store it again)."""
    return {"type": BOARD_NOT_FOUND, "title": "The board named is not known here",
            "board": missing.board}

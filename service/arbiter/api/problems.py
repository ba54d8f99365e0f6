"""RFC 9457 problem documents, and the translation of pydantic errors and ``InvalidInput``
into JSON pointers (RFC 6901) within the request body."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.responses import Response

from arbiter.api.limits import BudgetExceeded, LimitExceeded
from arbiter.engine.boards import STATE_FORMS
from arbiter.engine.errors import InvalidInput, Problem, pointer
from arbiter.engine.outcome import Outcome

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


def _walk(loc: Iterable[int | str], document: Any) -> str:
    """Turn a pydantic ``loc`` into a JSON pointer into ``document``: drop the segments
    pydantic adds that are not in the JSON (a tagged union's tag, ``[key]`` of a map key,
    validator names), keeping the ones that are, or that name a missing field."""
    parts: list[int | str] = []
    node = document
    for seg in loc:
        if isinstance(seg, str) and (seg == "[key]" or seg.startswith("function-")):
            continue
        if isinstance(node, dict) and isinstance(seg, str) and seg not in node \
                and node.get("type") == seg:
            continue  # the tag of a discriminated union
        if seg in STATE_FORMS and parts and parts[-1] == "state":
            continue  # the form a state came in (whole, or with its board by reference)
        parts.append(seg)
        if isinstance(node, dict) and isinstance(seg, str):
            node = node.get(seg)
        elif isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
            node = node[seg]
        else:
            node = None
    return pointer(*parts)


def validation_problems(exc: ValidationError, document: Any, prefix: Sequence[str | int] = ()
                        ) -> list[Problem]:
    out = []
    for err in exc.errors(include_url=False, include_input=False):
        loc = (*prefix, *err["loc"])
        if err["type"] in ("json_invalid", "json_type"):
            out.append(Problem("", f"the body is not valid JSON: {err['msg']}"))
            continue
        out.append(Problem(_walk(loc, document), err["msg"]))
    return out


def parse_document(body: bytes) -> Any:
    """The body as JSON, for resolving pointers; None when it does not parse."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return None


def invalid_input(exc: InvalidInput) -> Response:
    return problem(422, "the request cannot be judged: see errors", exc.problems)


def invalid_request(exc: ValidationError, body: bytes) -> Response:
    problems = validation_problems(exc, parse_document(body))
    return problem(422, "the request does not match its schema: see errors", problems)


def limit_exceeded(exc: LimitExceeded) -> Response:
    """413 or 422 naming the limit (``limit``: the variable that sets it) and each part of
    the request over it."""
    return problem(exc.status, f"the request is over a limit ({exc.limit}: {exc.maximum}): "
                   "see errors", exc.problems, type=LIMIT_TYPE, title=LIMIT_TITLE, limit=exc.limit,
                   maximum=exc.maximum)


def budget_exceeded(exc: BudgetExceeded) -> Response:
    return problem(422, str(exc), [Problem("", str(exc))], type=LIMIT_TYPE, title=LIMIT_TITLE,
                   limit=exc.limit, maximum=exc.budget_ms)


def at_actions(outcomes: Iterator[Outcome]) -> Iterator[Outcome]:
    """A batch's outcomes, with a malformed action's problems pointing at ``/actions/<i>``
    (the engine judges one action at a time and names ``/action``)."""
    judged = 0
    try:
        for outcome in outcomes:
            yield outcome
            judged += 1
    except InvalidInput as exc:
        raise reroot(exc, ("actions", judged)) from None


def reroot(exc: InvalidInput, at: tuple[str | int, ...]) -> InvalidInput:
    """``/action/...`` pointers moved under ``at`` (``/actions/3/...``)."""
    prefix = "".join(f"/{part}" for part in at)
    return InvalidInput([
        Problem(prefix + p.pointer[len("/action"):], p.detail)
        if p.pointer == "/action" or p.pointer.startswith("/action/") else p
        for p in exc.problems])

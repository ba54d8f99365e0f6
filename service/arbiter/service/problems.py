"""What keeps a request from being answered, as typed problems the lifecycle raises and
every transport maps to its own wire form (REST: an RFC 9457 problem document; GraphQL:
an error with ``extensions``; the CLI: its report on standard error).

Each carries the JSON pointers (RFC 6901) of what is wrong within the request body as
REST has it (``/state/armies/0/hex``, ``/action/path/2``): GraphQL locates the same
pointers in its own arguments. An illegal action is never one of these: it is a verdict.
The engine's ``InvalidInput`` (a state or action that cannot be judged: a unit on no
hex, an id listed twice) is the other problem a request can meet; it keeps its own type.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from arbiter.engine.boards import STATE_FORMS
from arbiter.engine.errors import InvalidInput, Problem, pointer


class Unanswerable(Exception):
    """A request the service will not answer, with the pointer of each reason."""

    problems: list[Problem]


class Malformed(Unanswerable):
    """The request (or one part of it: ``subject``, e.g. "state", "action", "actions/3")
    does not match its schema."""

    def __init__(self, problems: Sequence[Problem], subject: str = "request") -> None:
        self.problems = list(problems)
        self.subject = subject
        super().__init__("; ".join(f"{p.pointer}: {p.detail}" for p in self.problems))

    @classmethod
    def of(cls, exc: ValidationError, value: Any, root: Sequence[str | int] = (),
           subject: str = "request") -> Malformed:
        """A pydantic error on ``value`` (the JSON of the part parsed, which sits at
        ``root`` in the body as REST has it), its locations read as pointers."""
        document = value
        for seg in reversed(root):
            document = [None] * seg + [document] if isinstance(seg, int) else {seg: document}
        return cls(validation_problems(exc, document, root), subject)


class LimitExceeded(Unanswerable):
    """A request over one of the configured limits: ``status`` 413 or 422, ``limit`` the
    variable that sets it, ``problems`` the JSON pointers of what is too large."""

    def __init__(self, status: int, limit: str, maximum: int, problems: list[Problem]) -> None:
        self.status = status
        self.limit = limit
        self.maximum = maximum
        self.problems = problems
        super().__init__("; ".join(f"{p.pointer}: {p.detail}" for p in problems))


class BudgetExceeded(Unanswerable):
    """The request's judging took longer than its compute budget."""

    limit = "ARBITER_COMPUTE_BUDGET_MS"

    def __init__(self, budget_ms: int) -> None:
        self.budget_ms = budget_ms
        super().__init__(f"judging this request takes longer than its compute budget of "
                         f"{budget_ms} ms ({self.limit})")
        self.problems = [Problem("", str(self))]


class SignatureRefused(Unanswerable):
    """A state this service will not judge: unsigned where signatures are required, signed
    with a key it does not hold, or not the state its signature was made for; or a draw an
    action reports in a signed game that draws with its seed."""

    def __init__(self, detail: str, pointer: str = "/state") -> None:
        self.pointer = pointer
        self.detail = detail
        self.problems = [Problem(pointer, detail)]
        super().__init__(detail)


class BoardNotFound(Unanswerable):
    """A state names a board no tier of this service holds: the client sends the state with
    its board inline once more (with its id too, to store it again)."""

    def __init__(self, ruleset: str, board: str, pointer: str = "/state/board") -> None:
        self.ruleset = ruleset
        self.board = board
        self.pointer = pointer
        super().__init__(f"no board {board} is known for {ruleset}: send the state with its "
                         "board inline (and its id, to store it) once more")
        self.problems = [Problem(pointer, str(self))] if pointer else []


class NotIssuer(Unanswerable):
    """A new game asked by a caller that may not start one: only a key of
    ``ARBITER_ISSUER_KEYS`` may, when it is set or when the service signs states
    (``service.issuing``)."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        self.problems = []
        super().__init__(detail)

# Problems listed in one answer at most, then how many more there are.
MOST_PROBLEMS = 100

# Everything a request can meet instead of an answer.
UNANSWERED = (Unanswerable, InvalidInput)


def status_and_detail(exc: Exception) -> tuple[int, str]:
    """The HTTP status of one of ``UNANSWERED`` and the sentence that says it (a problem
    document's ``detail``, the CLI's report)."""
    if isinstance(exc, Malformed):
        return 422, "the request does not match its schema: see errors"
    if isinstance(exc, InvalidInput):
        return 422, "the request cannot be judged: see errors"
    if isinstance(exc, LimitExceeded):
        return exc.status, f"the request is over a limit ({exc.limit}: {exc.maximum}): see errors"
    if isinstance(exc, SignatureRefused):
        return 422, exc.detail
    if isinstance(exc, NotIssuer):
        return 403, exc.detail
    return 422, str(exc)  # the budget, an unknown board


def answer_too_large(predicted: int, maximum: int, what: str = "the answer") -> LimitExceeded:
    return LimitExceeded(413, "ARBITER_MAX_ANSWER_BYTES", maximum, [Problem(
        "", f"{what} would take about {predicted} bytes of JSON; at most {maximum} "
        "(ARBITER_MAX_ANSWER_BYTES)")])


# The fields that tag the rulesets' discriminated unions (an action's ``type``, a
# phased_orders order's ``order``, an area_movement conflict's ``cause``): pydantic puts
# the tag's value in an error's location, where the JSON has no such field, so a pointer
# skips it - the same pointer GraphQL gives, whose one-of member is its path's own
# (tests/api/test_phased_orders_turns.py checks the list against the OpenAPI document).
TAG_KEYS = ("type", "order", "cause")


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
                and any(node.get(key) == seg for key in TAG_KEYS):
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
    """Each error of ``exc`` at its pointer into ``document`` (its locations placed under
    ``prefix``, where ``document`` starts), the first ``MOST_PROBLEMS`` of them: a body
    of 40,000 bad hexes would get a 3 MB answer listing each."""
    out = []
    count = exc.error_count()
    errors = exc.errors(include_url=False, include_input=False) if count <= MOST_PROBLEMS \
        else _first_errors(exc, MOST_PROBLEMS)
    for err in errors:
        loc = (*prefix, *err["loc"])
        if err["type"] in ("json_invalid", "json_type"):
            out.append(Problem("", f"the body is not valid JSON: {err['msg']}"))
            continue
        out.append(Problem(_walk(loc, document), err["msg"]))
    if count > MOST_PROBLEMS:
        out.append(Problem("", f"and {count - MOST_PROBLEMS} more problems, not listed "
                           f"(at most {MOST_PROBLEMS} are)"))
    return out


def _first_errors(exc: ValidationError, most: int) -> list[dict[str, Any]]:
    """The first ``most`` errors of ``exc`` as ``errors()`` gives them, read from its JSON
    one by one: ``errors()`` makes a dict of every one (100,000 problems in a 1 MB body:
    +63 MiB on top of pydantic's own; as JSON, without their inputs, a few bytes each)."""
    text = exc.json(include_url=False, include_context=False, include_input=False)
    decoder = json.JSONDecoder()
    out: list[dict[str, Any]] = []
    at = 1  # past the opening bracket
    while len(out) < most and at < len(text) - 1:
        while text[at] in ", \n":
            at += 1
        error, at = decoder.raw_decode(text, at)
        out.append(error)
    return out


def reroot(exc: InvalidInput, at: tuple[str | int, ...]) -> InvalidInput:
    """``/action/...`` pointers moved under ``at`` (``/actions/3/...``): the engine judges
    one action at a time and names ``/action``."""
    prefix = "".join(f"/{part}" for part in at)
    return InvalidInput([
        Problem(prefix + p.pointer[len("/action"):], p.detail)
        if p.pointer == "/action" or p.pointer.startswith("/action/") else p
        for p in exc.problems])

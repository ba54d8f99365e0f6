"""What kept a GraphQL question from being answered, as GraphQL errors: each typed problem
of the lifecycle (``service.problems``, and the engine's ``InvalidInput``) with an
``extensions.code`` and the same JSON pointers a REST 422 would give (``/state/...``,
``/action/...``), each beside the GraphQL path of the same input where the request holds
it (``paths.Where``).

- ``INVALID_INPUT``: a state, action, signature or arguments that do not match their
  schema, or that cannot be judged;
- ``LIMIT_EXCEEDED``: over a limit (``limit`` and ``maximum`` name it) or the budget;
- ``STATE_SIGNATURE``: a state whose signature is missing or does not hold;
- ``BOARD_NOT_FOUND``: a state naming a board the service does not hold (``board``):
  the client sends the board inline once more;
- ``FORBIDDEN``: a new game asked without an issuer key where one is needed (REST: 403).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

from graphql import GraphQLError

from arbiter.engine.errors import InvalidInput, Problem
from arbiter.graphql.paths import Where
from arbiter.service.problems import (
    UNANSWERED,
    BoardNotFound,
    BudgetExceeded,
    LimitExceeded,
    Malformed,
    NotIssuer,
    SignatureRefused,
)

T = TypeVar("T")


async def answered(call: Awaitable[T], where: Where | None = None) -> T:
    """``await call``, what keeps it from answering raised as its GraphQL error."""
    try:
        return await call
    except UNANSWERED as exc:
        raise graphql_error(exc, where) from None


def graphql_error(exc: Exception, where: Where | None = None) -> GraphQLError:
    """The GraphQL error of one of the lifecycle's problems."""
    if isinstance(exc, Malformed):
        return invalid(f"invalid {exc.subject}: see extensions.problems", exc.problems, where)
    if isinstance(exc, InvalidInput):
        return invalid("the request cannot be judged: see extensions.problems", exc.problems,
                       where)
    if isinstance(exc, BudgetExceeded):
        return GraphQLError(str(exc), extensions={
            "code": "LIMIT_EXCEEDED", "limit": exc.limit, "maximum": exc.budget_ms,
            "problems": [_located(p, None) for p in exc.problems]})
    if isinstance(exc, LimitExceeded):
        return GraphQLError(f"the request is over a limit ({exc.limit}: {exc.maximum}): see "
                            "extensions.problems", extensions={
                                "code": "LIMIT_EXCEEDED", "limit": exc.limit,
                                "maximum": exc.maximum,
                                "problems": [_located(p, where) for p in exc.problems]})
    if isinstance(exc, SignatureRefused):
        return GraphQLError(exc.detail, extensions={
            "code": "STATE_SIGNATURE", "problems": [_located(p, None) for p in exc.problems]})
    if isinstance(exc, NotIssuer):
        return GraphQLError(exc.detail, extensions={"code": "FORBIDDEN"})
    assert isinstance(exc, BoardNotFound), exc
    return GraphQLError(str(exc), extensions={
        "code": "BOARD_NOT_FOUND", "board": exc.board,
        "problems": [{"pointer": exc.pointer, "detail": str(exc)}]})


def invalid(message: str, problems: list[Problem], where: Where | None = None
            ) -> GraphQLError:
    """A refused input: each problem with its REST pointer and, where the request holds
    it, the GraphQL path of the same input."""
    return GraphQLError(message, extensions={
        "code": "INVALID_INPUT", "problems": [_located(p, where) for p in problems]})


def _located(problem: Problem, where: Where | None) -> dict[str, Any]:
    path = where.path(problem.pointer) if where is not None else None
    found: dict[str, Any] = {"pointer": problem.pointer, "detail": problem.detail}
    if path is not None:
        found["path"] = path
    return found

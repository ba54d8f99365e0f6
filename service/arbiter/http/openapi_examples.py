"""The examples of the OpenAPI document's answers, made by judging each ruleset's own
example bodies when the document is built (never written by hand, so they cannot drift
from what the service answers): the verdict on the example action, each query's answer
to its first example, and the problems a malformed body or an unknown board get."""

from __future__ import annotations

import logging
from typing import Any

import orjson
from pydantic import ValidationError

from arbiter.engine.canonical import canonical_json, sha256
from arbiter.engine.registry import AnyRuleset
from arbiter.http.problems import board_not_found, problem_body
from arbiter.service.contract import HiddenShown, View, contract, example_body
from arbiter.service.hidden import Hiding
from arbiter.service.problems import BoardNotFound, Malformed
from arbiter.service.returns import Returned
from arbiter.service.sealing import Sealer

# The seed of the new-game example (the service draws a game's seed; the example shows one).
EXAMPLE_SEED = 20240229
UNKNOWN_BOARD = "sha256:" + "0" * 64
LOG = logging.getLogger("arbiter")


def answer_example(ruleset: AnyRuleset, route: str) -> Any:
    """The answer to the route's example body, as the route writes it; None without one.
    The document is built as the service starts: a ruleset that cannot answer its own
    example is logged and shown without it, rather than keeping the service from serving
    (tests/api/test_openapi.py requires every example in the committed document)."""
    try:
        return _answer(ruleset, route)
    except Exception:
        LOG.exception("%s cannot answer its own %s example", ruleset.id, route)
        return None


def _answer(ruleset: AnyRuleset, route: str) -> Any:
    body = example_body(ruleset, route)
    if body is None:
        return None
    examples = ruleset.examples
    if route == "validate":
        outcome = ruleset.validate(examples.state, examples.action)
        return _json(Returned("state", lambda: None).answer(outcome).model_dump_json())
    if route == "validate-batch":
        return {"outcomes": [_answer(ruleset, "validate")]}
    if route == "new-game":
        first = ruleset.start(examples.state, EXAMPLE_SEED)
        return {"ruleset": ruleset.id, "ruleset_version": ruleset.version,
                "state": first.state, "state_hash": first.canonical.hash(), "signature": None}
    if route == "view":  # as a service without keys shows it: hidden fields withheld
        state = Hiding(Sealer()).view(ruleset, dict(examples.state))
        hidden = [HiddenShown(pointer=p, count=h["count"], sealed=False)
                  for p, h in Hiding.handles(ruleset, state)]
        return _json(View(ruleset=ruleset.id, state=state, hidden=hidden,
                          state_hash=sha256(canonical_json(state))).model_dump_json())
    query = ruleset.queries[route]
    return _json(query.run(query.request.model_validate(body)).model_dump_json())


def malformed_example(ruleset: AnyRuleset) -> dict[str, Any]:
    """The problem a validate body without its action gets."""
    body = orjson.dumps({"state": ruleset.examples.state})
    try:
        contract(ruleset).validate_request.model_validate_json(body, strict=True)
    except ValidationError as exc:
        problems = Malformed.of(exc, orjson.loads(body)).problems
        return problem_body(422, "the request does not match its schema: see errors", problems)
    raise AssertionError("a validate body without an action parsed")


def board_not_found_example(ruleset: AnyRuleset, pointer: str = "/state/board"
                            ) -> dict[str, Any]:
    """The problem a state naming a board the service does not hold gets (``pointer``:
    where the id was; empty for GET of a board)."""
    missing = BoardNotFound(ruleset.id, UNKNOWN_BOARD, pointer)
    return problem_body(422, str(missing), missing.problems, **board_not_found(missing))


def _json(text: str) -> Any:
    return orjson.loads(text)

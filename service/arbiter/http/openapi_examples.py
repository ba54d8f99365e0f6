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
from arbiter.service.contract import (
    HiddenShown,
    SealedOrders,
    View,
    contract,
    example_body,
)
from arbiter.service.envelopes import Envelopes
from arbiter.service.hidden import Hiding
from arbiter.service.problems import BoardNotFound, Malformed
from arbiter.service.returns import Returned
from arbiter.service.sealing import Sealer

# The seed of the new-game example (the service draws a game's seed; the example shows one).
EXAMPLE_SEED = 20240229
# The key the sealed-orders examples are sealed with (never a service's).
EXAMPLE_KEYS = (("example", b"an example key, not a service's: " + b"x" * 32),)
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
    body = example_body(ruleset, "seal-orders" if route == "unseal-orders" else route)
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
    if route in ("seal-orders", "unseal-orders"):
        return _sealed_orders_example(ruleset, body, route)
    if route == "view":  # as a service without keys shows it: hidden fields withheld
        state = Hiding(Sealer()).view(ruleset, dict(examples.state))
        hidden = [HiddenShown(pointer=p, count=h["count"], sealed=False)
                  for p, h in Hiding.handles(ruleset, state)]
        return _json(View(ruleset=ruleset.id, state=state, hidden=hidden,
                          state_hash=sha256(canonical_json(state))).model_dump_json())
    query = ruleset.queries[route]
    return _json(query.run(query.request.model_validate(body)).model_dump_json())


def _sealed_orders_example(ruleset: AnyRuleset, body: dict[str, Any], route: str) -> Any:
    """The example orders sealed, and opened, under an example key (the documents are
    built without the service's keys)."""
    envelopes = Envelopes(Sealer(EXAMPLE_KEYS, nonce=bytes))  # zeros: the same each build
    action = ruleset.parse_action(body["action"])
    state_hash = ruleset.position(body["state"]).canonical().hash()
    envelope, receipt = envelopes.seal(ruleset, state_hash, action.player, action)
    if route == "unseal-orders":
        opened = envelopes.unseal(ruleset, state_hash, envelope, receipt)
        unsealed = contract(ruleset).unsealed
        assert unsealed is not None  # a ruleset with sealed orders
        return _json(unsealed(player=envelope.player, action=opened).model_dump_json())
    return _json(SealedOrders(legal=True, envelope=envelope, receipt=receipt).model_dump_json())


def unseal_orders_body(ruleset: AnyRuleset) -> dict[str, Any] | None:
    """The unseal-orders request's example: the seal-orders example's envelope, with its
    receipt, under the example key."""
    sealing = example_body(ruleset, "seal-orders")
    if sealing is None:
        return None
    answer = _sealed_orders_example(ruleset, sealing, "seal-orders")
    return {"state": sealing["state"], "envelope": answer["envelope"],
            "receipt": answer["receipt"]}


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

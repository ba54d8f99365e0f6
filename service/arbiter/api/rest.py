"""The REST routes of DESIGN.md for every registered ruleset.

Each handler: find the ruleset (404 problem), then, in a worker thread under the request's
compute budget (``limits.Compute``): parse the body with the route's pydantic model
straight from bytes (422 problem with pointers), check the size limits (413/422 naming
the limit), check the state's signature (``signing``: a ``state-signature`` 422), call
the engine (``InvalidInput`` -> 422), sign the resulting states, serialise. Illegal
actions are 200 verdicts.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Scope

from arbiter.api.answers import Answerer
from arbiter.api.boards import (
    BoardMissing,
    BoardStore,
    Returned,
    board_not_found,
    parse_request,
    whole_state,
)
from arbiter.api.contract import contract
from arbiter.api.limits import INLINE_BYTES, BudgetExceeded, Compute, LimitExceeded, Limits
from arbiter.api.meta import BoardStored, RulesetList, RulesetSummary
from arbiter.api.metrics import Metrics
from arbiter.api.problems import (
    at_actions,
    budget_exceeded,
    invalid_input,
    invalid_request,
    limit_exceeded,
    problem,
)
from arbiter.api.signing import SignatureRefused, Signer, draw_seed, signature_refused
from arbiter.api.strict_json import document_of
from arbiter.engine.errors import InvalidInput
from arbiter.engine.registry import AnyRuleset, Registry
from arbiter.engine.ruleset import describe
from arbiter.settings import Settings

Handler = Callable[[Request], Awaitable[Response]]


def json_response(payload: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(payload), status_code=status, media_type="application/json")


# What keeps a request from being judged, each answered with its own problem document.
UNJUDGEABLE = (ValidationError, InvalidInput, LimitExceeded, BudgetExceeded,
               SignatureRefused)


def problem_for(exc: Exception, body: bytes) -> Response:
    """The problem document for one of ``UNJUDGEABLE``: 422 with the pointers of a
    malformed or inconsistent body or a refused signature, 413/422 over a limit or the
    budget."""
    if isinstance(exc, SignatureRefused):
        return signature_refused(exc)
    if isinstance(exc, ValidationError):
        return invalid_request(exc, body)
    if isinstance(exc, InvalidInput):
        return invalid_input(exc)
    if isinstance(exc, LimitExceeded):
        return limit_exceeded(exc)
    assert isinstance(exc, BudgetExceeded)
    return budget_exceeded(exc)


def raw_json(body: bytes | str, status: int = 200) -> Response:
    return Response(body, status_code=status, media_type="application/json")


def ruleset_list(registry: Registry) -> RulesetList:
    """What ``GET /v1/rulesets`` answers."""
    return RulesetList(rulesets=[RulesetSummary(
        id=r.id, version=r.version, title=r.title, action_types=list(r.action_types),
        queries=sorted(r.queries), rules=[rule.id for rule in r.rules],
        href=f"/v1/rulesets/{r.id}") for r in registry])


def description(ruleset: AnyRuleset) -> BaseModel:
    """What ``GET /v1/rulesets/{id}`` answers: the catalogue, with its schemas' links."""
    body = describe(ruleset)
    body["schemas"] = {"state": f"/v1/rulesets/{ruleset.id}/schema/state.json",
                       "action": f"/v1/rulesets/{ruleset.id}/schema/action.json"}
    return contract(ruleset).description.model_validate(body)


class RestApi:
    def __init__(self, registry: Registry, settings: Settings, metrics: Metrics,
                 answerer: Answerer, compute: Compute | None = None,
                 boards: BoardStore | None = None, signer: Signer | None = None) -> None:
        self.registry = registry
        self.boards = boards or BoardStore(0)
        self.signer = signer or Signer.from_settings(settings)
        self.settings = settings
        self.metrics = metrics
        self.answerer = answerer
        self.limits = Limits.from_settings(settings)
        self.compute = compute or Compute.from_settings(settings)

    def routes(self) -> list[Route]:
        # Starlette tries the routes in order: the ones asked most often come first.
        return [
            Route("/v1/rulesets/{ruleset}/validate", self.timed("validate", self.validate),
                  methods=["POST"]),
            Route("/v1/rulesets/{ruleset}/validate-batch",
                  self.timed("validate-batch", self.validate_batch), methods=["POST"]),
            Route("/v1/rulesets", self.timed("rulesets", self.list_rulesets), methods=["GET"]),
            Route("/v1/rulesets/{ruleset}", self.timed("ruleset", self.show_ruleset),
                  methods=["GET"]),
            Route("/v1/rulesets/{ruleset}/schema/{which}.json",
                  self.timed("schema", self.json_schema), methods=["GET"]),
            Route("/v1/rulesets/{ruleset}/boards/{board}", self.timed("board", self.board),
                  methods=["GET", "PUT"]),
            Route("/v1/rulesets/{ruleset}/new-game", self.timed("new-game", self.new_game),
                  methods=["POST"]),
            Route("/v1/rulesets/{ruleset}/{query}", self.timed("query", self.query),
                  methods=["POST"]),
            # Last: any other method or path under a ruleset. Starlette would answer 405
            # for a GET on a path that only a POST route matches, unknown query or not.
            Route("/v1/rulesets/{ruleset}/{rest:path}", self.unrouted,
                  methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
        ]

    def timed(self, name: str, handler: Handler) -> Handler:
        async def endpoint(request: Request) -> Response:
            started = time.perf_counter()
            response = await handler(request)
            ruleset = request.path_params.get("ruleset", "")
            route = request.path_params.get("query", name) if name == "query" else name
            known = self.registry.get(ruleset) is not None
            self.metrics.observe(route if known or name != "query" else "unknown",
                                 ruleset if known else ("" if not ruleset else "unknown"),
                                 response.status_code, time.perf_counter() - started)
            return response
        return endpoint

    def _ruleset(self, request: Request) -> AnyRuleset | Response:
        ruleset_id = request.path_params["ruleset"]
        ruleset = self.registry.get(ruleset_id)
        if ruleset is None:
            return problem(404, f"no ruleset {ruleset_id!r}; GET /v1/rulesets lists them")
        return ruleset

    async def unrouted(self, request: Request) -> Response:
        """404 for a ruleset, query or path that does not exist; 405 (with Allow) for a
        route that exists but not for this method."""
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        rest = request.path_params["rest"]
        posted = {"validate", "validate-batch", "new-game", *ruleset.queries}
        if rest in posted:
            return problem(405, f"{request.url.path} answers POST only",
                           headers={"allow": "POST"})
        if rest.startswith("schema/"):
            return problem(404, f"no schema {rest[len('schema/'):]!r}; there are "
                           "state.json and action.json")
        return problem(404, f"ruleset {ruleset.id} has no {rest!r}; it answers validate, "
                       f"validate-batch, new-game and "
                       f"{', '.join(sorted(ruleset.queries)) or 'no queries'}")

    async def list_rulesets(self, request: Request) -> Response:
        return raw_json(ruleset_list(self.registry).model_dump_json())

    async def show_ruleset(self, request: Request) -> Response:
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        return raw_json(description(ruleset).model_dump_json())

    async def json_schema(self, request: Request) -> Response:
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        which = request.path_params["which"]
        models = {"state": ruleset.state_model, "action": ruleset.action_model}
        if which not in models:
            return problem(404, f"no schema {which!r}; there are state.json and action.json")
        return Response(orjson.dumps(models[which].model_json_schema()),
                        media_type="application/schema+json")

    async def _judge(self, ruleset: AnyRuleset, scope: Scope, body: bytes,
                     model: type[BaseModel],
                     judge: Callable[[Any, str | None], bytes | str],
                     one_action: bool = False) -> Response:
        """Parse ``body`` strictly as ``model``, check it against the limits, fill in a
        board sent by reference, and ``judge`` it with the board's id (or None), all under
        the request's compute budget; what cannot be judged becomes its problem document.
        A board this replica has not kept is fetched from Redis, then the work is done
        once more; one no tier holds is a ``board-not-found`` problem. ``one_action``: the
        request judges a single action, on the event loop when its state is small."""
        def work() -> Response:
            try:
                req, state, board = self._parsed(ruleset, body, document_of(scope, body),
                                                 model)
                answer = judge(req.model_copy(update={"state": state}), board)
                self.limits.check_size(len(answer))
                return raw_json(answer)
            except UNJUDGEABLE as exc:
                return problem_for(exc, body)

        inline = one_action and self._small(ruleset, body, scope)
        return await self._with_boards(ruleset, work, body, inline)

    def _parsed(self, ruleset: AnyRuleset, body: bytes, document: Any,
                model: type[BaseModel]) -> tuple[Any, BaseModel, str | None]:
        """The request (``model``, strictly, within the limits), its whole state, and the
        id of the board it named (or None)."""
        parsed = parse_request(self.boards, ruleset, model, body, document)
        req: Any = parsed.request
        self.limits.check_request(req)
        state, board = whole_state(self.boards, ruleset, req.state,
                                   lambda: document["state"], parsed=parsed)
        if state is not req.state:  # its board was not in the request parsed (nor checked)
            self.limits.check_state(state)
        return req, state, board

    def _small(self, ruleset: AnyRuleset, body: bytes, scope: Scope) -> bool:
        """The body and the board it names (kept here) within ``INLINE_BYTES``."""
        if len(body) > INLINE_BYTES:
            return False
        if ruleset.boards is None or b'"board"' not in body:
            return True
        document = document_of(scope, body)
        state = document.get("state") if isinstance(document, dict) else None
        named = state.get("board") if isinstance(state, dict) else None
        if not isinstance(named, str):
            return True
        kept = self.boards.local(ruleset.id, named)
        return kept is not None and len(body) + kept.size <= INLINE_BYTES

    async def _with_boards(self, ruleset: AnyRuleset, work: Callable[[], Response],
                           body: bytes, inline: bool = False) -> Response:
        """``work`` under the compute budget, fetching once a board it lacks."""
        try:
            try:
                return await self.compute.run(work, inline)
            except BoardMissing as missing:
                if await self.boards.fetch(ruleset, missing.board) is None:
                    return board_not_found(missing)
                return await self.compute.run(work)
        except BoardMissing as missing:
            return board_not_found(missing)
        except UNJUDGEABLE as exc:
            return problem_for(exc, body)
        finally:
            self.boards.publish()

    async def validate(self, request: Request) -> Response:
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        body = await request.body()
        signer = self.signer

        def judge(req: Any, board: str | None) -> bytes | str:
            check = signer.check(ruleset, req.state, req.signature, [(req.action, "/action")])
            outcome = ruleset.validate(req.state, req.action, req.mode, board, check_state=check,
                                       seal=signer.seal(ruleset.id) if check else None)
            self.metrics.violations_found(ruleset.id, (v.code for v in outcome.violations))
            return Returned(req.returns, body).outcome(outcome).model_dump_json()

        return await self._judge(ruleset, request.scope, body,
                                 contract(ruleset).validate_request, judge, one_action=True)

    async def validate_batch(self, request: Request) -> Response:
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        body = await request.body()
        signer = self.signer

        def judge(req: Any, board: str | None) -> bytes | str:
            sequence = req.mode == "sequence"
            # Predicted before judging: the body's size stands for the state's.
            self.limits.check_outcomes(len(req.actions), len(body), req.returns == "state")
            check = signer.check(ruleset, req.state, req.signature,
                                 [(a, f"/actions/{i}") for i, a in enumerate(req.actions)])
            # Each resulting state is signed: in a sequence, every intermediate one.
            outcomes = ruleset.validate_batch(req.state, req.actions, sequence=sequence,
                                              mode=req.strictness, board=board,
                                              check_state=check,
                                              seal=signer.seal(ruleset.id) if check else None)
            # Each outcome written as it is judged, its state dropped once written, and
            # the answer measured as it grows: memory stays that of one or two states.
            parts, size, codes = [], 0, []
            for outcome in Returned(req.returns, body).outcomes(at_actions(outcomes),
                                                                sequence=sequence):
                codes += [v.code for v in outcome.violations]
                parts.append(part := outcome.model_dump_json().encode())
                size += len(part) + 1
                self.limits.check_size(size, f"the outcomes of the first {len(parts)} "
                                       f"actions of {len(req.actions)}")
            self.metrics.violations_found(ruleset.id, iter(codes))
            return b'{"outcomes":[' + b",".join(parts) + b"]}"

        return await self._judge(ruleset, request.scope, body,
                                 contract(ruleset).batch_request, judge)

    async def new_game(self, request: Request) -> Response:
        """A game's first state, from the setup the body sends (its board, its players,
        every piece), checked as every state is, with a seed the service draws when the
        state has one (digital mode), signed when the service signs states."""
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        body = await request.body()
        signer = self.signer
        seed = draw_seed()

        def start(req: Any, board: str | None) -> bytes | str:
            first, digest, signing = ruleset.start(req.state, seed, board)
            signature = signer.sign(ruleset.id, signing) if signer.on else None
            return orjson.dumps({"ruleset": ruleset.id, "ruleset_version": ruleset.version,
                                 "state": first, "state_hash": digest,
                                 "signature": signature.model_dump() if signature else None})

        return await self._judge(ruleset, request.scope, body,
                                 contract(ruleset).new_game_request, start)

    async def query(self, request: Request) -> Response:
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        name = request.path_params["query"]
        query = ruleset.queries.get(name)
        if query is None:
            return problem(404, f"ruleset {ruleset.id} does not answer {name!r}; it answers "
                           f"{', '.join(sorted(ruleset.queries)) or 'no queries'}")
        body = await request.body()
        model = contract(ruleset).query_requests[name]
        scope = request.scope

        def whole(raw: bytes) -> Any:
            req, state, _ = self._parsed(ruleset, raw, document_of(scope, raw), model)
            # A query answers facts, never a state: its state is checked (when signed, or
            # when signatures are required) and nothing is signed.
            self.signer.check_now(ruleset, state, getattr(req, "signature", None))
            return req.model_copy(update={"state": state})

        try:
            try:
                # Parsed, checked against the limits and judged under the budget on a miss.
                answer = await self.answerer.answer_body(ruleset, query, body, whole)
            except BoardMissing as missing:
                if await self.boards.fetch(ruleset, missing.board) is None:
                    return board_not_found(missing)
                answer = await self.answerer.answer_body(ruleset, query, body, whole)
        except BoardMissing as missing:
            return board_not_found(missing)
        except UNJUDGEABLE as exc:
            return problem_for(exc, body)
        finally:
            self.boards.publish()
        return raw_json(answer)

    async def board(self, request: Request) -> Response:
        """``PUT``: store a board under its id (the id must be its content's); ``GET``:
        whether this service holds it (200) or not (a ``board-not-found`` problem)."""
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        shape = ruleset.boards
        board = request.path_params["board"]
        if shape is None:
            return problem(404, f"ruleset {ruleset.id} has no board to send by reference")
        if request.method == "GET":
            if await self.boards.fetch(ruleset, board) is None:
                return board_not_found(BoardMissing(ruleset.id, board, ""))
            return raw_json(BoardStored(board=board, fields=list(shape.fields))
                            .model_dump_json())
        body = await request.body()

        def work() -> Response:
            try:
                model = shape.board_model.model_validate_json(body, strict=True)
                self.limits.check_state(model, "")
                sent = orjson.loads(body)
                self.boards.store(ruleset, board, sent, model, "")
                return raw_json(BoardStored(board=board, fields=list(shape.fields))
                                .model_dump_json(), 201)
            except UNJUDGEABLE as exc:
                return problem_for(exc, body)

        return await self._with_boards(ruleset, work, body)

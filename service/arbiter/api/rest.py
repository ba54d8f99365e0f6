"""The REST routes of DESIGN.md for every registered ruleset.

Each handler: find the ruleset (404 problem), then, in a worker thread under the request's
compute budget (``limits.Compute``): parse the body with the route's pydantic model
straight from bytes (422 problem with pointers), check the size limits (413/422 naming
the limit), call the engine (``InvalidInput`` -> 422), serialise. Illegal actions are 200
verdicts.
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

from arbiter.api.answers import Answerer
from arbiter.api.contract import contract
from arbiter.api.limits import BudgetExceeded, Busy, Compute, LimitExceeded, Limits
from arbiter.api.metrics import Metrics
from arbiter.api.problems import (
    at_actions,
    budget_exceeded,
    busy,
    invalid_input,
    invalid_request,
    limit_exceeded,
    problem,
)
from arbiter.engine.errors import InvalidInput
from arbiter.engine.registry import AnyRuleset, Registry
from arbiter.engine.ruleset import describe
from arbiter.settings import Settings

Handler = Callable[[Request], Awaitable[Response]]


def json_response(payload: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(payload), status_code=status, media_type="application/json")


# What keeps a request from being judged, each answered with its own problem document.
UNJUDGEABLE = (ValidationError, InvalidInput, LimitExceeded, BudgetExceeded, Busy)


def problem_for(exc: Exception, body: bytes) -> Response:
    """The problem document for one of ``UNJUDGEABLE``: 422 with the pointers of a
    malformed or inconsistent body, 413/422 over a limit or the budget, 503 when busy."""
    if isinstance(exc, ValidationError):
        return invalid_request(exc, body)
    if isinstance(exc, InvalidInput):
        return invalid_input(exc)
    if isinstance(exc, LimitExceeded):
        return limit_exceeded(exc)
    if isinstance(exc, BudgetExceeded):
        return budget_exceeded(exc)
    assert isinstance(exc, Busy)
    return busy(exc)


def raw_json(body: bytes | str, status: int = 200) -> Response:
    return Response(body, status_code=status, media_type="application/json")


class RestApi:
    def __init__(self, registry: Registry, settings: Settings, metrics: Metrics,
                 answerer: Answerer, compute: Compute | None = None) -> None:
        self.registry = registry
        self.settings = settings
        self.metrics = metrics
        self.answerer = answerer
        self.limits = Limits.from_settings(settings)
        self.compute = compute or Compute.from_settings(settings)

    def routes(self) -> list[Route]:
        return [
            Route("/v1/rulesets", self.timed("rulesets", self.list_rulesets), methods=["GET"]),
            Route("/v1/rulesets/{ruleset}", self.timed("ruleset", self.show_ruleset),
                  methods=["GET"]),
            Route("/v1/rulesets/{ruleset}/schema/{which}.json",
                  self.timed("schema", self.json_schema), methods=["GET"]),
            Route("/v1/rulesets/{ruleset}/validate", self.timed("validate", self.validate),
                  methods=["POST"]),
            Route("/v1/rulesets/{ruleset}/validate-batch",
                  self.timed("validate-batch", self.validate_batch), methods=["POST"]),
            Route("/v1/rulesets/{ruleset}/{query}", self.timed("query", self.query),
                  methods=["POST"]),
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

    async def list_rulesets(self, request: Request) -> Response:
        return json_response({"rulesets": [
            {"id": r.id, "version": r.version, "title": r.title,
             "action_types": list(r.action_types), "queries": sorted(r.queries),
             "rules": [rule.id for rule in r.rules],
             "href": f"/v1/rulesets/{r.id}"}
            for r in self.registry]})

    async def show_ruleset(self, request: Request) -> Response:
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        body = describe(ruleset)
        body["schemas"] = {"state": f"/v1/rulesets/{ruleset.id}/schema/state.json",
                           "action": f"/v1/rulesets/{ruleset.id}/schema/action.json"}
        return json_response(body)

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

    async def _judge(self, body: bytes, model: type[BaseModel],
                     judge: Callable[[Any], bytes | str]) -> Response:
        """Parse ``body`` strictly as ``model``, check it against the limits and ``judge``
        it, all under the request's compute budget; what cannot be judged becomes its
        problem document."""
        def work() -> Response:
            try:
                req: Any = model.model_validate_json(body, strict=True)
                self.limits.check_request(req)
                return raw_json(judge(req))
            except UNJUDGEABLE as exc:
                return problem_for(exc, body)

        try:
            return await self.compute.run(work)
        except UNJUDGEABLE as exc:
            return problem_for(exc, body)

    async def validate(self, request: Request) -> Response:
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        body = await request.body()

        def judge(req: Any) -> bytes | str:
            return ruleset.validate(req.state, req.action, req.mode).model_dump_json()

        return await self._judge(body, contract(ruleset).validate_request, judge)

    async def validate_batch(self, request: Request) -> Response:
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        body = await request.body()

        def judge(req: Any) -> bytes | str:
            outcomes = ruleset.validate_batch(req.state, req.actions,
                                              sequence=req.mode == "sequence", mode=req.strictness)
            parts = b",".join(o.model_dump_json().encode() for o in at_actions(outcomes))
            return b'{"outcomes":[' + parts + b"]}"

        return await self._judge(body, contract(ruleset).batch_request, judge)

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
        try:
            # Parsed, checked against the limits and judged under the budget on a miss.
            answer = await self.answerer.answer_body(ruleset, query, body)
        except UNJUDGEABLE as exc:
            return problem_for(exc, body)
        return raw_json(answer)

"""The REST routes of every registered ruleset: each finds its ruleset (a 404 problem for
one that does not exist), hands the body to the service's lifecycle (``service.lifecycle``)
and writes what it answers, or the problem document of what kept it from answering
(``problems.problem_for``). Illegal actions are 200 verdicts."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arbiter.engine.registry import AnyRuleset, Registry
from arbiter.http.compression import etag_of, not_modified
from arbiter.http.problems import problem, problem_for
from arbiter.http.scope import body_of, document_of, is_issuer
from arbiter.http.strict_json import NO_BOUNDS, read_strictly
from arbiter.service.catalogue import ruleset_list
from arbiter.service.contract import description
from arbiter.service.json_bounds import JsonBounds
from arbiter.service.lifecycle import Service
from arbiter.service.problems import UNANSWERED, LimitExceeded
from arbiter.telemetry.metrics import Metrics

Handler = Callable[[Request], Awaitable[Response]]
# A whole request's answer: the ruleset, the body and its JSON (as the strict reading
# parsed it, or None) in, the answer's JSON out.
Answering = Callable[[AnyRuleset, bytes, Any], Awaitable[bytes]]


SVG = "image/svg+xml"
# A picture's URL names everything it shows (its board by its content's hash), so a cache
# may keep it for a day and never revalidate it within that time; a new version of the
# ruleset changes its ETag.
PICTURE_CACHE = "public, max-age=86400, immutable"
# The members of a render body a picture's URL may carry, each as JSON.
PICTURE_PARAMETERS = ("state", "overlay", "signature")


def wants_svg(request: Request) -> bool:
    """Whether the request's Accept prefers ``image/svg+xml`` to JSON (an ``<img>``'s
    does: ``image/svg+xml,image/*,*/*;q=0.8``)."""
    weights: dict[str, float] = {}
    for item in request.headers.get("accept", "").split(",")[:32]:
        media, _, params = item.partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights.setdefault(media.strip().lower(), q)
    svg = weights.get(SVG, weights.get("image/*", 0.0))
    json = weights.get("application/json", weights.get("application/*",
                                                        weights.get("*/*", 0.0)))
    return svg > 0 and svg > json


def query_body(request: Request, bounds: JsonBounds) -> tuple[bytes, Response | None]:
    """The render body a picture's query string carries (its members as JSON), checked
    as strictly as a POST body, or the problem refusing it."""
    params = request.query_params
    unknown = sorted(set(params) - set(PICTURE_PARAMETERS))
    if unknown:
        return b"", problem(400, f"a picture's URL takes {', '.join(PICTURE_PARAMETERS)} "
                            f"(each as JSON), not {', '.join(unknown)}")
    members: list[bytes] = []
    for name in PICTURE_PARAMETERS:
        if name in params:
            members.append(orjson.dumps(name) + b":" + params[name].encode())
    body = b"{" + b",".join(members) + b"}"
    try:
        document, problems = read_strictly(body, bounds)
    except LimitExceeded as exc:
        return b"", problem_for(exc)
    if problems:
        return b"", problem(422, "the query string is not strict JSON: see errors", problems)
    if document is None:
        try:
            orjson.loads(body)
        except orjson.JSONDecodeError:
            return b"", problem(400, "each of state, overlay and signature in a picture's "
                                "URL must be JSON (URL-encoded)")
    return body, None


def json_response(payload: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(payload), status_code=status, media_type="application/json")


def raw_json(body: bytes | str, status: int = 200) -> Response:
    return Response(body, status_code=status, media_type="application/json")


class RestApi:
    def __init__(self, registry: Registry, service: Service, metrics: Metrics,
                 bounds: JsonBounds = NO_BOUNDS) -> None:
        self.registry = registry
        self.service = service
        self.metrics = metrics
        self.bounds = bounds

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
            Route("/v1/rulesets/{ruleset}/view", self.timed("view", self.view),
                  methods=["POST"]),
            Route("/v1/rulesets/{ruleset}/seal-orders",
                  self.timed("seal-orders", self.sealed(self.service.seal_orders)),
                  methods=["POST"]),
            Route("/v1/rulesets/{ruleset}/unseal-orders",
                  self.timed("unseal-orders", self.sealed(self.service.unseal_orders)),
                  methods=["POST"]),
            Route("/v1/rulesets/{ruleset}/render", self.timed("render", self.picture),
                  methods=["GET"]),
            Route("/v1/rulesets/{ruleset}/{query}", self.timed("query", self.query),
                  methods=["POST"]),
            # Last: any other method or path under a ruleset. Starlette would answer 405
            # for a GET on a path that only a POST route matches, unknown query or not.
            Route("/v1/rulesets/{ruleset}/{rest:path}", self.unrouted,
                  methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
        ]

    def timed(self, name: str, handler: Handler) -> Handler:
        """``handler`` counted in the metrics by route and ruleset."""
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

    async def validate(self, request: Request) -> Response:
        return await self._answer(request, self.service.validate)

    async def validate_batch(self, request: Request) -> Response:
        return await self._answer(request, self.service.validate_batch)

    async def new_game(self, request: Request) -> Response:
        issuer = is_issuer(request.scope)
        return await self._answer(request, lambda r, body, document: self.service.new_game(
            r, body, document, issuer=issuer))

    async def view(self, request: Request) -> Response:
        return await self._answer(request, self.service.view)

    def sealed(self, answering: Answering) -> Handler:
        """A route of sealed orders: for a ruleset whose players give orders in secret."""
        async def endpoint(request: Request) -> Response:
            ruleset = self._ruleset(request)
            if isinstance(ruleset, Response):
                return ruleset
            if not ruleset.information.private:
                return problem(404, f"ruleset {ruleset.id} has no sealed orders: its players "
                               "give nothing in secret")
            return await self._answer(request, answering)
        return endpoint

    async def query(self, request: Request) -> Response:
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        name = request.path_params["query"]
        query = ruleset.queries.get(name)
        if query is None:
            return problem(404, f"ruleset {ruleset.id} does not answer {name!r}; it answers "
                           f"{', '.join(sorted(ruleset.queries)) or 'no queries'}")
        if name == "render" and wants_svg(request):
            return await self._answer(request, lambda r, body, document: self.service.query(
                r, query, body, document), svg=True)
        return await self._answer(request, lambda r, body, document: self.service.query(
            r, query, body, document))

    async def picture(self, request: Request) -> Response:
        """``GET /v1/rulesets/{id}/render?state=...&overlay=...``: the picture as SVG, for
        an ``<img src>``: the body of ``POST .../render`` in the query string, each member
        as JSON. The answer depends on nothing else (its board is named by its content's
        hash), so it is cached as long as this version of the ruleset serves it."""
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        query = ruleset.queries.get("render")
        if query is None:
            return problem(404, f"ruleset {ruleset.id} has no picture to render")
        body, refused = query_body(request, self.bounds)
        if refused is not None:
            return refused
        etag = etag_of(f"{ruleset.id}/{ruleset.version}?".encode() + body)
        headers = {"etag": etag, "cache-control": PICTURE_CACHE}
        if not_modified(request, etag):
            return Response(status_code=304, headers=headers)
        try:
            answer = await self.service.query(ruleset, query, body, orjson.loads(body))
        except UNANSWERED as exc:
            return problem_for(exc)
        return Response(orjson.loads(answer)["svg"], media_type=SVG, headers=headers)

    async def _answer(self, request: Request, answering: Answering,
                      svg: bool = False) -> Response:
        """The body answered by the lifecycle, as JSON or a problem document (``svg``: a
        picture's SVG alone, as ``image/svg+xml``)."""
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        body = body_of(request.scope)
        if body is None:
            body = await request.body()
        try:
            answer = await answering(ruleset, body, document_of(request.scope))
        except UNANSWERED as exc:
            return problem_for(exc)
        if svg:
            return Response(orjson.loads(answer)["svg"], media_type=SVG)
        return raw_json(answer)

    async def board(self, request: Request) -> Response:
        """``PUT``: store a board under its id (the id must be its content's); ``GET``:
        whether this service holds it (200) or not (a ``board-not-found`` problem)."""
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        if ruleset.boards is None:
            return problem(404, f"ruleset {ruleset.id} has no board to send by reference")
        board = request.path_params["board"]
        try:
            if request.method == "GET":
                stored = await self.service.get_board(ruleset, board)
                return raw_json(stored.model_dump_json())
            stored = await self.service.put_board(ruleset, board, await request.body())
            return raw_json(stored.model_dump_json(), 201)
        except UNANSWERED as exc:
            return problem_for(exc)

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

    async def unrouted(self, request: Request) -> Response:
        """404 for a ruleset, query or path that does not exist; 405 (with Allow) for a
        route that exists but not for this method."""
        ruleset = self._ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        rest = request.path_params["rest"]
        posted = {"validate", "validate-batch", "new-game", "view", *ruleset.queries}
        if ruleset.information.private:
            posted |= {"seal-orders", "unseal-orders"}
        if rest in posted:
            return problem(405, f"{request.url.path} answers POST only",
                           headers={"allow": "POST"})
        if rest.startswith("schema/") and rest[len("schema/"):] in ("state.json",
                                                                     "action.json"):
            return problem(405, f"{request.url.path} answers GET only",
                           headers={"allow": "GET"})
        board = rest.removeprefix("boards/")
        if ruleset.boards is not None and board != rest and board and "/" not in board:
            return problem(405, f"{request.url.path} answers GET and PUT only",
                           headers={"allow": "GET, PUT"})
        if rest.startswith("schema/"):
            return problem(404, f"no schema {rest[len('schema/'):]!r}; there are "
                           "state.json and action.json")
        return problem(404, f"ruleset {ruleset.id} has no {rest!r}; it answers validate, "
                       f"validate-batch, new-game, view and "
                       f"{', '.join(sorted(ruleset.queries)) or 'no queries'}")

    def _ruleset(self, request: Request) -> AnyRuleset | Response:
        ruleset_id = request.path_params["ruleset"]
        ruleset = self.registry.get(ruleset_id)
        if ruleset is None:
            return problem(404, f"no ruleset {ruleset_id!r}; GET /v1/rulesets lists them")
        return ruleset

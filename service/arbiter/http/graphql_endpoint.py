"""The GraphQL endpoint over HTTP: strawberry's ASGI view with the body parsed by orjson
(whose depth limit and refusal of NaN, Infinity and unpaired surrogates make a hostile
body a 400, never a RecursionError) and transport errors answered as RFC 9457 problem
documents like every other 4xx of the service. ``GET /graphql`` from a browser is the
GraphiQL page with the service's own copy of GraphiQL (``pages.graphiql_page``), never a
CDN's. Each operation runs on GraphQL's own loop (``loop``), off the service's; its
judging in the worker's compute threads, under a slot it holds from its first judging
until its answer is written (``service.slots``). The schema is the process's for the
rulesets served (``graphql.schema``); this app's service and limits reach its resolvers
through each request's context (``graphql.served``)."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

import orjson
from cross_web import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.types import Message, Receive, Scope, Send
from strawberry.asgi import GraphQL

from arbiter.engine.errors import Problem
from arbiter.graphql.loop import graphql_loop
from arbiter.graphql.served import SERVED, Served
from arbiter.http.pages import graphiql_page
from arbiter.http.problems import problem
from arbiter.http.scope import body_of, document_of
from arbiter.service.loops import run_on
from arbiter.service.slots import HELD, Held, Slots

# The body of the operation under way and its document as the strict JSON reading parsed
# it (``scope.DOCUMENT``), so that strawberry's ``decode_json`` does not parse it again.
_READ: ContextVar[tuple[bytes, Any] | None] = ContextVar("arbiter_graphql_read", default=None)


class GraphQLEndpoint(GraphQL[dict[str, Any], None]):
    def __init__(self, schema: Any, served: Served, **options: Any) -> None:
        super().__init__(schema, **options)
        self.served = served
        self.slots: Slots = served.service.compute.slots

    async def get_context(self, request: Any, response: Any) -> dict[str, Any]:
        """strawberry's context (the request, the response) and this app's ``Served``."""
        return {"request": request, "response": response, SERVED: self.served}

    async def render_graphql_ide(self, request: Any) -> HTMLResponse:
        return HTMLResponse(graphiql_page())

    def decode_json(self, data: str | bytes) -> object:
        read = _READ.get()
        if read is not None and read[0] == data:
            value = read[1]  # (a dict of its own: each request's body is read anew)
        else:
            try:
                value = orjson.loads(data)
            except orjson.JSONDecodeError as exc:
                raise HTTPException(400, f"the body is not valid JSON: {exc}") from None
        if not isinstance(value, dict):
            raise HTTPException(400, "the body must be a JSON object with a `query` string "
                                "(batched operations are not supported)")
        return value

    def encode_json(self, data: object) -> str | bytes:
        """The answer written by orjson (strawberry's default is the standard library's,
        several times slower on a large answer); anything orjson cannot write (an
        integer past 64 bits) by the standard library, as before."""
        try:
            return orjson.dumps(data)
        except orjson.JSONEncodeError:
            return super().encode_json(data)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        # The body as the guard read it, then the operation runs on GraphQL's own loop,
        # off the service's (graphql.loop: a large answer's fields are completed there
        # while the probes answer here).
        body = body_of(scope)
        if body is None:
            body = await Request(scope=scope, receive=receive).body()

        async def replay() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

        document = document_of(scope)
        if document is not None:
            _READ.set((body, document))  # (this request's context, copied by run_on)
        held = Held(self.slots)
        HELD.set(held)  # (likewise)
        try:
            response: Any = await run_on(graphql_loop(),
                                         self.run(Request(scope=scope, receive=replay)))
        except HTTPException as exc:
            errors = [Problem("", exc.reason)] if exc.status_code == 400 else []
            response = problem(exc.status_code, exc.reason, errors)
        finally:
            held.give_up()  # the answer is written: its judging's memory is the answer's
        await response(scope, receive, send)

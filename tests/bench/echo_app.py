"""The floors of the stack: a bare Starlette app that echoes a POST body as it came
(``/echo``) or parsed and written again with orjson (``/echo-json``: what any JSON service
must at least do with the body), served with the same uvicorn settings as Arbiter."""

from __future__ import annotations

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


async def echo(request: Request) -> Response:
    return Response(await request.body(), media_type="application/json")


async def echo_json(request: Request) -> Response:
    return Response(orjson.dumps(orjson.loads(await request.body())),
                    media_type="application/json")


def create_app() -> Starlette:
    return Starlette(routes=[Route("/echo", echo, methods=["POST"]),
                             Route("/echo-json", echo_json, methods=["POST"])])

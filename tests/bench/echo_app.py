"""The floor of the stack: a bare Starlette app that echoes a POST body as JSON, served
with the same uvicorn settings as Arbiter."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


async def echo(request: Request) -> Response:
    return Response(await request.body(), media_type="application/json")


def create_app() -> Starlette:
    return Starlette(routes=[Route("/echo", echo, methods=["POST"])])

"""``ArbiterClient`` and ``AsyncArbiterClient``: one attribute per ruleset
(``client.hex_maneuver.validate(state, action)``), the service's own operations, and the
settings every request shares (base URL, API key, timeout, retries, boards by reference)."""

from __future__ import annotations

from typing import Any

from arbiter_client import models
from arbiter_client._generated import RULESETS, AsyncRulesets, Rulesets
from arbiter_client.boards import BoardBook
from arbiter_client.transport import AsyncTransport, Retry, Transport


class ArbiterClient(Rulesets):
    """``api_key`` goes as a bearer token, or in the header ``key_header`` names
    (``"x-api-key"``). ``boards_by_reference``: send each board once, then name it by
    its id (the client sends it again when the service has dropped it). ``compress``:
    send bodies of 1 KiB or more gzipped (answers come compressed whatever it says)."""

    def __init__(self, base_url: str, *, api_key: str | None = None,
                 key_header: str = "authorization", timeout: float = 30.0,
                 retry: Retry = Retry(), boards_by_reference: bool = False,
                 transport: Transport | None = None, compress: bool = True) -> None:
        self.transport = transport or Transport(base_url, api_key=api_key,
                                                key_header=key_header, timeout=timeout,
                                                retry=retry, compress=compress)
        self.boards = BoardBook()
        for rid, (sync, _) in RULESETS.items():
            setattr(self, rid, sync(self.transport, self.boards, boards_by_reference))

    def list_rulesets(self) -> models.RulesetList:
        return models.RulesetList.model_validate_json(
            self.transport.request("GET", "/v1/rulesets").content)

    def healthz(self) -> dict[str, Any]:
        return dict(self.transport.request("GET", "/healthz").json())

    def readyz(self) -> dict[str, Any]:
        return dict(self.transport.request("GET", "/readyz").json())

    def graphql(self, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """A GraphQL request's result (``data`` and ``errors``)."""
        import json

        body = json.dumps({"query": query, "variables": variables}).encode()
        return dict(self.transport.request("POST", "/graphql", body).json())

    def close(self) -> None:
        self.transport.close()

    def __enter__(self) -> ArbiterClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncArbiterClient(AsyncRulesets):
    """The same as ``ArbiterClient``, every method a coroutine."""

    def __init__(self, base_url: str, *, api_key: str | None = None,
                 key_header: str = "authorization", timeout: float = 30.0,
                 retry: Retry = Retry(), boards_by_reference: bool = False,
                 transport: AsyncTransport | None = None, compress: bool = True) -> None:
        self.transport = transport or AsyncTransport(base_url, api_key=api_key,
                                                     key_header=key_header, timeout=timeout,
                                                     retry=retry, compress=compress)
        self.boards = BoardBook()
        for rid, (_, asynchronous) in RULESETS.items():
            setattr(self, rid, asynchronous(self.transport, self.boards, boards_by_reference))

    async def list_rulesets(self) -> models.RulesetList:
        response = await self.transport.request("GET", "/v1/rulesets")
        return models.RulesetList.model_validate_json(response.content)

    async def healthz(self) -> dict[str, Any]:
        return dict((await self.transport.request("GET", "/healthz")).json())

    async def graphql(self, query: str,
                      variables: dict[str, Any] | None = None) -> dict[str, Any]:
        import json

        body = json.dumps({"query": query, "variables": variables}).encode()
        return dict((await self.transport.request("POST", "/graphql", body)).json())

    async def close(self) -> None:
        await self.transport.close()

    async def __aenter__(self) -> AsyncArbiterClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

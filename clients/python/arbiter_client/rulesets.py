"""What every ruleset's class does (the classes themselves are generated, one method per
operation, in ``_generated.py``): turn arguments into a JSON body, send it, parse the
answer into its model, and handle boards by reference (``boards``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from arbiter_client.boards import BoardBook, board_id
from arbiter_client.errors import BOARD_NOT_FOUND, ArbiterProblem
from arbiter_client.models import BoardStored
from arbiter_client.transport import AsyncTransport, Transport

# A body part: a generated model or its JSON as a mapping.
Body = BaseModel | Mapping[str, Any]
StateArg = Body
M = TypeVar("M", bound=BaseModel)


def plain(value: Any) -> Any:
    """A model (or anything holding models) as JSON-ready data, as sent on the wire."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def _encode(body: Mapping[str, Any]) -> bytes:
    # Keys the caller left at None (a signature not given) are not sent.
    return json.dumps({k: v for k, v in body.items() if v is not None},
                      ensure_ascii=False, allow_nan=False).encode()


def _example(doc: dict[str, Any], path: str) -> dict[str, Any]:
    media = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    if "example" in media:
        return dict(media["example"])
    return dict(next(iter(media["examples"].values()))["value"])


class _Base:
    ruleset: str = ""
    board_fields: tuple[str, ...] = ()

    def __init__(self, book: BoardBook, boards_by_reference: bool) -> None:
        self.book = book
        self.boards_by_reference = boards_by_reference

    @property
    def path(self) -> str:
        return f"/v1/rulesets/{self.ruleset}"

    def by_reference(self, state: StateArg) -> dict[str, Any]:
        """``state`` with ``"board": "sha256:..."`` in place of its board (remembered, so
        the client can send it again if the service has dropped it)."""
        return self.book.by_reference(self.ruleset, self.board_fields, plain(state))

    def _body(self, body: Mapping[str, Any]) -> dict[str, Any]:
        sent = plain(body)
        state = sent.get("state")
        if self.boards_by_reference and isinstance(state, dict):
            sent["state"] = self.book.outgoing(self.ruleset, self.board_fields, state)
        return sent

    def _inlined(self, problem: ArbiterProblem, body: dict[str, Any]) -> dict[str, Any] | None:
        """The body once more with its state's board inline, when the service answered
        that it does not hold the board and this client knows it."""
        state = body.get("state")
        if problem.type != BOARD_NOT_FOUND or not isinstance(state, dict):
            return None
        inline = self.book.inline(self.ruleset, state)
        return None if inline is None else {**body, "state": inline}

    def _board_body(self, board: Body) -> tuple[str, bytes]:
        sent = plain(board)
        ident = self.book.remember(self.ruleset, sent)
        return ident, _encode(sent)


class RulesetApi(_Base):
    def __init__(self, transport: Transport, book: BoardBook,
                 boards_by_reference: bool = False) -> None:
        super().__init__(book, boards_by_reference)
        self.transport = transport

    def _get(self, model: type[M], tail: str) -> M:
        return model.model_validate_json(self.transport.request("GET", self.path + tail).content)

    def _post(self, route: str, body: Mapping[str, Any], model: type[M]) -> M:
        sent = self._body(body)
        try:
            response = self.transport.request("POST", f"{self.path}/{route}", _encode(sent))
        except ArbiterProblem as problem:
            again = self._inlined(problem, sent)
            if again is None:
                raise
            response = self.transport.request("POST", f"{self.path}/{route}", _encode(again))
        return model.model_validate_json(response.content)

    def _put_board(self, board: Body) -> BoardStored:
        ident, data = self._board_body(board)
        response = self.transport.request("PUT", f"{self.path}/boards/{ident}", data)
        self.book.sent(self.ruleset, ident)
        return BoardStored.model_validate_json(response.content)

    def example(self, route: str) -> dict[str, Any]:
        """The example body the service documents for ``route`` (its /openapi.json): a
        state and an action, or a query's arguments, to start from."""
        doc = self.transport.request("GET", "/openapi.json").json()
        return _example(doc, f"{self.path}/{route}")

    def state_schema(self) -> dict[str, Any]:
        return dict(self.transport.request("GET", f"{self.path}/schema/state.json").json())

    def action_schema(self) -> dict[str, Any]:
        return dict(self.transport.request("GET", f"{self.path}/schema/action.json").json())


class AsyncRulesetApi(_Base):
    def __init__(self, transport: AsyncTransport, book: BoardBook,
                 boards_by_reference: bool = False) -> None:
        super().__init__(book, boards_by_reference)
        self.transport = transport

    async def _get(self, model: type[M], tail: str) -> M:
        response = await self.transport.request("GET", self.path + tail)
        return model.model_validate_json(response.content)

    async def _post(self, route: str, body: Mapping[str, Any], model: type[M]) -> M:
        sent = self._body(body)
        path = f"{self.path}/{route}"
        try:
            response = await self.transport.request("POST", path, _encode(sent))
        except ArbiterProblem as problem:
            again = self._inlined(problem, sent)
            if again is None:
                raise
            response = await self.transport.request("POST", path, _encode(again))
        return model.model_validate_json(response.content)

    async def _put_board(self, board: Body) -> BoardStored:
        ident, data = self._board_body(board)
        response = await self.transport.request("PUT", f"{self.path}/boards/{ident}", data)
        self.book.sent(self.ruleset, ident)
        return BoardStored.model_validate_json(response.content)

    async def example(self, route: str) -> dict[str, Any]:
        """The example body the service documents for ``route`` (its /openapi.json)."""
        doc = (await self.transport.request("GET", "/openapi.json")).json()
        return _example(doc, f"{self.path}/{route}")

    async def state_schema(self) -> dict[str, Any]:
        response = await self.transport.request("GET", f"{self.path}/schema/state.json")
        return dict(response.json())

    async def action_schema(self) -> dict[str, Any]:
        response = await self.transport.request("GET", f"{self.path}/schema/action.json")
        return dict(response.json())


__all__ = ["AsyncRulesetApi", "Body", "RulesetApi", "StateArg", "board_id"]

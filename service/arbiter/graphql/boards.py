"""Boards by reference over GraphQL, as ``PUT`` and ``GET /v1/rulesets/{id}/boards/{board}``
answer them (``Service.put_board`` and ``get_board``): ``hexManeuverPutBoard(id, board)``
keeps a board under its id (a Mutation: it stores), ``hexManeuverBoard(id)`` says whether
the service holds it (a Query: it reads), both answering ``BoardStored``; a board the
service does not hold is a ``BOARD_NOT_FOUND`` error, as REST's is a problem.

The board enters as a per-ruleset scalar (``HexManeuverBoard``), like the state and for
the same reason (a board is most of a state's bytes), validated by the same model as
REST's body and ``@specifiedBy`` that model's schema in the OpenAPI document.
"""

from __future__ import annotations

from typing import Any

from strawberry import Info
from strawberry.types.field import StrawberryField

from arbiter.engine.registry import AnyRuleset
from arbiter.graphql.errors import answered
from arbiter.graphql.fields import argument, body, field, root_name
from arbiter.graphql.paths import Where, camel
from arbiter.graphql.served import service_of
from arbiter.graphql.types import TypeMaker, json_scalar
from arbiter.service.catalogue import BoardStored
from arbiter.service.contract import camel as pascal

ID = ("sha256: and the hex SHA-256 of the board's JSON (its board fields as one object, "
      "keys sorted at every level, no whitespace, UTF-8).")


def board_scalar(ruleset: AnyRuleset, public_url: str) -> Any:
    """The scalar a board of ``ruleset`` travels in: its board fields as JSON."""
    shape = ruleset.boards
    assert shape is not None
    return json_scalar(
        f"{pascal(ruleset.id)}Board",
        f"A {ruleset.id} board as JSON: the state's board fields ({', '.join(shape.fields)}) "
        f"alone, validated like the body of PUT /v1/rulesets/{ruleset.id}/boards/{{board}} "
        "(errors carry its pointers).",
        f"{public_url}/openapi.json#/components/schemas/{shape.board_model.__name__}")


def board_fields(ruleset: AnyRuleset, maker: TypeMaker,
                 public_url: str) -> tuple[StrawberryField, StrawberryField]:
    """``<ruleset>Board(id)`` (the Query's) and ``<ruleset>PutBoard(id, board)`` (the
    Mutation's), for a ruleset whose states have a board."""
    stored = maker.object(BoardStored, input=False)
    held, put = root_name(ruleset.id, "board"), root_name(ruleset.id, "put_board")

    async def fetch(info: Info, board_id: str) -> BoardStored:
        where = Where(camel(held), {"board_id": board_id}, maker)
        return await answered(service_of(info.context).get_board(ruleset, board_id), where)

    async def keep(info: Info, board_id: str, board: Any) -> BoardStored:
        where = Where(camel(put), {"board": board}, maker, whole="board")
        return await answered(service_of(info.context).put_board(ruleset, board_id,
                                                                  body(board)), where)

    identified = argument("board_id", str, graphql_name="id", description=ID)
    return (field(held, fetch, stored, "Whether the service holds the board with this id "
                  "(a BOARD_NOT_FOUND error when it does not).", [identified]),
            field(put, keep, stored, "Keep a board under its id, so states can name it with "
                  "\"board\": \"<id>\" in place of its fields; the id must be its content's.",
                  [identified, argument("board", board_scalar(ruleset, public_url))]))

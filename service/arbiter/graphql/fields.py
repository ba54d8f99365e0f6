"""How the schema's fields are declared: their GraphQL arguments are given here rather than
read from the resolvers' signatures, because they come from the rulesets' models, known
only at start-up; and the JSON body a resolver hands the service for an input that REST
takes as a whole body (a new game's state, a board)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson
import strawberry
from strawberry.annotation import StrawberryAnnotation
from strawberry.types.arguments import StrawberryArgument
from strawberry.types.field import StrawberryField
from strawberry.types.unset import UNSET


def argument(name: str, annotation: Any, default: Any = UNSET,
             graphql_name: str | None = None, description: str | None = None
             ) -> StrawberryArgument:
    """``name`` is the Python (REST) name; ``graphql_name`` one Python cannot spell
    (``return``) or REST names otherwise (a board's ``id``, its path's ``board_id``)."""
    return StrawberryArgument(python_name=name, graphql_name=graphql_name,
                              type_annotation=StrawberryAnnotation(annotation), default=default,
                              description=description)


def field(name: str, resolve: Callable[..., Any], returns: Any, description: str,
          arguments: list[StrawberryArgument]) -> StrawberryField:
    """A field resolved by ``resolve`` with ``arguments``; ``name`` is the Python name
    (``validate_batch``), camel-cased in the schema."""
    made: StrawberryField = strawberry.field(resolver=resolve, graphql_type=returns,
                                             description=description)
    made.arguments = arguments
    made.python_name = name
    return made


def root_name(ruleset_id: str, *words: str) -> str:
    """A root field's Python name: the ruleset's id, then what the field does
    (``hex_maneuver_new_game``, camel-cased ``hexManeuverNewGame``)."""
    return "_".join((ruleset_id, *words))


def body(value: Any) -> bytes:
    """An input as the JSON body REST would receive: written by orjson, or by the
    standard library for an integer past 64 bits (only a literal in the document holds
    one), which the model then refuses at its pointer as REST refuses it."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value).encode()

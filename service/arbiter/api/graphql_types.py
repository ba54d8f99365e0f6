"""Strawberry types made from the rulesets' pydantic models, so GraphQL is typed without a
second hand-written copy of every model.

- A pydantic model becomes an object type (outputs) or an input type (``...Input``).
- ``dict`` fields become the ``JSON`` scalar (maps of unit counts, free-form params).
- A ruleset's action union becomes a one-of input: one field per action type, named by
  its ``type`` tag (``{maneuver: {...}}``), converted back to ``{"type": "maneuver", ...}``.
- The state is not typed field by field: it is the ruleset's custom scalar
  (``HexManeuverState``), validated by the same pydantic model as REST and documented
  with ``@specifiedBy`` its JSON Schema, because coercing large typed inputs costs
  milliseconds per request (see README, Performance).
"""

from __future__ import annotations

import dataclasses
import enum
import types
from typing import Annotated, Any, Literal, NewType, Optional, Union, get_args, get_origin

import strawberry
from graphql import value_from_ast_untyped
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from arbiter.api.contract import camel

MAX_JSON_DEPTH = 64


def list_of(tp: Any) -> Any:
    """``list[tp]`` for a type made at start-up, which mypy cannot see as a type."""
    made: Any = list[tp]
    return made


def _json_value(value: Any) -> Any:
    return value


def _json_out(value: Any) -> Any:
    """A JSON scalar's answer as plain JSON: a model inside a map or list (an order of a
    union type, say) is dumped, never handed to the HTTP layer as an object."""
    return to_jsonable_python(value)


def _json_literal(node: Any, variables: dict[str, Any] | None = None) -> Any:
    return value_from_ast_untyped(node, variables)


JSON = strawberry.scalar(
    NewType("JSON", object), name="JSON",
    description="Any JSON value (maps of unit counts, message params, derived facts).",
    serialize=_json_out, parse_value=_json_value, parse_literal=_json_literal)


def state_scalar(ruleset_id: str, public_url: str) -> Any:
    name = f"{camel(ruleset_id)}State"

    def parse(value: Any) -> Any:
        # Any JSON value passes: the state model refuses a wrong one with the REST pointer
        # (``/state``), where a refusal here would only name the variable.
        return value

    return strawberry.scalar(
        NewType(name, object), name=name,
        description=f"A whole {ruleset_id} game state as JSON, validated like the REST body's "
                    "`state` (errors carry the same JSON pointers).",
        specified_by_url=f"{public_url}/v1/rulesets/{ruleset_id}/schema/state.json",
        serialize=_json_value, parse_value=parse, parse_literal=_json_literal)


@strawberry.enum(description="strict: an illegal action is not applied; advisory: it is "
                 "applied when its effect is well defined, its violations as warnings.")
class Mode(enum.Enum):
    strict = "strict"
    advisory = "advisory"


@strawberry.enum(description="each: every action alone against the state; sequence: in order, "
                 "each against the state the previous one produced.")
class BatchMode(enum.Enum):
    each = "each"
    sequence = "sequence"


@dataclasses.dataclass
class OneOf:
    """What the converter remembers of a one-of input: tag -> variant model."""

    variants: dict[str, type[BaseModel]]
    discriminator: str


class TypeMaker:
    """Builds (once) the strawberry type of each pydantic model, enum and annotation."""

    def __init__(self) -> None:
        self._types: dict[tuple[Any, ...], Any] = {}
        self._one_of: dict[type, OneOf] = {}

    # -- annotations -------------------------------------------------------------------
    def of(self, tp: Any, *, input: bool) -> Any:
        origin = get_origin(tp)
        if origin is Annotated:
            return self.of(get_args(tp)[0], input=input)
        if tp in (int, str, bool, float):
            return tp
        if origin in (Union, types.UnionType):
            members = [a for a in get_args(tp) if a is not type(None)]
            if len(members) == 1:
                return Optional[self.of(members[0], input=input)]  # noqa: UP045
            return JSON
        if origin is list:
            return list_of(self.of(get_args(tp)[0], input=input))
        if origin is dict or tp is dict:
            return JSON
        if origin is Literal:
            return self._literal(get_args(tp))
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return self._enum(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return self.object(tp, input=input)
        return JSON

    def _literal(self, values: tuple[Any, ...]) -> Any:
        # The two request-level switches are enums; other literals (action tags) are strings.
        for switch in (Mode, BatchMode):
            if set(values) == {m.value for m in switch}:
                return switch
        return str

    def _enum(self, tp: type[enum.Enum]) -> Any:
        key = ("enum", tp)
        if key not in self._types:
            self._types[key] = strawberry.enum(tp, name=tp.__name__)
        return self._types[key]

    # -- object and input types --------------------------------------------------------
    def object(self, model: type[BaseModel], *, input: bool, name: str | None = None,
               overrides: dict[str, Any] | None = None, exclude: frozenset[str] = frozenset()
               ) -> Any:
        name = name or (model.__name__ + ("Input" if input else ""))
        key = ("object", name)
        if key in self._types:
            return self._types[key]
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {}
        for field_name, info in model.model_fields.items():
            if field_name in exclude:
                continue
            tp = (overrides or {}).get(field_name) or self.of(info.annotation, input=input)
            description = info.description
            if input and not info.is_required():
                tp = Optional[tp]  # noqa: UP045
                namespace[field_name] = strawberry.field(default=None, description=description)
            else:
                namespace[field_name] = strawberry.field(description=description)
            annotations[field_name] = tp
        namespace["__annotations__"] = annotations
        cls = type(name, (), namespace)
        doc = (model.__doc__ or "").strip() or None
        made = (strawberry.input(cls, name=name, description=doc) if input
                else strawberry.type(cls, name=name, description=doc))
        self._types[key] = made
        return made

    def action_input(self, ruleset_id: str, action_model: type[BaseModel]) -> Any:
        """The one-of input of a ruleset's action union."""
        root = action_model.model_fields["root"]
        # A ruleset with one action type has a plain root model, tagged all the same.
        discriminator = root.discriminator or "type"
        assert isinstance(discriminator, str)
        variants: dict[str, type[BaseModel]] = {}
        for variant in get_args(root.annotation) or (root.annotation,):
            tag = get_args(variant.model_fields[discriminator].annotation)[0]
            variants[tag] = variant
        name = f"{camel(ruleset_id)}ActionInput"
        namespace: dict[str, Any] = {"__annotations__": {}}
        for tag, variant in variants.items():
            inner = self.object(variant, input=True, exclude=frozenset({discriminator}))
            namespace["__annotations__"][tag] = Optional[inner]  # noqa: UP045
            namespace[tag] = strawberry.field(default=strawberry.UNSET,
                                              description=(variant.__doc__ or "").strip() or None)
        cls = strawberry.input(type(name, (), namespace), name=name, one_of=True,
                               description=f"One {ruleset_id} action: set exactly one field.")
        self._one_of[cls] = OneOf(variants, discriminator)
        return cls

    def one_of(self, cls: type) -> OneOf:
        return self._one_of[cls]


def plain(value: Any, maker: TypeMaker | None = None) -> Any:
    """A strawberry input value as the plain JSON the pydantic models parse. Unset optional
    fields are left out, so pydantic's defaults apply."""
    if value is None or value is strawberry.UNSET:
        return None
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list):
        return [plain(v, maker) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if maker is not None and type(value) in maker._one_of:
            one_of = maker.one_of(type(value))
            for tag in one_of.variants:
                inner = getattr(value, tag, None)
                if inner is not None and inner is not strawberry.UNSET:
                    return {one_of.discriminator: tag, **plain(inner, maker)}
            return {}
        out = {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if v is None or v is strawberry.UNSET:
                continue
            out[f.name] = plain(v, maker)
        return out
    return value


def to_graphql(model: type[BaseModel], value: Any) -> Any:
    """A REST JSON value of ``model`` as GraphQL variables: field names in camelCase
    (maps stay as they are: they travel as the JSON scalar). For clients and tests."""
    root = model.model_fields.get("root")
    if root is not None and isinstance(value, dict):
        key = str(root.discriminator or "type")
        tag = value[key]
        for variant in get_args(root.annotation) or (root.annotation,):
            if get_args(variant.model_fields[key].annotation)[0] == tag:
                rest = {k: v for k, v in value.items() if k != key}
                return {_camel(tag): to_graphql(variant, rest)}
    if not isinstance(value, dict):
        return value
    out = {}
    for key, v in value.items():
        info = model.model_fields.get(key)
        out[_camel(key)] = _to_graphql_ann(info.annotation if info else None, v)
    return out


def _to_graphql_ann(tp: Any, value: Any) -> Any:
    origin = get_origin(tp)
    if origin is Annotated:
        return _to_graphql_ann(get_args(tp)[0], value)
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(tp) if a is not type(None)]
        return _to_graphql_ann(members[0], value) if len(members) == 1 else value
    if origin is list and isinstance(value, list):
        return [_to_graphql_ann(get_args(tp)[0], v) for v in value]
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return to_graphql(tp, value)
    return value


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)

"""Strawberry types made from the rulesets' pydantic models, so GraphQL is typed without a
second hand-written copy of every model.

- A pydantic model becomes an object type (outputs) or an input type (``...Input``).
- A map of counts (``dict[str, int]``: an army's units, a region's markers) becomes a
  list of ``{unit, count}`` (``units``) or ``{key, count}`` entries with ``count: Int!``,
  as strict as REST (``plain`` turns it back into the map, a key listed twice refused);
  other ``dict`` fields and nested unions stay the ``JSON`` scalar (docs/graphql.md).
- A ``Literal`` of several words becomes an enum (``Severity``, ``AreaMovementShipReachStatus``).
- A ruleset's action union becomes a one-of input: one field per action type, named by
  its ``type`` tag (``{maneuver: {...}}``), converted back to ``{"type": "maneuver", ...}``.
  An action in an answer (legal actions) is the union of one-field types of the same
  shape (``HexManeuverManeuverAction { maneuver {...} }``): selected with an inline
  fragment per member, the answer is the one-of input, to send back unchanged.
- The state is not typed field by field: it is the ruleset's custom scalar
  (``HexManeuverState``), validated by the same pydantic model as REST and documented
  with ``@specifiedBy`` its JSON Schema, because coercing large typed inputs costs
  milliseconds per request (see docs/performance.md).
"""

from __future__ import annotations

import dataclasses
import enum
import math
import re
import types
from collections.abc import Callable
from typing import Annotated, Any, Literal, NewType, Optional, Union, get_args, get_origin

import strawberry
from graphql import value_from_ast_untyped
from pydantic import BaseModel, create_model
from pydantic.fields import FieldInfo
from pydantic_core import to_jsonable_python

from arbiter.engine.catalogue import TypedParams
from arbiter.service.contract import camel

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
    """A JSON value written in the query. A number too large for a double (``1e400``) is
    refused: read as infinity, it would be written back as ``null`` (a seed turning
    into table mode), where a JSON body holding it is refused."""
    value = value_from_ast_untyped(node, variables)
    if not _finite(value):
        raise ValueError("a number too large for a double (JSON has no infinity)")
    return value


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    return True


JSON = strawberry.scalar(
    NewType("JSON", object), name="JSON",
    description="Any JSON value (maps of unit counts, message params, derived facts).",
    serialize=_json_out, parse_value=_json_value, parse_literal=_json_literal)


BigInt = strawberry.scalar(
    NewType("BigInt", int), name="BigInt",
    description="An integer GraphQL's 32-bit Int cannot hold (a random generator's state, "
                "up to 2^64 - 1), as a JSON number, as REST writes it.",
    serialize=int, parse_value=int)

INT32_MAX = 2**31 - 1


def _beyond_int32(meta: list[Any]) -> bool:
    """An int annotated with bounds (``Field(le=...)``) beyond GraphQL's Int."""
    for info in meta:
        for bound in getattr(info, "metadata", [info]):
            for name in ("le", "lt", "ge", "gt"):
                value = getattr(bound, name, None)
                if isinstance(value, int) and abs(value) > INT32_MAX + 1:
                    return True
    return False


def json_scalar(name: str, description: str, specified_by_url: str) -> Any:
    """A scalar whose value is JSON that the service's own model validates (a state, a
    board). Any JSON value passes here: the model refuses a wrong one with the REST
    pointer (``/state/...``), where a refusal here would only name the variable."""
    return strawberry.scalar(
        NewType(name, object), name=name, description=description,
        specified_by_url=specified_by_url,
        serialize=_json_value, parse_value=_json_value, parse_literal=_json_literal)


def state_scalar(ruleset_id: str, public_url: str) -> Any:
    return json_scalar(
        f"{camel(ruleset_id)}State",
        f"A whole {ruleset_id} game state as JSON, validated like the REST body's `state` "
        "(errors carry the same JSON pointers).",
        f"{public_url}/v1/rulesets/{ruleset_id}/schema/state.json")


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


@strawberry.enum(description="How an outcome returns its resulting state: state (whole, by "
                 "reference when its board came so and the action left it as it was), patch "
                 "(an RFC 6902 JSON Patch against the state sent, in `patch`; in a sequence, "
                 "against the state the action before produced), omit (not at all: the "
                 "verdict and stateHash only).")
class Return(enum.Enum):
    state = "state"
    patch = "patch"
    omit = "omit"


@dataclasses.dataclass
class OneOf:
    """What the converter remembers of a one-of input: tag -> variant model."""

    variants: dict[str, type[BaseModel]]
    discriminator: str


@strawberry.enum(description="What a JSON Patch operation does (RFC 6902), as the service "
                 "writes them.")
class PatchOp(enum.Enum):
    add = "add"
    remove = "remove"
    replace = "replace"


@strawberry.type(description="One RFC 6902 operation of a resulting state's patch: its "
                 "``value`` is any part of the state, hence JSON.")
class PatchOperation:
    op: PatchOp
    path: str
    value: JSON | None = None  # type: ignore[valid-type]  # a scalar strawberry makes


def patch_operations(root: Any) -> list[PatchOperation] | None:
    """``Outcome.patch`` as typed operations (null unless ``return: patch`` was asked)."""
    patch = getattr(root, "patch", None)
    if patch is None:
        return None
    return [PatchOperation(op=PatchOp(o["op"]), path=o["path"], value=o.get("value"))
            for o in patch]


@strawberry.type(description="One entry of a map of unit counts: a unit type and how many.")
class UnitCount:
    unit: str
    count: int


@strawberry.input(name="UnitCountInput",
                  description="One entry of a map of unit counts: a unit type and how many.")
class UnitCountInput:
    unit: str
    count: int


@strawberry.type(description="One entry of a map of counts (markers, tokens per region, "
                 "icons): its key and how many.")
class KeyedCount:
    key: str
    count: int


@strawberry.input(name="KeyedCountInput", description="One entry of a map of counts: its "
                  "key and how many.")
class KeyedCountInput:
    key: str
    count: int


def count_key(field_name: str) -> str:
    """The name of the key of a count map's entries: ``unit`` in a map of units."""
    return "unit" if field_name == "units" else "key"


def count_entry(field_name: str, *, input: bool) -> Any:
    if count_key(field_name) == "unit":
        return UnitCountInput if input else UnitCount
    return KeyedCountInput if input else KeyedCount


def is_count_map(tp: Any) -> bool:
    """``dict[K, int]`` (or an optional one), bounds and all: a map of counts."""
    origin = get_origin(tp)
    if origin is Annotated:
        return is_count_map(get_args(tp)[0])
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(tp) if a is not type(None)]
        return len(members) == 1 and is_count_map(members[0])
    if origin is not dict:
        return False
    value = get_args(tp)[1]
    while get_origin(value) is Annotated:
        value = get_args(value)[0]
    return value is int


_NAME = re.compile(r"^[_A-Za-z][_0-9A-Za-z]*$")


def _plain_field(info: FieldInfo, description: str | None, named: str | None, *,
                 optional: bool) -> Any:
    """A model's field as it is: an optional input defaults to null; a field the model
    marks deprecated (``Field(deprecated=...)``: a spelling still read for a while) is
    deprecated here too, with the same reason."""
    reason = _deprecation(info)
    if optional:
        return strawberry.field(default=None, description=description, name=named,
                                deprecation_reason=reason)
    return strawberry.field(description=description, name=named, deprecation_reason=reason)


def _deprecation(info: FieldInfo) -> str | None:
    """The reason a model's field is deprecated (``Field(deprecated="...")``), or None."""
    reason = info.deprecated
    if reason is None or reason is False:
        return None
    return reason if isinstance(reason, str) else str(getattr(reason, "message", "deprecated"))


def _pascal(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


class TypeMaker:
    """Builds (once) the strawberry type of each pydantic model, enum and annotation."""

    def __init__(self) -> None:
        self._types: dict[tuple[Any, ...], Any] = {}
        self._one_of: dict[type, OneOf] = {}
        # Input classes -> their count-map fields (field -> key name), for ``plain``.
        self.count_fields: dict[type, dict[str, str]] = {}
        # A variant of a tagged union (an action, a step, an order) -> the one-field
        # output type that carries it and its tag; each union of them by its members.
        self._wrappers: dict[type[BaseModel], tuple[Any, str]] = {}
        self._unions: dict[frozenset[type[BaseModel]], Any] = {}
        # While one ruleset's types are made: the types its answers use for a model
        # (its own Violation, with its codes as an enum) and for a ``state`` map (its
        # state scalar).
        self.local: dict[type[BaseModel], Any] = {}
        self.local_state: Any = None

    # -- annotations -------------------------------------------------------------------
    def of(self, tp: Any, *, input: bool, name: str = "") -> Any:
        """The strawberry type of an annotation; ``name`` (``Model.field``'s pascal name)
        names what is made of it (an enum of a ``Literal``, a one-of of a union)."""
        origin = get_origin(tp)
        if origin is Annotated:
            inner, *meta = get_args(tp)
            tag = next((m.discriminator for m in meta
                        if isinstance(getattr(m, "discriminator", None), str)), None)
            if tag is not None and get_origin(inner) in (Union, types.UnionType):
                # A union that names itself (``Field(title=...)``) keeps its name wherever used.
                titled = next((m.title for m in meta if getattr(m, "title", None)), name)
                return self._tagged(list(get_args(inner)), tag, titled, input=input)
            if inner is int and _beyond_int32(meta):
                return BigInt
            return self.of(inner, input=input, name=name)
        if tp in (int, str, bool, float):
            return tp
        if origin in (Union, types.UnionType):
            members = [a for a in get_args(tp) if a is not type(None)]
            if len(members) == 1:
                return Optional[self.of(members[0], input=input, name=name)]  # noqa: UP045
            key = frozenset(members)
            return JSON if input else self._unions.get(key, JSON)
        if origin is list:
            return list_of(self.of(get_args(tp)[0], input=input, name=name.removesuffix("s")))
        if origin is dict or tp is dict:
            return JSON
        if origin is Literal:
            return self._literal(get_args(tp), name)
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return self._enum(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return self._model(tp, input=input)
        return JSON

    def _model(self, tp: type[BaseModel], *, input: bool) -> Any:
        """A model's type: in an answer, the ruleset's own (``local``) or, for a variant
        of a tagged union, the union of one-field types."""
        if not input and tp in self.local:
            return self.local[tp]
        if not input and tp in self._wrappers:
            return self._unions[frozenset({tp})]
        return self.object(tp, input=input)

    def _tagged(self, members: list[type[BaseModel]], discriminator: str, name: str, *,
                input: bool) -> Any:
        """A union tagged by ``discriminator`` (the steps of a plan, the orders of a turn):
        in an input, a one-of named ``{name}Input`` with a field per tag; in an answer,
        the union ``name`` of one-field types of the same shape (``_wrap``)."""
        variants = {get_args(m.model_fields[discriminator].annotation)[0]: m for m in members}
        if not input:
            if frozenset(members) not in self._unions:
                self._wrap(variants, discriminator, name, lambda tag: name + _pascal(tag),
                           f"One of {name}: the field named by its `{discriminator}`.")
            return self._unions[frozenset(members)]
        key = ("one_of", frozenset(members))
        if key not in self._types:
            self._types[key] = self._one_of_input(
                f"{name}Input", variants, discriminator,
                f"One {name}: set exactly one field, named by its `{discriminator}`.")
        return self._types[key]

    def _one_of_input(self, name: str, variants: dict[str, type[BaseModel]],
                      discriminator: str, description: str) -> Any:
        namespace: dict[str, Any] = {"__annotations__": {}}
        for tag, variant in variants.items():
            inner = (bool if _bare(variant, discriminator) else
                     self.object(variant, input=True, exclude=frozenset({discriminator})))
            namespace["__annotations__"][tag] = Optional[inner]  # noqa: UP045
            namespace[tag] = strawberry.field(default=strawberry.UNSET,
                                              description=(variant.__doc__ or "").strip() or None)
        cls = strawberry.input(type(name, (), namespace), name=name, one_of=True,
                               description=description)
        self._one_of[cls] = OneOf(variants, discriminator)
        return cls

    def _literal(self, values: tuple[Any, ...], name: str) -> Any:
        # The request-level switches are enums; a tag (one value) is a string, and so is a
        # literal whose values are not all GraphQL names.
        for switch in (Mode, BatchMode, Return):
            if set(values) == {m.value for m in switch}:
                return switch
        if len(values) < 2 or not name or not all(
                isinstance(v, str) and _NAME.match(v) and v not in ("true", "false", "null")
                for v in values):
            return str
        key = ("literal", frozenset(values))
        if key not in self._types:
            made = enum.Enum(name, {v: v for v in values})  # type: ignore[misc]  # functional API
            self._types[key] = strawberry.enum(made, name=name)
        return self._types[key]

    def _enum(self, tp: type[enum.Enum]) -> Any:
        """An enum class's type; one named like an enum made by name (a ruleset's violation
        codes, which its catalogue's model lists as its own enum class) is that enum: the
        same words under the same name."""
        key = ("enum", tp)
        if key not in self._types:
            self._types[key] = self._types.get(("named", tp.__name__)) or strawberry.enum(
                tp, name=tp.__name__)
        return self._types[key]

    def named_enum(self, name: str, values: list[str], description: str) -> Any:
        """An enum of words known at start-up (a ruleset's violation codes)."""
        key = ("named", name)
        if key not in self._types:
            made = enum.Enum(name, {v: v for v in values})  # type: ignore[misc]  # functional API
            self._types[key] = strawberry.enum(made, name=name, description=description)
        return self._types[key]

    # -- object and input types --------------------------------------------------------
    def object(self, model: type[BaseModel], *, input: bool, name: str | None = None,
               overrides: dict[str, Any] | None = None, exclude: frozenset[str] = frozenset(),
               extra: dict[str, Any] | None = None) -> Any:
        """``overrides``: a field's type instead of its annotation's; ``extra``: fields
        (strawberry fields with their resolvers) the model does not have."""
        name = name or (model.__name__ + ("Input" if input else ""))
        key = ("object", name)
        if key in self._types:
            return self._types[key]
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {}
        counts: dict[str, str] = {}
        for field_name, info in model.model_fields.items():
            if field_name in exclude:
                continue
            tp = (overrides or {}).get(field_name)
            if (tp is None and not input and field_name == "state" and self.local_state
                    is not None and get_origin(_stripped(info.annotation)) is dict):
                tp = self.local_state | None if _nullable(info.annotation) else self.local_state
            description = info.description
            # A field named by an alias (a param ``from``, a Python keyword) is the alias.
            named = info.alias if info.alias not in (None, field_name) else None
            if tp is None and is_count_map(info.annotation):
                counts[field_name] = count_key(field_name)
                entry = list_of(count_entry(field_name, input=input))
                tp = Optional[entry] if _nullable(info.annotation) else entry  # noqa: UP045
                if not input:
                    namespace[field_name] = strawberry.field(
                        resolver=_count_resolver(field_name), graphql_type=tp,
                        description=description, name=named)
                    continue
            made = None if tp is not None or input else self._open_map(model, field_name, info)
            if made is not None:
                namespace[field_name] = made
                continue
            if tp is None:
                tp = self._field_type(model, field_name, info, input=input)
                if not input and self.wraps(info.annotation):
                    namespace[field_name] = strawberry.field(
                        resolver=self._wrapping_resolver(field_name), graphql_type=tp,
                        description=description, name=named)
                    continue
            optional = input and not info.is_required()
            if optional:
                tp = Optional[tp]  # noqa: UP045
            namespace[field_name] = _plain_field(info, description, named, optional=optional)
            annotations[field_name] = tp
        namespace.update(extra or {})
        namespace["__annotations__"] = annotations
        cls = type(name, (), namespace)
        doc = (model.__doc__ or "").strip() or None
        made = (strawberry.input(cls, name=name, description=doc) if input
                else strawberry.type(cls, name=name, description=doc))
        if counts:
            self.count_fields[made] = counts
        self._types[key] = made
        return made

    def _open_map(self, model: type[BaseModel], field_name: str, info: FieldInfo) -> Any:
        """The field of a map in an answer that is typed all the same: params whose code
        decides their type (``TypedParams``), a map of typed values (``_keyed_field``);
        None for any other field."""
        typed = next((m for m in info.metadata if isinstance(m, TypedParams)), None)
        if typed is not None:
            return self.params_union(
                typed.union, dict(typed.models()), model.__name__, typed.tag,
                f"The {field_name} of a {model.__name__}: one type per {typed.tag}.")
        if _keyed_map(info.annotation) is not None:
            return self._keyed_field(model, field_name, info)
        return None

    def _field_type(self, model: type[BaseModel], field_name: str, info: FieldInfo, *,
                    input: bool) -> Any:
        """A field's type from its annotation; an int bounded beyond GraphQL's Int (a
        seed: pydantic keeps its bounds beside the annotation) is a ``BigInt``."""
        if _stripped(info.annotation) is int and _beyond_int32([info]):
            return Optional[BigInt] if _nullable(info.annotation) else BigInt  # noqa: UP045
        return self.of(info.annotation, input=input, name=model.__name__ + _pascal(field_name))

    def _keyed_field(self, model: type[BaseModel], field_name: str, info: FieldInfo) -> Any:
        """A map in an answer whose values are not counts (each player's bonus locations)
        as a list of ``{key, value}`` entries, in the map's order: GraphQL has no map."""
        value_type = _keyed_map(info.annotation)
        name = f"{model.__name__}{_pascal(field_name)}Entry"
        entry: type[BaseModel] = create_model(
            name, __doc__=f"One entry of {model.__name__}.{field_name}: its key and value.",
            key=(str, ...), value=(value_type, ...))
        made = list_of(self.object(entry, input=False))
        tp = Optional[made] if _nullable(info.annotation) else made  # noqa: UP045

        def resolve(root: Any) -> Any:
            found = getattr(root, field_name)
            if found is None:
                return None
            return [entry.model_construct(key=k, value=v) for k, v in found.items()]

        return strawberry.field(resolver=resolve, graphql_type=tp, description=info.description)

    def params_union(self, name: str, models: dict[str, type[BaseModel]], said: str,
                     tag: str, description: str) -> Any:
        """The params of a ruleset's violations (``said``: violation) or events, one
        object type per code with params (``models``, by code): the union ``name``,
        nullable (a code whose message has no params has none), and the resolver that
        reads a Violation's or an Event's params as its code's type (``tag``: the field
        naming the code). Only answers over GraphQL validate params; REST dumps them."""
        # GraphQL has no empty object: a code without params answers null.
        models = {code: model for code, model in models.items() if model.model_fields}
        members = []
        for model in models.values():
            members.append(self.object(model, input=False, extra={
                "is_type_of": classmethod(_instance_of(model))}))
        made: Any = (Annotated[Union[tuple(members)], strawberry.union(  # noqa: UP007
            name, description=description)] if len(members) > 1 else members[0])

        def resolve(root: Any) -> Any:
            model = models.get(getattr(root, tag))
            return None if model is None else model.model_validate(root.params)

        return strawberry.field(resolver=resolve, graphql_type=Optional[made],  # noqa: UP045
                                description=f"The params of the {said}'s message, typed by "
                                "its code (null when its message has none).")

    def action_input(self, ruleset_id: str, action_model: type[BaseModel]) -> Any:
        """The one-of input of a ruleset's action union, and the output types of the same
        shape an answer lists actions in (``action_output``)."""
        root = action_model.model_fields["root"]
        # A ruleset with one action type has a plain root model, tagged all the same.
        discriminator = root.discriminator or "type"
        assert isinstance(discriminator, str)
        variants: dict[str, type[BaseModel]] = {}
        for variant in get_args(root.annotation) or (root.annotation,):
            tag = get_args(variant.model_fields[discriminator].annotation)[0]
            variants[tag] = variant
        prefix = camel(ruleset_id)
        cls = self._one_of_input(f"{prefix}ActionInput", variants, discriminator,
                                 f"One {ruleset_id} action: set exactly one field.")
        # The same union elsewhere in an input (a picture's proposed action) is this input.
        self._types[("one_of", frozenset(variants.values()))] = cls
        self._wrap(variants, discriminator, f"{prefix}Action",
                   lambda tag: f"{prefix}{_pascal(tag)}Action",
                   f"A {ruleset_id} action in the shape of the {prefix}ActionInput: send "
                   "the selection back as the action unchanged.")
        return cls

    def _wrap(self, variants: dict[str, type[BaseModel]], discriminator: str,
              union_name: str, wrapper_name: Callable[[str], str], description: str) -> None:
        """One output type per variant, with one field named by its tag (as in the one-of
        input), and their union: a tagged value in an answer, selected with a fragment per
        member, reads as the one-of input."""
        for tag, variant in variants.items():
            inner = (bool if _bare(variant, discriminator) else
                     self.object(variant, input=False, exclude=frozenset({discriminator})))
            named = wrapper_name(tag)
            namespace: dict[str, Any] = {"__annotations__": {tag: inner},
                                         tag: strawberry.field(description=(
                                             variant.__doc__ or "").strip() or None)}
            self._wrappers[variant] = (strawberry.type(
                type(named, (), namespace), name=named, description=description), tag)
        members = tuple(self._wrappers[v][0] for v in variants.values())
        made: Any = (Annotated[Union[members], strawberry.union(union_name)]  # noqa: UP007
                     if len(members) > 1 else members[0])
        self._unions[frozenset(variants.values())] = made
        for variant in variants.values():
            self._unions.setdefault(frozenset({variant}), made)

    def wraps(self, tp: Any) -> bool:
        """An answer's annotation holds tagged values (``_wrap``): its field resolves them."""
        origin = get_origin(tp)
        if origin in (Annotated, list, Union, types.UnionType):
            return any(self.wraps(a) for a in get_args(tp)
                       if a is not type(None) and not isinstance(a, FieldInfo))
        return tp in self._wrappers

    def _wrapping_resolver(self, field_name: str) -> Any:
        def resolve(root: Any) -> Any:
            return self.wrapped(getattr(root, field_name))

        return resolve

    def wrapped(self, value: Any) -> Any:
        """A value of an answer with each tagged model in its one-field output type."""
        if isinstance(value, list):
            return [self.wrapped(v) for v in value]
        wrapper = self._wrappers.get(type(value))
        if wrapper is None:
            return value
        cls, tag = wrapper
        return cls(**{tag: True if cls.__annotations__[tag] is bool else value})

    def one_of(self, cls: type) -> OneOf:
        return self._one_of[cls]


def _bare(variant: type[BaseModel], discriminator: str) -> bool:
    """A variant that is its tag alone (area_movement's ``end_movement`` step): GraphQL has
    no empty object, so its one-of field is ``true`` (``{endMovement: true}``)."""
    return set(variant.model_fields) == {discriminator}


def _stripped(tp: Any) -> Any:
    """An annotation without ``Annotated`` and without ``None``."""
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    if get_origin(tp) in (Union, types.UnionType):
        members = [a for a in get_args(tp) if a is not type(None)]
        return _stripped(members[0]) if len(members) == 1 else tp
    return tp


def _nullable(tp: Any) -> bool:
    origin = get_origin(tp)
    if origin is Annotated:
        return _nullable(get_args(tp)[0])
    return origin in (Union, types.UnionType) and type(None) in get_args(tp)


def _keyed_map(tp: Any) -> Any:
    """The value type of ``dict[str, V]`` (or an optional one) whose values are typed but
    not counts; None for anything else."""
    origin = get_origin(tp)
    if origin is Annotated:
        return _keyed_map(get_args(tp)[0])
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(tp) if a is not type(None)]
        return _keyed_map(members[0]) if len(members) == 1 else None
    if origin is not dict or is_count_map(tp):
        return None
    value = get_args(tp)[1]
    return None if value is Any else value


def _instance_of(model: type[BaseModel]) -> Callable[[Any, Any, Any], bool]:
    """``is_type_of`` for the object type of ``model``: a union of them tells its member
    by the model an answer holds."""

    def is_type_of(cls: Any, obj: Any, info: Any) -> bool:
        return isinstance(obj, model)

    return is_type_of


def _count_resolver(field_name: str) -> Any:
    """A count map's field of an answer, as its list of entries (in the map's order)."""
    key = count_key(field_name)
    entry = UnitCount if key == "unit" else KeyedCount

    def resolve(root: Any) -> Any:
        counts = getattr(root, field_name)
        if counts is None:
            return None
        return [entry(**{key: k, "count": v}) for k, v in counts.items()]

    return resolve


class ListedTwice(Exception):
    """A count map sent as a list names one key twice: the map it stands for is ambiguous."""

    def __init__(self, where: tuple[str | int, ...], key: str) -> None:
        super().__init__(key)
        self.where = where
        self.key = key


def plain(value: Any, maker: TypeMaker | None = None,
          where: tuple[str | int, ...] = ()) -> Any:
    """A strawberry input value as the plain JSON the pydantic models parse. Unset optional
    fields are left out, so pydantic's defaults apply; a count map's entries become its
    map again (``ListedTwice`` for a key listed twice, ``where`` the REST pointer's
    segments so far)."""
    if value is None or value is strawberry.UNSET:
        return None
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list):
        return [plain(v, maker, (*where, i)) for i, v in enumerate(value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if maker is not None and type(value) in maker._one_of:
            one_of = maker.one_of(type(value))
            for tag in one_of.variants:
                inner = getattr(value, tag, None)
                if inner is True and _bare(one_of.variants[tag], one_of.discriminator):
                    return {one_of.discriminator: tag}
                if inner is not None and inner is not strawberry.UNSET:
                    return {one_of.discriminator: tag, **plain(inner, maker, where)}
            return {}
        counts = maker.count_fields.get(type(value), {}) if maker is not None else {}
        out = {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if v is None or v is strawberry.UNSET:
                continue
            if f.name in counts:
                out[f.name] = count_map(v, counts[f.name], (*where, f.name))
            else:
                out[f.name] = plain(v, maker, (*where, f.name))
        return out
    return value


def count_map(entries: list[Any], key: str, where: tuple[str | int, ...]) -> dict[str, int]:
    """A count list's entries as the map they stand for; a key listed twice refused."""
    counts: dict[str, int] = {}
    for entry in entries:
        name = getattr(entry, key)
        if name in counts:
            raise ListedTwice((*where, name), name)
        counts[name] = entry.count
    return counts


def to_graphql(model: type[BaseModel], value: Any) -> Any:
    """A REST JSON value of ``model`` as GraphQL variables: field names in camelCase,
    count maps as lists of entries (other maps stay as they are: they travel as the JSON
    scalar). For clients and tests."""
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
        if info is not None and is_count_map(info.annotation) and isinstance(v, dict):
            name = count_key(key)
            out[_camel(key)] = [{name: k, "count": n} for k, n in v.items()]
        else:
            out[_camel(key)] = _to_graphql_ann(info.annotation if info else None, v)
    return out


def _to_graphql_ann(tp: Any, value: Any) -> Any:
    origin = get_origin(tp)
    if origin is Annotated:
        inner, *meta = get_args(tp)
        tag = _discriminator(meta)
        if tag is not None and isinstance(value, dict) and tag in value:
            for member in get_args(inner):
                if get_args(member.model_fields[tag].annotation)[0] == value[tag]:
                    rest = {k: v for k, v in value.items() if k != tag}
                    bare = _bare(member, tag) and not rest
                    return {_camel(value[tag]): True if bare else to_graphql(member, rest)}
        return _to_graphql_ann(inner, value)
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(tp) if a is not type(None)]
        return _to_graphql_ann(members[0], value) if len(members) == 1 else value
    if origin is list and isinstance(value, list):
        return [_to_graphql_ann(get_args(tp)[0], v) for v in value]
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return to_graphql(tp, value)
    return value


def _discriminator(meta: list[Any]) -> str | None:
    """The tag of a discriminated union, from its ``Annotated`` metadata."""
    return next((m.discriminator for m in meta
                 if isinstance(getattr(m, "discriminator", None), str)), None)


def from_graphql(model: type[BaseModel], value: Any) -> Any:
    """A GraphQL answer for ``model`` as REST writes it: snake_case fields, count lists
    as maps, a listed action (``{maneuver: {...}}``) with its ``type`` tag. The inverse of
    ``to_graphql``; JSON scalars are left as they are. For clients and tests."""
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        key = info.alias or name
        if _camel(key) not in value:
            continue
        v = value[_camel(key)]
        if is_count_map(info.annotation) and isinstance(v, list):
            out[key] = {e[count_key(name)]: e["count"] for e in v}
        else:
            out[key] = _from_graphql_ann(info.annotation, v)
    return out


def _from_graphql_ann(tp: Any, value: Any) -> Any:
    origin = get_origin(tp)
    if origin is Annotated:
        inner, *meta = get_args(tp)
        tag = _discriminator(meta)
        if tag is not None:
            return _tagged_rest(list(get_args(inner)), tag, value)
        return _from_graphql_ann(inner, value)
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(tp) if a is not type(None)]
        if len(members) == 1:
            return _from_graphql_ann(members[0], value)
        return _tagged_rest(members, "type", value)
    if origin is list and isinstance(value, list):
        return [_from_graphql_ann(get_args(tp)[0], v) for v in value]
    if origin is dict and isinstance(value, list):
        # A map as its entries: counts ({unit|key, count}) or typed values ({key, value}).
        if is_count_map(tp):
            return {e.get("unit", e.get("key")): e["count"] for e in value}
        return {e["key"]: _from_graphql_ann(get_args(tp)[1], e["value"]) for e in value}
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if isinstance(value, dict) and "type" in tp.model_fields and len(value) == 1:
            return _tagged_rest([tp], "type", value)
        return from_graphql(tp, value)
    return value


def _tagged_rest(members: list[Any], key: str, value: Any) -> Any:
    """``{maneuver: {...}}`` as ``{"type": "maneuver", ...}`` (``key`` the tag's field)
    when a member is tagged so."""
    if not isinstance(value, dict) or len(value) != 1:
        return value
    (tag, inner), = value.items()
    for member in members:
        info = getattr(member, "model_fields", {}).get(key)
        if info is not None and _camel(get_args(info.annotation)[0]) == tag:
            if inner is True and _bare(member, key):
                return {key: get_args(info.annotation)[0]}
            return {key: get_args(info.annotation)[0], **from_graphql(member, inner)}
    return value


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)

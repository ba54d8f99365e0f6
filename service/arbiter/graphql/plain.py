"""Completing plain answer objects without graphql-core's machinery per field.

graphql-core completes every field of an answer through five methods and a
``GraphQLResolveInfo`` built for it: the paths of a ``reachable`` answer's destinations
(a few hundred ``{ q r }``) took a third of a GraphQL request. Most answer objects are
plain: a pydantic model whose selected fields are all strawberry's basic fields (an
attribute read, no resolver, no arguments), each a leaf, a list, or an object of the same
kind. ``PlainPlans.plan`` makes, once per selection, the completion of such an object:
each value read as strawberry's default resolver reads it and coerced by its GraphQL
type as ``Executor.complete_leaf_value`` coerces it, into the same keys in the same order.

Anything else is graphql-core's: a selection that is not plain gets no plan, and a value
the plan cannot complete as graphql-core would without an error (a null where the type
forbids one, a value its scalar refuses, something other than a list for a list) raises
``NotPlain``, and the object is completed by graphql-core again from the start, with its
own errors at their own paths. Reading a model's attribute has no side effect, so the
attempt changes nothing. The plans read graphql-core's ``collect_subfields`` and the
triple it returns, which are not a public API: pyproject.toml pins the graphql-core they
were written for (tests/test_pinned.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeGuard

from graphql import (
    GraphQLLeafType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    Undefined,
)
from graphql.execution.middleware import MiddlewareManager
from pydantic import BaseModel

# What strawberry keeps on each GraphQL field: the strawberry field it was made from.
_STRAWBERRY = "strawberry-definition"

Complete = Callable[[Any], Any]

# The answer model classes seen so far, none of which defines ``__await__``.
_MODELS: set[type] = set()


def never_awaited(is_awaitable: Callable[[Any], bool]
                  ) -> Callable[[Any], TypeGuard[Awaitable[Any]]]:
    """``is_awaitable`` that answers for an answer model (a pydantic model) at once:
    graphql-core asks it of every value it completes, and ``hasattr(model, "__await__")``
    goes through pydantic's ``__getattr__`` on the instance and then its class, building
    an AttributeError at each (about half of completing a reachable answer's destinations,
    measured). A model class is looked at once, through its MRO, as ``hasattr`` would."""

    def checked(value: Any) -> TypeGuard[Awaitable[Any]]:
        kind = type(value)
        if kind in _MODELS:
            return False
        if issubclass(kind, BaseModel) and not any("__await__" in vars(c)
                                                   for c in kind.__mro__):
            _MODELS.add(kind)
            return False
        return is_awaitable(value)

    return checked


class NotPlain(Exception):
    """This value is not completed here: graphql-core completes its object."""


class PlainPlans:
    """The plans of one operation's plain objects, by object type and selection (graphql-
    core's ``collect_subfields`` memoises on the same key: a list's items share one)."""

    def __init__(self, collect: Callable[..., Any], middleware: MiddlewareManager | None
                 ) -> None:
        self.collect = collect  # ``Executor.collect_subfields``
        self.middleware = middleware
        self.plans: dict[tuple[GraphQLObjectType, int], tuple[Any, Complete | None]] = {}

    def plan(self, object_type: GraphQLObjectType, selection: Any) -> Complete | None:
        """How to complete a model of ``object_type`` for ``selection`` (a field details
        list), or None: not plain."""
        key = (object_type, id(selection))
        found = self.plans.get(key)
        if found is not None:
            return found[1]
        made = self._make(object_type, selection)
        self.plans[key] = (selection, made)  # (the selection kept alive: its id stays its)
        return made

    def _make(self, object_type: GraphQLObjectType, selection: Any) -> Complete | None:
        if object_type.is_type_of is not None:
            return None
        grouped, defer_usages, _forbidden = self.collect(object_type, selection)
        if defer_usages:
            return None
        fields: list[tuple[str, Callable[[Any], Any], Complete]] = []
        for key, details in grouped.items():
            name = details[0].node.name.value
            if name == "__typename":
                fields.append((key, _constant(object_type.name), _same))
                continue
            made = self._field(object_type, name, details)
            if made is None:
                return None
            fields.append((key, *made))

        def completed(source: Any) -> dict[str, Any]:
            return {key: complete(read(source)) for key, read, complete in fields}

        return completed

    def _field(self, object_type: GraphQLObjectType, name: str, details: Any
               ) -> tuple[Callable[[Any], Any], Complete] | None:
        """How to read and complete a field of strawberry's that only reads an attribute
        (its default resolver, no arguments, no middleware), or None."""
        field = object_type.fields.get(name)
        if field is None or field.args or details[0].node.arguments:
            return None
        resolve = field.resolve
        if not getattr(resolve, "_is_default", False):
            return None
        if self.middleware is not None and self.middleware.get_field_resolver(resolve) \
                is not resolve:
            return None
        definition = (field.extensions or {}).get(_STRAWBERRY)
        complete = self._value(field.type, details)
        if definition is None or complete is None:
            return None
        read, python_name = definition.default_resolver, definition.python_name
        return (lambda source: read(source, python_name)), complete

    def _value(self, of: GraphQLOutputType, details: Any) -> Complete | None:
        """How to complete one value of type ``of``, or None: not plain (an interface or
        a union, whose type graphql-core resolves)."""
        if isinstance(of, GraphQLNonNull):
            inner = self._value(of.of_type, details)
            return _required(inner) if inner is not None else None
        if isinstance(of, GraphQLList):
            item = self._value(of.of_type, details)
            return _listed(item) if item is not None else None
        if isinstance(of, GraphQLLeafType):
            return _leaf(of)
        if isinstance(of, GraphQLObjectType):
            plan = self.plan(of, details)  # (as deep as the selection: the cost limits bound it)
            return _nested(plan) if plan is not None else None
        return None


def _required(inner: Complete) -> Complete:
    def required(value: Any) -> Any:
        done = inner(value)
        if done is None:
            raise NotPlain  # graphql-core's "Cannot return null", at its path
        return done

    return required


def _listed(item: Complete) -> Complete:
    def listed(value: Any) -> Any:
        if value is None or value is Undefined:
            return None
        if type(value) is not list and type(value) is not tuple:
            raise NotPlain
        return [item(v) for v in value]

    return listed


def _leaf(of: GraphQLLeafType) -> Complete:
    coerce = of.coerce_output_value

    def leaf(value: Any) -> Any:
        if value is None or value is Undefined:
            return None
        done = coerce(value)  # (a refusal raises: graphql-core raises it again, located)
        if done is None or done is Undefined:
            raise NotPlain
        return done

    return leaf


def _nested(plan: Complete) -> Complete:
    def nested(value: Any) -> Any:
        if value is None or value is Undefined:
            return None
        if not isinstance(value, BaseModel):
            raise NotPlain
        return plan(value)

    return nested


def _constant(value: str) -> Callable[[Any], str]:
    def constant(_source: Any) -> str:
        return value

    return constant


def _same(value: Any) -> Any:
    return value

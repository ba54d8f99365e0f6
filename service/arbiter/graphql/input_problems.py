"""The inputs GraphQL itself refuses, said as the service says every refused input: an
``INVALID_INPUT`` error whose ``extensions.problems`` carry, for each, the REST pointer
(``/action/path/0/r``) and the GraphQL path (``["validate", "action", "maneuver", "path",
0, "r"]``) of the same input.

- Variables are checked here before execution, against their declared types (graphql-core's
  own ``validate_input_value``, which reports structured paths), and an ``Int`` given as a
  float (``1.0``) is refused as REST refuses it (graphql-core would read it as ``1``).
- A literal argument GraphQL's validation refused (``r: "x"``, a missing ``player``) is
  found in the document and located the same way.

Reading a GraphQL path as a pointer: the argument is the body's field; a one-of member is
skipped (REST tags the action with ``type`` instead); camelCase fields are snake_case; an
entry of a count list (``units: [{unit, count}]``) is its key in the map REST sends.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from graphql import (
    ArgumentNode,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    GraphQLError,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLScalarType,
    GraphQLSchema,
    InlineFragmentNode,
    ListValueNode,
    Node,
    ObjectValueNode,
    OperationDefinitionNode,
    VariableNode,
    get_named_type,
    is_input_type,
    type_from_ast,
)
from graphql import ExecutionResult as GraphQLExecutionResult
from graphql.pyutils import Undefined
from graphql.utilities.validate_input_value import validate_input_value
from strawberry.extensions import SchemaExtension

from arbiter.engine.errors import pointer as make_pointer
from arbiter.graphql.paths import Path

# The entries count maps travel as, and the name of their key field (``types``).
COUNT_ENTRIES = {"UnitCountInput": "unit", "KeyedCountInput": "key"}
# graphql-core reports a missing field at its object: the field is named in the message.
_MISSING = re.compile(r"^(?:Field '(?:\w+\.)?(\w+)' of required type|Expected value of type "
                      r"'\w+!?' to include required field '(\w+)')")


def snake(name: str) -> str:
    return re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), name)


def _unwrapped(tp: Any) -> Any:
    while isinstance(tp, GraphQLNonNull):
        tp = tp.of_type
    return tp


def rest_pointer(argument: str, arg_type: GraphQLInputType, path: Path, value: Any) -> str:
    """The REST pointer of ``path`` (after the argument) in an argument of ``arg_type``
    whose value (as sent, when known) is ``value``."""
    parts: list[str | int] = [snake(argument)]
    tp: Any = arg_type
    for i, seg in enumerate(path):
        tp = _unwrapped(tp)
        if isinstance(tp, GraphQLList):
            tp = tp.of_type
            entry = COUNT_ENTRIES.get(getattr(_unwrapped(tp), "name", ""))
            key = _key_of(value, seg, entry) if entry is not None else None
            if key is not None:
                return make_pointer(*parts, key, *path[i + 2:])
            parts.append(seg)
            value = value[seg] if isinstance(value, list) and isinstance(seg, int) \
                and 0 <= seg < len(value) else None
        elif isinstance(tp, GraphQLInputObjectType):
            field = tp.fields.get(str(seg))
            if not _is_one_of(tp):
                parts.append(snake(str(seg)))
            tp = field.type if field is not None else None
            value = value.get(seg) if isinstance(value, dict) else None
        else:
            # A scalar (the state, a JSON value): its keys are the body's own.
            parts.extend(path[i:])
            break
    return make_pointer(*parts)


def _is_one_of(tp: GraphQLInputObjectType) -> bool:
    """A one-of input: strawberry marks it with its ``@oneOf`` directive (graphql-core's
    ``is_one_of`` stays False for the types strawberry makes)."""
    if tp.is_one_of:
        return True
    definition = (tp.extensions or {}).get("strawberry-definition")
    return any(type(d).__name__ == "OneOf" for d in getattr(definition, "directives", ()))


def _key_of(value: Any, index: Any, key: str) -> str | None:
    if isinstance(value, list) and isinstance(index, int) and 0 <= index < len(value):
        entry = value[index]
        if isinstance(entry, dict) and isinstance(entry.get(key), str):
            return str(entry[key])
    return None


def problem_error(located: list[tuple[str, Path, str]]) -> GraphQLError:
    """``(pointer, path, detail)`` triples as the service's refused-input error."""
    return GraphQLError("invalid input: see extensions.problems", extensions={
        "code": "INVALID_INPUT",
        "problems": [{"pointer": p, "path": path, "detail": d} for p, path, d in located]})


# -- variables --------------------------------------------------------------------------

def _usages(schema: GraphQLSchema, document: DocumentNode
            ) -> dict[str, tuple[str, ArgumentNode, Path, Any]]:
    """Each variable's first use as (part of) a field's argument: the field's name, the
    argument, the path of the variable inside the argument's value and its declared type."""
    found: dict[str, tuple[str, ArgumentNode, Path, Any]] = {}
    for field, definition in _fields(schema, document):
        for argument in field.arguments or ():
            arg = definition.args.get(argument.name.value) if definition else None
            for name, at in _variables(argument.value, []):
                found.setdefault(name, (field.name.value, argument, at,
                                        arg.type if arg is not None else None))
    return found


def _fields(schema: GraphQLSchema, document: DocumentNode) -> Iterator[tuple[FieldNode, Any]]:
    """Every field of the document's operations with its definition in the schema (None
    where the document names a field the schema does not have); fragments by name are
    followed from where they are defined."""
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            yield from _selected(schema, definition.selection_set,
                                 schema.get_root_type(definition.operation))
        elif isinstance(definition, FragmentDefinitionNode):
            yield from _selected(schema, definition.selection_set,
                                 schema.get_type(definition.type_condition.name.value))


def _selected(schema: GraphQLSchema, selection_set: Any, parent: Any
              ) -> Iterator[tuple[FieldNode, Any]]:
    if selection_set is None:
        return
    for selection in selection_set.selections:
        if isinstance(selection, FieldNode):
            fields = getattr(parent, "fields", None) or {}
            definition = fields.get(selection.name.value)
            yield selection, definition
            child = get_named_type(definition.type) if definition is not None else None
            yield from _selected(schema, selection.selection_set, child)
        elif isinstance(selection, InlineFragmentNode):
            condition = selection.type_condition
            yield from _selected(schema, selection.selection_set,
                                 schema.get_type(condition.name.value) if condition else parent)


def _variables(value: Any, at: Path) -> Iterator[tuple[str, Path]]:
    if isinstance(value, VariableNode):
        yield value.name.value, at
    elif isinstance(value, ListValueNode):
        for i, item in enumerate(value.values):
            yield from _variables(item, [*at, i])
    elif isinstance(value, ObjectValueNode):
        for f in value.fields:
            yield from _variables(f.value, [*at, f.name.value])


def strict_ints(value: Any, tp: Any, at: Path) -> Iterator[tuple[Path, str]]:
    """Every float given for an ``Int`` (graphql-core takes ``1.0`` for ``1``; REST does
    not), with its path in ``value``."""
    tp = _unwrapped(tp)
    if isinstance(tp, GraphQLList):
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            yield from strict_ints(item, tp.of_type, [*at, i] if isinstance(value, list) else at)
    elif isinstance(tp, GraphQLInputObjectType) and isinstance(value, dict):
        for name, field in tp.fields.items():
            if name in value:
                yield from strict_ints(value[name], field.type, [*at, name])
    elif isinstance(tp, GraphQLScalarType) and tp.name == "Int" and isinstance(value, float):
        yield at, f"Int cannot represent non-integer value: {value!r}"


def variable_problems(schema: GraphQLSchema, operation: OperationDefinitionNode,
                      document: DocumentNode, variables: dict[str, Any]
                      ) -> list[tuple[str, Path, str]]:
    """Each refused variable (or part of one), located as the service locates inputs."""
    usages = _usages(schema, document)
    located: list[tuple[str, Path, str]] = []
    for definition in operation.variable_definitions or ():
        name = definition.variable.name.value
        tp = type_from_ast(schema, definition.type)
        if not is_input_type(tp) or name not in usages:
            continue
        value = variables.get(name, Undefined)
        found: list[tuple[Path, str]] = []
        if value is Undefined:
            if isinstance(tp, GraphQLNonNull) and definition.default_value is None:
                found.append(([], f"Variable '${name}' of required type was not provided."))
        else:
            def refused(error: GraphQLError, path: list[str | int],
                        found: list[tuple[Path, str]] = found) -> None:
                found.append((_missing(path, error), error.message))

            validate_input_value(value, tp, refused)
            found.extend(strict_ints(value, tp, []))
        field, argument, at, arg_type = usages[name]
        whole = _nest(value, at)
        for path, detail in found:
            full = [*at, *path]
            pointer = (rest_pointer(argument.name.value, arg_type, full, whole)
                       if arg_type is not None else make_pointer(snake(argument.name.value)))
            located.append((pointer, [field, argument.name.value, *full], detail))
    return located


def _missing(path: list[str | int], error: GraphQLError) -> Path:
    """A missing field is reported at its object: the path names the field itself."""
    match = _MISSING.match(error.message)
    return [*path, match.group(1) or match.group(2)] if match else list(path)


def _nest(value: Any, at: Path) -> Any:
    """A variable's value placed where it sits in its argument (for count keys)."""
    for seg in reversed(at):
        value = [*([None] * seg), value] if isinstance(seg, int) else {seg: value}
    return value


# -- literals GraphQL's validation refused ----------------------------------------------

def literal_problem(schema: GraphQLSchema, document: DocumentNode, error: GraphQLError
                    ) -> tuple[str, Path, str] | None:
    """A validation error about a literal argument value, located; None for any other."""
    if not error.nodes:
        return None
    target = error.nodes[0]
    for field, definition in _fields(schema, document):
        for argument in field.arguments or ():
            at = _find(argument.value, target, [])
            if at is None:
                continue
            path = _missing(at, error)
            arg = definition.args.get(argument.name.value) if definition else None
            arg_type = arg.type if arg is not None else None
            pointer = (rest_pointer(argument.name.value, arg_type, path, None)
                       if arg_type is not None else make_pointer(snake(argument.name.value)))
            return pointer, [field.name.value, argument.name.value, *path], error.message
    return None


def _find(value: Any, target: Node, at: Path) -> Path | None:
    if value is target:
        return at
    if isinstance(value, ListValueNode):
        for i, item in enumerate(value.values):
            found = _find(item, target, [*at, i])
            if found is not None:
                return found
    elif isinstance(value, ObjectValueNode):
        for f in value.fields:
            # An unknown field (a one-of member no type has) is reported at the field.
            found = [*at, f.name.value] if f is target else _find(f.value, target,
                                                                   [*at, f.name.value])
            if found is not None:
                return found
    return None


class InputProblems(SchemaExtension):
    """Refused inputs located both ways, before anything is judged."""

    def on_validate(self) -> Iterator[None]:
        yield
        context = self.execution_context
        errors = context.pre_execution_errors
        if not errors or context.graphql_document is None:
            return
        schema = context.schema._schema
        located = [literal_problem(schema, context.graphql_document, e) for e in errors]
        # In place: strawberry has put this very list in the result it returns (inside
        # the validation hook), and ValidationCache keeps it for the same document, for
        # which the mapping is the same (a mapped error has no node: it maps to itself).
        errors[:] = [problem_error([found]) if found is not None else error
                     for error, found in zip(errors, located, strict=True)]

    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        variables = context.variables
        if document is not None and isinstance(variables, dict):
            operation = _operation(document, context.operation_name)
            if operation is not None:
                located = variable_problems(context.schema._schema, operation, document,
                                            variables)
                if located:
                    context.result = GraphQLExecutionResult(
                        data=None, errors=[problem_error(located)])
        yield


def _operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode | None:
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    for op in operations:
        if name is None or (op.name is not None and op.name.value == name):
            return op
    return None

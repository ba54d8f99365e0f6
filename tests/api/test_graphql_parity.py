"""GraphQL at parity with REST: every operation of the OpenAPI document has its GraphQL
field, or its reason in ``NOT_IN_GRAPHQL``; every GraphQL field is one of theirs; and
every input of a REST operation (a path parameter, a field of its body) is an argument
of that field, an enum wherever REST's is one, at any depth. The answers of the fields
are compared with REST's in test_graphql_parity_answers.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from arbiter.rulesets import builtin_registry
from golden import pascal

REGISTRY = builtin_registry()

# REST operations (by operationId, less the ruleset's suffix) without a GraphQL field, and
# why. Anything else the OpenAPI document lists must have one.
NOT_IN_GRAPHQL: dict[str, str] = {
    "healthz": "liveness: an orchestrator's GET about the process, not a question of a game",
    "readyz": "readiness (the loop, Redis): read by the orchestrator and load balancer over "
              "plain HTTP",
    "metrics": "Prometheus' text format, scraped over HTTP",
    "openapi": "the REST API's own document; GraphQL describes itself (introspection, and "
               "schema/schema.graphql)",
    "graphql": "GraphQL itself",
    "graphiql": "the GraphiQL page a browser gets at GET /graphql",
    "stateSchema": "the state's JSON Schema: each ruleset's state scalar names its URL with "
                   "@specifiedBy, where a GraphQL client's generator reads it",
    "actionSchema": "the action's JSON Schema: GraphQL types every action field by field "
                    "(its one-of input), so introspection is its schema",
    "picture": "a picture's URL for an <img src> (GET .../render): the same picture as the "
               "render field, which GraphQL answers",
}

# The operations answered by a root field (Query or Mutation) named after the ruleset
# (``hexManeuverNewGame``); every other ruleset operation is a question of one state
# (``HexManeuverQuestions.validate``, ``.legalActions``).
ROOT_FIELDS: dict[str, tuple[str, str]] = {
    "describe": ("Query", "Catalogue"),
    "getBoard": ("Query", "Board"),
    "newGame": ("Mutation", "NewGame"),
    # A Mutation: it stores.
    "putBoard": ("Mutation", "PutBoard"),
}
# REST inputs that GraphQL names otherwise: a path parameter, and a body that is one
# argument whole (PUT's body is the board).
RENAMED = {"board_id": "id"}
WHOLE_BODY = {"putBoard": "board"}

INTROSPECTION = """{ __schema { types { name kind enumValues { name }
  fields { name args { name type { ...T } } type { ...T } } inputFields { name type { ...T } }
} } }
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name
  ofType { kind name } } } } }"""


def lower(ruleset_id: str) -> str:
    name = pascal(ruleset_id)
    return name[:1].lower() + name[1:]


def gql_name(rest_name: str) -> str:
    """A REST field's GraphQL name: camelCase (``return`` stays itself)."""
    return RENAMED.get(rest_name) or re.sub(r"_(\w)", lambda m: m.group(1).upper(), rest_name)


@pytest.fixture(scope="module")
def openapi(client: TestClient) -> dict[str, Any]:
    document: dict[str, Any] = client.get("/openapi.json").json()
    return document


@pytest.fixture(scope="module")
def types(client: TestClient) -> dict[str, dict[str, Any]]:
    body = client.post("/graphql", json={"query": INTROSPECTION}).json()
    assert "errors" not in body, body
    return {t["name"]: t for t in body["data"]["__schema"]["types"]}


def operations(openapi: dict[str, Any]) -> list[tuple[str, str | None, dict[str, Any]]]:
    """Every operation as (its verb: the operationId less a ruleset's suffix, the ruleset's
    id or None, the operation)."""
    found = []
    for item in openapi["paths"].values():
        for op in item.values():
            if not isinstance(op, dict) or "operationId" not in op:
                continue
            oid = op["operationId"]
            ruleset = next((r.id for r in REGISTRY if oid.endswith(pascal(r.id))
                            and oid != pascal(r.id)), None)
            verb = oid[:-len(pascal(ruleset))] if ruleset else oid
            found.append((verb, ruleset, op))
    return found


def coordinate(verb: str, ruleset: str | None) -> tuple[str, str] | None:
    """The GraphQL type and field that answers a REST operation (None: not in GraphQL)."""
    if verb in NOT_IN_GRAPHQL:
        return None
    if ruleset is None:
        return ("Query", "rulesets") if verb == "listRulesets" else ("", verb)
    if verb in ROOT_FIELDS:
        parent, suffix = ROOT_FIELDS[verb]
        return parent, lower(ruleset) + suffix
    return f"{pascal(ruleset)}Questions", verb


def graphql_field(types: dict[str, dict[str, Any]], parent: str, name: str
                  ) -> dict[str, Any] | None:
    fields = (types.get(parent) or {}).get("fields") or []
    return next((f for f in fields if f["name"] == name), None)


def test_every_rest_operation_has_its_graphql_field(openapi: dict[str, Any],
                                                    types: dict[str, dict[str, Any]]) -> None:
    missing, listed = [], set()
    for verb, ruleset, op in operations(openapi):
        listed.add(verb)
        where = coordinate(verb, ruleset)
        if where is not None and graphql_field(types, *where) is None:
            missing.append(f"{op['operationId']}: no {where[0]}.{where[1]}")
    assert missing == []
    # The allow-list names only operations that exist: it cannot outlive its reasons.
    assert set(NOT_IN_GRAPHQL) <= listed, set(NOT_IN_GRAPHQL) - listed


def test_every_graphql_field_is_a_rest_operation(openapi: dict[str, Any],
                                                 types: dict[str, dict[str, Any]]) -> None:
    answered = {coordinate(verb, ruleset) for verb, ruleset, _ in operations(openapi)}
    # The ruleset's field that takes a state to ask it questions is GraphQL's own shape.
    answered |= {("Query", lower(r.id)) for r in REGISTRY}
    fields = {(parent, f["name"]) for parent in ("Query", "Mutation")
              for f in types[parent]["fields"]}
    fields |= {(f"{pascal(r.id)}Questions", f["name"]) for r in REGISTRY
               for f in types[f"{pascal(r.id)}Questions"]["fields"]}
    assert fields - answered == set()


def _named(tp: dict[str, Any]) -> str:
    while tp.get("ofType"):
        tp = tp["ofType"]
    return str(tp["name"])


def _list_item(tp: dict[str, Any]) -> dict[str, Any] | None:
    while tp["kind"] == "NON_NULL":
        tp = tp["ofType"]
    return tp["ofType"] if tp["kind"] == "LIST" else None


class EnumCheck:
    """Walks a REST schema beside the GraphQL input type of the same value, collecting
    every place where REST has an enum and GraphQL has not the same one."""

    def __init__(self, openapi: dict[str, Any], types: dict[str, dict[str, Any]]) -> None:
        self.components = openapi["components"]["schemas"]
        self.types = types
        self.misses: list[str] = []

    def resolved(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self.components[schema["$ref"].rsplit("/", 1)[1]]
        return schema

    def members(self, schema: dict[str, Any]) -> list[dict[str, Any]]:
        members = schema.get("oneOf") or schema.get("anyOf") or []
        return [m for m in map(self.resolved, members) if m.get("type") != "null"]

    def check(self, schema: dict[str, Any], tp: dict[str, Any], at: str) -> None:
        schema = self.resolved(schema)
        members = self.members(schema)
        if len(members) == 1 and "discriminator" not in schema:
            schema = members[0]
            members = []
        kind = self.types[_named(tp)]["kind"]
        words = schema.get("enum")
        if words is not None and len(words) > 1:
            found = {v["name"] for v in self.types[_named(tp)].get("enumValues") or []}
            if kind != "ENUM" or found != set(words):
                self.misses.append(f"{at}: REST {words}, GraphQL {_named(tp)}")
            return
        item = _list_item(tp)
        if schema.get("type") == "array" and item is not None:
            self.check(schema.get("items", {}), item, f"{at}/0")
        elif kind == "INPUT_OBJECT":
            self.fields(schema, members, tp, at)

    def fields(self, schema: dict[str, Any], members: list[dict[str, Any]],
               tp: dict[str, Any], at: str) -> None:
        # (A variant that is its tag alone travels as ``true``: nothing inside.)
        fields = {f["name"]: f for f in self.types[_named(tp)]["inputFields"] or []}
        tag = (schema.get("discriminator") or {}).get("propertyName")
        if tag is not None:  # a one-of input: a field per tag
            for member in members:
                name = member["properties"][tag]["const"]
                if gql_name(name) in fields:
                    self.fields(member, [], fields[gql_name(name)]["type"], f"{at}({name})")
            return
        for name, inner in (schema.get("properties") or {}).items():
            if gql_name(name) in fields:
                self.check(inner, fields[gql_name(name)]["type"], f"{at}/{name}")


def test_every_rest_input_is_a_graphql_argument_an_enum_where_rest_has_one(
        openapi: dict[str, Any], types: dict[str, dict[str, Any]]) -> None:
    check, missing = EnumCheck(openapi, types), []
    for verb, ruleset, op in operations(openapi):
        where = coordinate(verb, ruleset)
        if where is None or ruleset is None:
            continue
        field = graphql_field(types, *where)
        assert field is not None
        arguments = {a["name"]: a for a in field["args"]}
        if where[0].endswith("Questions"):  # the state and its signature go in once, above
            arguments |= {a["name"]: a for a in graphql_field(types, "Query",
                                                              lower(ruleset))["args"]}
        inputs = {p["name"]: p["schema"] for p in op.get("parameters", []) if p["in"] == "path"}
        body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        if verb in WHOLE_BODY:
            inputs[WHOLE_BODY[verb]] = body["schema"]
        elif body:
            inputs |= check.resolved(body["schema"])["properties"]
        for name, schema in inputs.items():
            argument = arguments.get(gql_name(name))
            if argument is None:
                missing.append(f"{op['operationId']}: {name}")
            elif name not in ("state", "board"):  # the scalars: JSON as REST's
                check.check(schema, argument["type"], f"{op['operationId']}/{name}")
    assert missing == []
    assert check.misses == []


def test_the_enum_check_can_fail(openapi: dict[str, Any],
                                 types: dict[str, dict[str, Any]]) -> None:
    # A string where REST has an enum is found, at its place.
    check = EnumCheck(openapi, types)
    string = {"kind": "SCALAR", "name": "String", "ofType": None}
    check.check({"enum": ["pending", "follow_orders"]}, string, "resolve/unanswered")
    assert check.misses == ["resolve/unanswered: REST ['pending', 'follow_orders'], "
                            "GraphQL String"]

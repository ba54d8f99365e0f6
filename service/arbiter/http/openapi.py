"""The OpenAPI 3.1 document, generated from the same pydantic models the routes parse and
answer with, one concrete path per ruleset and route so every body is typed, with
examples made by judging each ruleset's own example bodies (``openapi_examples``).

Clients are generated from it (clients/), so it keeps one naming scheme: an operation's
id is its route in lowerCamelCase followed by its ruleset in UpperCamelCase
(``validateBatchHexManeuver``, ``conquestCostRegionConquest``); the service's own
operations have a single word (``healthz``, ``graphql``). Each ruleset is a tag.
Descriptions are CommonMark: the docstrings' reStructuredText literals are rewritten."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from arbiter.engine.boards import BOARD_ID_PATTERN
from arbiter.engine.registry import AnyRuleset, Registry
from arbiter.http.openapi_examples import (
    answer_example,
    board_not_found_example,
    malformed_example,
    unseal_orders_body,
)
from arbiter.http.problems import BOARD_NOT_FOUND, LIMIT_TYPE, PROBLEM_TYPES, STATE_SIGNATURE
from arbiter.http.rest import PICTURE_PARAMETERS, SVG
from arbiter.service.catalogue import BoardStored, RulesetList, ruleset_list
from arbiter.service.contract import (
    MAX_BATCH_SCHEMA,
    SealedOrders,
    camel,
    contract,
    description,
    example_body,
    lower_camel,
)

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An RFC 9457 problem document. Its `type` is one of: "
                   + ", ".join(sorted({*PROBLEM_TYPES.values(), LIMIT_TYPE, BOARD_NOT_FOUND,
                                       STATE_SIGNATURE})) + ".",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "errors": {"type": "array", "items": {
            "type": "object", "required": ["pointer", "detail"],
            "properties": {"pointer": {"type": "string", "description": "RFC 6901 JSON "
                                       "pointer into the request body."},
                           "detail": {"type": "string"}}}},
        "limit": {"type": "string", "description": "The setting whose limit the request "
                  "is over (ARBITER_MAX_CELLS, ARBITER_COMPUTE_BUDGET_MS, …)."},
        "maximum": {"type": "integer", "description": "That limit's value."},
        "retry_after": {"type": "integer", "description": "Seconds until a retry can pass."},
        "board": {"type": "string", "description": f"With type {BOARD_NOT_FOUND}: the id "
                  "of the board the service does not hold; send the state with its board "
                  "inline (or PUT the board) and ask again."},
    },
}


SECURITY_SCHEMES: dict[str, Any] = {
    "bearerKey": {"type": "http", "scheme": "bearer",
                  "description": "An API key from ARBITER_API_KEYS, as a bearer token."},
    "headerKey": {"type": "apiKey", "in": "header", "name": "X-API-Key",
                  "description": "The same API key, in its own header."},
}
# Operations that stay open when API keys are on (an empty requirement).
OPEN: dict[str, Any] = {"security": []}
SERVERS = [{"url": "/", "description": "The service that serves this document."},
           {"url": "http://127.0.0.1:8000", "description": "`make run` on this machine."}]
SERVICE_TAGS = [
    {"name": "rulesets", "description": "Which rulesets this service judges."},
    {"name": "graphql", "description": "The same answers over GraphQL (schema/schema.graphql)."},
    {"name": "service", "description": "Health, readiness, metrics and this document."},
]


def _problem(description: str, example: dict[str, Any] | None = None) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": {"$ref": "#/components/schemas/Problem"}}
    if example is not None:
        media["example"] = example
    return {"description": description, "content": {"application/problem+json": media}}


def _ok(ref: str, description: str = "The answer.", example: Any = None) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": {"$ref": ref}}
    if example is not None:
        media["example"] = example
    return {"description": description, "content": {"application/json": media}}


# Every operation may get these (the transport's answers, before any route reads the body).
TRANSPORT: dict[str, Any] = {
    "405": {**_problem("This path answers another method (the Allow header names it)."),
            "headers": {"Allow": {"schema": {"type": "string"}}}},
}
# And every operation that reads a JSON body these.
BODY_ERRORS: dict[str, Any] = {
    "400": _problem("The request cannot be read as HTTP (an invalid Content-Length)."),
    "404": _problem("No such ruleset or query."),
    "413": _problem("The body (decoded, when sent with Content-Encoding: gzip), or the "
                    "state's board, is larger than the limit (`limit` names it)."),
    "408": _problem("The body did not arrive within ARBITER_BODY_TIMEOUT_MS; the "
                    "connection is closed."),
    "415": _problem("The body is not sent as JSON (Content-Type: application/json), or is "
                    "sent in a Content-Encoding other than gzip."),
    "503": {**_problem("This worker already answers as many requests as it takes at once "
                       "(ARBITER_MAX_IN_FLIGHT) or holds as many connections "
                       "(ARBITER_MAX_CONNECTIONS); retry after Retry-After seconds."),
            "headers": {"Retry-After": {"schema": {"type": "integer"}}}},
}
UNPROCESSABLE = (
    "The body is malformed: every bad field with its JSON pointer; or it is over a limit "
    f"(type {LIMIT_TYPE}, `limit` names it); or its state names a board this service does "
    f"not hold (type {BOARD_NOT_FOUND}, `board` names it): send the state with its board "
    f"inline once more; or its state's signature is missing where required, or does not "
    f"hold (type {STATE_SIGNATURE}).")


def _unprocessable(ruleset: AnyRuleset) -> dict[str, Any]:
    answer = _problem(UNPROCESSABLE)
    examples = {"malformed": {"value": malformed_example(ruleset)}}
    if ruleset.boards is not None:
        examples["board-not-found"] = {"value": board_not_found_example(ruleset)}
    answer["content"]["application/problem+json"]["examples"] = examples
    return answer


def _guarded(api_keys: bool, rate_limited: bool) -> dict[str, Any]:
    """The answers of a deployment with API keys or a rate limit on."""
    guarded: dict[str, Any] = {}
    if api_keys:
        guarded["401"] = _problem("An API key is missing or unknown.")
    if rate_limited:
        guarded["429"] = {**_problem("Over the rate limit; retry after Retry-After seconds."),
                          "headers": {"Retry-After": {"schema": {"type": "integer"}}}}
    return guarded


def _service_paths(registry: Registry, guarded: dict[str, Any]) -> dict[str, Any]:
    answers = {**TRANSPORT, **guarded}
    return {
        "/v1/rulesets": {"get": {
            "operationId": "listRulesets", "tags": ["rulesets"],
            "summary": "The rulesets, their versions, action types, queries and rule ids.",
            "responses": {"200": _ok("#/components/schemas/RulesetList", "The rulesets.",
                                     ruleset_list(registry).model_dump(mode="json")),
                          **answers}}},
        "/healthz": {"get": {"operationId": "healthz", "tags": ["service"],
                             "summary": "Liveness: the process answers.", **OPEN,
                             "responses": {"200": _plain_json("Alive.", {"status": "ok"}),
                                           **TRANSPORT}}},
        "/readyz": {"get": {"operationId": "readyz", "tags": ["service"], **OPEN,
                            "summary": "Readiness, with the rulesets served and the cache's "
                            "state (a degraded Redis is reported, never a reason to stop); "
                            "503 while the worker takes no request.",
                            "responses": {
                                "200": _plain_json("Ready."),
                                "503": _plain_json(
                                    "Not ready: every request has been refused for more than "
                                    "a few seconds (`limit` names the setting that is full); "
                                    "/healthz still answers.",
                                    {"status": "full", "limit": "ARBITER_MAX_IN_FLIGHT"}),
                                **TRANSPORT}}},
        "/metrics": {"get": {"operationId": "metrics", "tags": ["service"], **OPEN,
                             "summary": "Prometheus metrics: requests by route, ruleset and "
                             "status, latencies, cache and circuit-breaker events.",
                             "responses": {"200": {
                                 "description": "The Prometheus text exposition format.",
                                 "content": {"text/plain": {"schema": {"type": "string"}}}},
                                 **TRANSPORT}}},
        "/openapi.json": {"get": {"operationId": "openapi", "tags": ["service"], **OPEN,
                                  "summary": "This document, as this deployment serves it.",
                                  "responses": {"200": _plain_json("The OpenAPI document."),
                                                **TRANSPORT}}},
        "/graphql": _graphql_path(answers),
    }


def _plain_json(description: str, example: Any = None) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": {"type": "object"}}
    if example is not None:
        media["example"] = example
    return {"description": description, "content": {"application/json": media}}


def _graphql_path(answers: dict[str, Any]) -> dict[str, Any]:
    request = {"type": "object", "required": ["query"], "properties": {
        "query": {"type": "string", "description": "A GraphQL document (schema/schema.graphql "
                  "is the schema)."},
        "variables": {"type": ["object", "null"]},
        "operationName": {"type": ["string", "null"]}}}
    result = {"type": "object", "properties": {
        "data": {"type": ["object", "null"]},
        "errors": {"type": "array", "items": {"type": "object"}}}}
    return {
        "get": {"operationId": "graphiql", "tags": ["graphql"], **OPEN,
                "summary": "GraphiQL, the GraphQL playground, for a browser.",
                "responses": {"200": {"description": "The GraphiQL page.",
                                      "content": {"text/html": {"schema": {"type": "string"}}}},
                              **TRANSPORT}},
        "post": {"operationId": "graphql", "tags": ["graphql"],
                 "summary": "The GraphQL API: the same rulesets, validation and queries.",
                 "requestBody": {"required": True, "content": {"application/json": {
                     "schema": request,
                     "example": {"query": "{ rulesets { id version } }"}}}},
                 "responses": {"200": {"description": "The result; a GraphQL error (a bad "
                                       "field, an invalid state) is in `errors`.",
                                       "content": {"application/json": {"schema": result}}},
                               **{k: v for k, v in BODY_ERRORS.items() if k != "404"},
                               **answers}},
    }


def _describe_paths(ruleset: AnyRuleset, op: str, ref: Callable[[type[BaseModel], str], str],
                    answers: dict[str, Any]) -> dict[str, Any]:
    """The ruleset's catalogue and its state's and action's JSON Schemas."""
    base = f"/v1/rulesets/{ruleset.id}"
    paths: dict[str, Any] = {base: {"get": {
        "operationId": f"describe{op}", "tags": [ruleset.id],
        "summary": f"{ruleset.title}: rule ids and paraphrases, violation codes, event "
                   "kinds, options, catalogues.",
        "responses": {"200": _ok(ref(contract(ruleset).description, "serialization"),
                                 "The ruleset's catalogue.",
                                 description(ruleset).model_dump(mode="json")), **answers}}}}
    for which in ("state", "action"):
        paths[f"{base}/schema/{which}.json"] = {"get": {
            "operationId": f"{which}Schema{op}", "tags": [ruleset.id],
            "summary": f"The JSON Schema (2020-12) of a {ruleset.id} {which}.",
            "responses": {"200": {"description": "The JSON Schema.", "content": {
                "application/schema+json": {"schema": {"type": "object"}}}}, **answers}}}
    return paths


def _posted_paths(ruleset: AnyRuleset, op: str, ref: Callable[[type[BaseModel], str], str],
                  errors: dict[str, Any]) -> dict[str, Any]:
    """Validate, validate-batch, new-game and each query: a JSON body, a JSON answer."""
    c = contract(ruleset)
    routes = [("validate", c.validate_request, c.outcome,
               "Judge one action: legal or every violation, the resulting state, events."),
              ("validate-batch", c.batch_request, c.batch_response,
               "Judge several actions, each alone or in sequence."),
              ("new-game", c.new_game_request, c.new_game,
               "Start a game: its first state, with a seed the service draws, signed when "
               "the service signs states, its hidden fields sealed when it seals them."),
              ("view", c.view_request, c.view,
               "The state as a player may see it: each field nobody may read as a handle "
               "with its count (sealed when the service has keys, else withheld).")]
    routes += [(q.name, c.query_requests[q.name], q.response, q.summary)
               for q in ruleset.queries.values()]
    if c.seal_request is not None and c.unseal_request is not None and c.unsealed is not None:
        routes += [("seal-orders", c.seal_request, SealedOrders,
                    "Seal one player's orders for this state: judged as given alone, then "
                    "an envelope only the service opens, to resolve this state's turn."),
                   ("unseal-orders", c.unseal_request, c.unsealed,
                    "Open an envelope for the player who sealed it (with its receipt).")]
    paths: dict[str, Any] = {}
    for name, request, response, summary in routes:
        body: dict[str, Any] = {"schema": {"$ref": ref(request, "validation")}}
        query = ruleset.queries.get(name)
        if query is not None and len(query.examples) > 1:
            # Several examples (the render overlays): named, so a reader (Swagger UI, the
            # playground) can pick one.
            body["examples"] = {f"example-{i}": {"value": dict(e)}
                                for i, e in enumerate(query.examples, start=1)}
        else:
            example = (unseal_orders_body(ruleset) if name == "unseal-orders"
                       else example_body(ruleset, name))
            if example is not None:
                body["example"] = example
        answer = _ok(ref(response, "serialization"), example=answer_example(ruleset, name))
        paths[f"/v1/rulesets/{ruleset.id}/{name}"] = {"post": {
            "operationId": f"{lower_camel(name)}{op}", "tags": [ruleset.id],
            "summary": summary,
            "requestBody": {"required": True, "content": {"application/json": body}},
            "responses": {"200": answer, **errors,
                          **(NOT_ISSUER if name == "new-game" else {})},
        }}
        if name == "render":
            answer["content"][SVG] = SVG_ANSWER
            answer["description"] = ("The picture: as JSON, or the SVG alone when Accept "
                                     "prefers image/svg+xml (an <img>'s does).")
            paths[f"/v1/rulesets/{ruleset.id}/render"]["get"] = _picture_get(ruleset, op,
                                                                              errors)
    return paths


SVG_ANSWER = {"schema": {"type": "string", "description": "An SVG document."}}


def _picture_get(ruleset: AnyRuleset, op: str, errors: dict[str, Any]) -> dict[str, Any]:
    """``GET .../render``: the picture for an ``<img src>`` (``rest.RestApi.picture``)."""
    parameters = [{"name": name, "in": "query", "required": name == "state",
                   "description": f"The render body's `{name}`, as JSON (URL-encoded).",
                   "content": {"application/json": {"schema": {}}}}
                  for name in PICTURE_PARAMETERS]
    return {"operationId": f"picture{op}", "tags": [ruleset.id], "parameters": parameters,
            "summary": "The picture as SVG, from a URL: the render body in the query string "
                       "(its state naming its board by reference keeps the URL short). "
                       "Cached by ETag and Cache-Control (the board's id names its content).",
            "responses": {"200": {"description": "The picture.", "headers": {
                "ETag": {"schema": {"type": "string"}},
                "Cache-Control": {"schema": {"type": "string"}}},
                "content": {SVG: SVG_ANSWER}},
                "304": {"description": "The picture named by If-None-Match is current."},
                **{k: v for k, v in errors.items() if k not in ("408", "413", "415")},
                "400": _problem("A query parameter is not JSON, or not one of "
                                f"{', '.join(PICTURE_PARAMETERS)}.")}}


# new-game's own refusal (service/issuing.py).
NOT_ISSUER = {"403": _problem(
    "The request carries no issuer key (ARBITER_ISSUER_KEYS) where one is needed: issuer "
    "keys are set, or the service signs states (then, without issuer keys, nobody may start "
    "a game over HTTP).")}


def _board_paths(ruleset: AnyRuleset, op: str, ref: Callable[[type[BaseModel], str], str],
                 errors: dict[str, Any], answers: dict[str, Any]) -> dict[str, Any]:
    """PUT and GET of a board by its id (``engine.boards``), for a ruleset with a board."""
    shape = ruleset.boards
    if shape is None:
        return {}
    fields = ", ".join(shape.fields)
    stored = _ok(ref(BoardStored, "serialization"), "The board is held.")
    unknown = _problem(f"The service does not hold this board (type {BOARD_NOT_FOUND}).",
                       board_not_found_example(ruleset, pointer=""))
    # On each operation rather than the path: a reader of paths[p] finds operations only.
    parameters = [{"name": "board_id", "in": "path", "required": True,
                   "description": "sha256: and the hex SHA-256 of the board's JSON (its board "
                   "fields as one object, keys sorted at every level, no whitespace, UTF-8).",
                   "schema": {"type": "string", "pattern": BOARD_ID_PATTERN}}]
    return {f"/v1/rulesets/{ruleset.id}/boards/{{board_id}}": {
        "put": {"operationId": f"putBoard{op}", "tags": [ruleset.id], "parameters": parameters,
                "summary": f"Store a board ({fields}) under its id, so states can name it "
                           "with `\"board\": \"<id>\"` in place of those fields.",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": ref(shape.board_model, "validation")}}}},
                "responses": {"201": {**stored, "description": "Stored."},
                              **{k: v for k, v in errors.items() if k != "422"},
                              "422": _problem("The board is malformed (every bad field with "
                                              "its pointer), or the id is not its content's.")}},
        "get": {"operationId": f"getBoard{op}", "tags": [ruleset.id], "parameters": parameters,
                "summary": "Whether the service holds the board with this id.",
                "responses": {"200": stored, "422": unknown, **answers}},
    }}


def _markdown(node: Any) -> Any:
    """Every description in CommonMark: ``x`` and :role:`x` become `x`. Examples are data
    and are left as they are."""
    if isinstance(node, dict):
        return {k: (_markdown_text(v) if k == "description" and isinstance(v, str)
                    else v if k in ("example", "examples", "default", "enum", "const")
                    else _markdown(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_markdown(v) for v in node]
    return node


def _markdown_text(text: str) -> str:
    text = re.sub(r":[a-z:]+:`([^`]+)`", r"`\1`", text)
    return re.sub(r"``([^`]+)``", r"`\1`", text)


def _models(registry: Registry) -> list[tuple[type[BaseModel], Any]]:
    models: list[tuple[type[BaseModel], Any]] = [(RulesetList, "serialization"),
                                                 (BoardStored, "serialization")]
    for ruleset in registry:
        c = contract(ruleset)
        models += [(c.validate_request, "validation"), (c.batch_request, "validation"),
                   (c.outcome, "serialization"), (c.batch_response, "serialization"),
                   (c.new_game_request, "validation"), (c.new_game, "serialization"),
                   (c.view_request, "validation"), (c.view, "serialization"),
                   (c.description, "serialization")]
        for query in ruleset.queries.values():
            models += [(c.query_requests[query.name], "validation"),
                       (query.response, "serialization")]
        if ruleset.boards is not None:
            models.append((ruleset.boards.board_model, "validation"))
        if c.seal_request is not None and c.unseal_request is not None and \
                c.unsealed is not None:
            models += [(c.seal_request, "validation"), (SealedOrders, "serialization"),
                       (c.unseal_request, "validation"), (c.unsealed, "serialization")]
    return models


# A hidden field as it travels when the service seals it, or a view withholds it
# (service/hidden.py); the models parse states after their handles are opened, so the
# document says it here, in place of each hidden field of the states it describes.
SEALED_FIELD: dict[str, Any] = {
    "title": "SealedField", "type": "object", "additionalProperties": False,
    "required": ["sealed", "count"],
    "description": "A hidden field of the state (GET /v1/rulesets/{id} lists them under "
                   "`information`): send it back as the service answered it.",
    "properties": {
        "sealed": {"anyOf": [{"type": "string", "pattern": "^sealed:v1:"}, {"type": "null"}],
                   "description": "What only the service opens (null: withheld by a view "
                                  "made without keys)."},
        "count": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}],
                  "description": "What anybody may see of it: a list's length (null for "
                                 "a seed)."}},
}
SEALED_REF = {"$ref": "#/components/schemas/SealedField"}


def _sealable(components: dict[str, Any], ruleset: AnyRuleset) -> None:
    """Each hidden field of the ruleset's state schemas (whole and by reference) may be a
    ``SealedField`` in its place."""
    hidden = ruleset.information.hidden
    if not hidden:
        return
    components["SealedField"] = SEALED_FIELD
    states = [ruleset.state_model.__name__]
    if ruleset.boards is not None:
        states.append(ruleset.boards.reference_model.__name__)
    for name in states:
        for h in hidden:
            _widen(components, components[name], h.path)


def _widen(components: dict[str, Any], schema: dict[str, Any], path: tuple[str, ...]) -> None:
    properties = schema["properties"]
    field = properties[path[0]]
    if len(path) > 1:
        for ref in _refs(field):
            _widen(components, components[ref.rsplit("/", 1)[1]], path[1:])
        return
    if SEALED_REF in field.get("anyOf", ()):
        return  # a nested model two states share
    kept = {k: v for k, v in field.items() if k in ("description", "title", "default")}
    alternatives = field["anyOf"] if "anyOf" in field else [
        {k: v for k, v in field.items() if k not in kept}]
    properties[path[0]] = {**kept, "anyOf": [*alternatives, SEALED_REF]}


def _refs(schema: Any) -> list[str]:
    """The ``$ref``s a property's schema names (directly or among its alternatives)."""
    if isinstance(schema, dict):
        found = [schema["$ref"]] if "$ref" in schema else []
        return found + [r for alt in schema.get("anyOf", ()) for r in _refs(alt)]
    return []


# The models' JSON Schemas are most of the document's cost (about half a second of CPU
# for the built-in rulesets) and depend on the rulesets alone: built once per process for
# the same rulesets, which every app of a process serves (each test's app, export-schema).
_SCHEMAS: dict[tuple[int, ...], tuple[tuple[AnyRuleset, ...], Any, bytes]] = {}


def _model_schemas(registry: Registry) -> tuple[Any, dict[str, Any]]:
    """pydantic's refs and schemas of the registry's models; the schemas a fresh copy
    (the document edits them)."""
    rulesets = tuple(registry)
    key = tuple(id(ruleset) for ruleset in rulesets)  # the rulesets kept alive below
    if key not in _SCHEMAS:
        refs, schemas = models_json_schema(_models(registry),
                                           ref_template="#/components/schemas/{model}")
        _SCHEMAS[key] = (rulesets, refs, orjson.dumps(schemas))
    _, refs, written = _SCHEMAS[key]
    return refs, orjson.loads(written)


def build_openapi(registry: Registry, version: str, *, api_keys: bool = False,
                  rate_limited: bool = False, max_batch: int = 200) -> dict[str, Any]:
    """The document; ``api_keys`` and ``rate_limited`` describe a deployment that has them
    on, ``max_batch`` its ARBITER_MAX_BATCH (the committed schema/openapi.json has the
    default settings)."""
    refs, schemas = _model_schemas(registry)
    components = dict(schemas.get("$defs", {}))
    components["Problem"] = PROBLEM_SCHEMA
    for ruleset in registry:
        _sealable(components, ruleset)
    for ruleset in registry:
        # The batch's size as this deployment limits it (the model parses up to the
        # schema's own bound, and the limit check answers past the setting).
        batch = components[f"{camel(ruleset.id)}ValidateBatchRequest"]
        batch["properties"]["actions"]["maxItems"] = min(max_batch, MAX_BATCH_SCHEMA)

    def ref(model: type[BaseModel], mode: str) -> str:
        return str(refs[(model, mode)]["$ref"])

    guarded = _guarded(api_keys, rate_limited)
    answers = {**TRANSPORT, "404": BODY_ERRORS["404"], **guarded}
    paths = _service_paths(registry, guarded)
    tags = [*SERVICE_TAGS]
    for ruleset in registry:
        op = camel(ruleset.id)
        errors = {**TRANSPORT, **BODY_ERRORS, "422": _unprocessable(ruleset), **guarded}
        paths.update(_describe_paths(ruleset, op, ref, answers))
        paths.update(_posted_paths(ruleset, op, ref, errors))
        paths.update(_board_paths(ruleset, op, ref, errors, answers))
        tags.append({"name": ruleset.id, "description": f"{ruleset.title} (version "
                     f"{ruleset.version}): docs/rules/{ruleset.id}.md has its catalogue."})
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "Arbiter", "version": version,
                 "description": "Rules-as-a-service for board games: send a whole game state "
                                "and an action; get the verdict, every violation with its rule, "
                                "the resulting state and derived facts."},
        "servers": SERVERS,
        "tags": tags,
        "paths": paths,
        "components": {"schemas": components},
    }
    if api_keys:
        document["components"]["securitySchemes"] = SECURITY_SCHEMES
        document["security"] = [{"bearerKey": []}, {"headerKey": []}]
    return dict(_markdown(document))

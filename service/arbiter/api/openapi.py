"""The OpenAPI 3.1 document, generated from the same pydantic models the routes parse
with, one concrete path per ruleset and route so every body is typed, with examples."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from arbiter.api.contract import contract, example_body
from arbiter.engine.registry import AnyRuleset, Registry

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An RFC 9457 problem document.",
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


def _problem(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/problem+json": {
        "schema": {"$ref": "#/components/schemas/Problem"}}}}


def _ok(ref: str, description: str = "The answer.") -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": ref}}}}


ERRORS: dict[str, Any] = {
    "404": _problem("No such ruleset or query."),
    "413": _problem("The body, or the state's board, is larger than the limit "
                    "(`limit` names it)."),
    "422": _problem("The body is malformed: every bad field with its JSON pointer; or it is "
                    "over a limit (`limit` names it); or its state names a board this service "
                    "does not hold (type urn:arbiter:problem:board-not-found, `board` names "
                    "it): send the state with its board inline once more; or its state's "
                    "signature is missing where required, or does not hold (type "
                    "urn:arbiter:problem:state-signature)."),
    "503": _problem("This worker already answers as many requests as it takes at once "
                    "(ARBITER_MAX_IN_FLIGHT) or holds as many connections "
                    "(ARBITER_MAX_CONNECTIONS); retry after Retry-After seconds."),
}


def _guarded(api_keys: bool, rate_limited: bool) -> dict[str, Any]:
    """The answers of a deployment with API keys or a rate limit on."""
    guarded: dict[str, Any] = {}
    if api_keys:
        guarded["401"] = _problem("An API key is missing or unknown.")
    if rate_limited:
        guarded["429"] = {**_problem("Over the rate limit; retry after Retry-After seconds."),
                          "headers": {"Retry-After": {"schema": {"type": "integer"}}}}
    return guarded


def _service_paths(guarded: dict[str, Any]) -> dict[str, Any]:
    return {
        "/v1/rulesets": {"get": {"operationId": "listRulesets", "summary": "The rulesets, "
                                 "their versions, action types and rule ids.",
                                 "responses": {"200": {"description": "The rulesets.",
                                                       "content": {"application/json": {
                                                           "schema": {"type": "object"}}}},
                                               **guarded}}},
        "/healthz": {"get": {"operationId": "healthz", "summary": "Liveness.",
                             "responses": {"200": {"description": "Alive."}}, **OPEN}},
        "/readyz": {"get": {"operationId": "readyz", "summary": "Readiness, with the cache's "
                            "state.", "responses": {"200": {"description": "Ready."}},
                            **OPEN}},
    }


def _ruleset_paths(ruleset: AnyRuleset, ref: Callable[[type[BaseModel], str], str],
                   errors: dict[str, Any], guarded: dict[str, Any]) -> dict[str, Any]:
    """One ruleset's routes: its metadata, validate, validate-batch and each query."""
    c = contract(ruleset)
    base = f"/v1/rulesets/{ruleset.id}"
    op = ruleset.id.replace("_", " ").title().replace(" ", "")
    paths: dict[str, Any] = {base: {"get": {
        "operationId": f"describe{op}",
        "summary": f"{ruleset.title}: rule ids and paraphrases, violation codes, options, "
                   "catalogues.",
        "responses": {"200": {"description": "The ruleset's metadata.", "content": {
            "application/json": {"schema": {"type": "object"}}}}, **guarded}}}}
    routes = [("validate", c.validate_request, c.outcome,
               "Judge one action: legal or every violation, the resulting state, events."),
              ("validate-batch", c.batch_request, c.batch_response,
               "Judge several actions, each alone or in sequence."),
              ("new-game", c.new_game_request, c.new_game,
               "Start a game: its first state, with a seed the service draws, signed when "
               "the service signs states.")]
    routes += [(q.name, c.query_requests[q.name], q.response, q.summary)
               for q in ruleset.queries.values()]
    for name, request, response, summary in routes:
        body: dict[str, Any] = {"schema": {"$ref": ref(request, "validation")}}
        query = ruleset.queries.get(name)
        if query is not None and len(query.examples) > 1:
            # Several examples (the render overlays): named, so a reader (Swagger UI, the
            # playground) can pick one.
            body["examples"] = {f"example-{i}": {"value": dict(e)}
                                for i, e in enumerate(query.examples, start=1)}
        else:
            example = example_body(ruleset, name)
            if example is not None:
                body["example"] = example
        paths[f"{base}/{name}"] = {"post": {
            "operationId": f"{name.replace('-', '_')}_{ruleset.id}",
            "summary": summary,
            "requestBody": {"required": True, "content": {"application/json": body}},
            "responses": {"200": _ok(ref(response, "serialization")), **errors},
        }}
    return paths


def build_openapi(registry: Registry, version: str, *, api_keys: bool = False,
                  rate_limited: bool = False) -> dict[str, Any]:
    """The document; ``api_keys`` and ``rate_limited`` describe a deployment that has them
    on (the committed schema/openapi.json is the default, with both off)."""
    models: list[tuple[type[BaseModel], Any]] = []
    for ruleset in registry:
        c = contract(ruleset)
        models += [(c.validate_request, "validation"), (c.batch_request, "validation"),
                   (c.outcome, "serialization"), (c.batch_response, "serialization"),
                   (c.new_game_request, "validation"), (c.new_game, "serialization")]
        for query in ruleset.queries.values():
            models += [(c.query_requests[query.name], "validation"),
                       (query.response, "serialization")]
    refs, schemas = models_json_schema(models, ref_template="#/components/schemas/{model}")
    components = dict(schemas.get("$defs", {}))
    components["Problem"] = PROBLEM_SCHEMA

    def ref(model: type[BaseModel], mode: str) -> str:
        return str(refs[(model, mode)]["$ref"])  # type: ignore[index]  # pydantic types it loosely

    guarded = _guarded(api_keys, rate_limited)
    errors = {**ERRORS, **guarded}
    paths = _service_paths(guarded)
    for ruleset in registry:
        paths.update(_ruleset_paths(ruleset, ref, errors, guarded))
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "Arbiter", "version": version,
                 "description": "Rules-as-a-service for board games: send a whole game state "
                                "and an action; get the verdict, every violation with its rule, "
                                "the resulting state and derived facts."},
        "paths": paths,
        "components": {"schemas": components},
    }
    if api_keys:
        document["components"]["securitySchemes"] = SECURITY_SCHEMES
        document["security"] = [{"bearerKey": []}, {"headerKey": []}]
    return document

"""The OpenAPI 3.1 document, generated from the same pydantic models the routes parse
with, one concrete path per ruleset and route so every body is typed, with examples."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from arbiter.api.contract import contract, example_body
from arbiter.engine.registry import Registry

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
    },
}


def _problem(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/problem+json": {
        "schema": {"$ref": "#/components/schemas/Problem"}}}}


def _ok(ref: str, description: str = "The answer.") -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": ref}}}}


def build_openapi(registry: Registry, version: str) -> dict[str, Any]:
    models: list[tuple[type[BaseModel], Any]] = []
    for ruleset in registry:
        c = contract(ruleset)
        models += [(c.validate_request, "validation"), (c.batch_request, "validation"),
                   (c.outcome, "serialization"), (c.batch_response, "serialization")]
        for query in ruleset.queries.values():
            models += [(query.request, "validation"), (query.response, "serialization")]
    refs, schemas = models_json_schema(models, ref_template="#/components/schemas/{model}")
    components = dict(schemas.get("$defs", {}))
    components["Problem"] = PROBLEM_SCHEMA

    def ref(model: type[BaseModel], mode: str) -> str:
        return str(refs[(model, mode)]["$ref"])  # type: ignore[index]

    errors = {"404": _problem("No such ruleset or query."),
              "413": _problem("The body is larger than the limit."),
              "422": _problem("The body is malformed: every bad field with its JSON pointer.")}
    paths: dict[str, Any] = {
        "/v1/rulesets": {"get": {"operationId": "listRulesets", "summary": "The rulesets, "
                                 "their versions, action types and rule ids.",
                                 "responses": {"200": {"description": "The rulesets.",
                                                       "content": {"application/json": {
                                                           "schema": {"type": "object"}}}}}}},
        "/healthz": {"get": {"operationId": "healthz", "summary": "Liveness.",
                             "responses": {"200": {"description": "Alive."}}}},
        "/readyz": {"get": {"operationId": "readyz", "summary": "Readiness, with the cache's "
                            "state.", "responses": {"200": {"description": "Ready."}}}},
    }
    for ruleset in registry:
        c = contract(ruleset)
        base = f"/v1/rulesets/{ruleset.id}"
        op = ruleset.id.replace("_", " ").title().replace(" ", "")
        paths[base] = {"get": {
            "operationId": f"describe{op}",
            "summary": f"{ruleset.title}: rule ids and paraphrases, violation codes, "
                       "options, catalogues.",
            "responses": {"200": {"description": "The ruleset's metadata.", "content": {
                "application/json": {"schema": {"type": "object"}}}}}}}
        routes = [("validate", c.validate_request, c.outcome,
                   "Judge one action: legal or every violation, the resulting state, events."),
                  ("validate-batch", c.batch_request, c.batch_response,
                   "Judge several actions, each alone or in sequence.")]
        routes += [(q.name, q.request, q.response, q.summary) for q in ruleset.queries.values()]
        for name, request, response, summary in routes:
            body: dict[str, Any] = {"schema": {"$ref": ref(request, "validation")}}
            example = example_body(ruleset, name)
            if example is not None:
                body["example"] = example
            paths[f"{base}/{name}"] = {"post": {
                "operationId": f"{name.replace('-', '_')}_{ruleset.id}",
                "summary": summary,
                "requestBody": {"required": True, "content": {"application/json": body}},
                "responses": {"200": _ok(ref(response, "serialization")), **errors},
            }}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Arbiter", "version": version,
                 "description": "Rules-as-a-service for board games: send a whole game state "
                                "and an action; get the verdict, every violation with its rule, "
                                "the resulting state and derived facts."},
        "paths": paths,
        "components": {"schemas": components},
    }

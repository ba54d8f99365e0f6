"""The OpenAPI document as the contract clients are generated from (clients/): one naming
scheme, typed answers, per-ruleset enums, examples that are the service's own answers and
validate against their schemas, no reStructuredText, the batch limit of the deployment."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from starlette.testclient import TestClient

from arbiter.http.app import create_app
from arbiter.http.openapi import build_openapi
from arbiter.rulesets import builtin_registry
from arbiter.settings import Settings

SCHEMA = Path(__file__).resolve().parents[2] / "schema" / "openapi.json"
DOC: dict[str, Any] = json.loads(SCHEMA.read_text())
OPERATIONS = [(path, method, op) for path, item in DOC["paths"].items()
              for method, op in item.items()]


# The document as a resource, so a schema's "#/components/..." refs resolve in it.
REFS: Registry[Any] = Registry().with_resource(
    "urn:openapi", Resource.from_contents(DOC, default_specification=DRAFT202012))


def _validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    rebased = json.loads(json.dumps(schema).replace('"#/components', '"urn:openapi#/components'))
    return jsonschema.Draft202012Validator(rebased, registry=REFS)


def test_operation_ids_follow_one_scheme() -> None:
    ids = [op["operationId"] for _, _, op in OPERATIONS]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z][A-Za-z]*", i) for i in ids), ids
    for ruleset in builtin_registry():
        suffix = "".join(p.capitalize() for p in ruleset.id.split("_"))
        mine = {op["operationId"] for path, _, op in OPERATIONS
                if path.startswith(f"/v1/rulesets/{ruleset.id}")}
        assert all(i.endswith(suffix) for i in mine)
        assert {f"validate{suffix}", f"validateBatch{suffix}", f"describe{suffix}",
                f"newGame{suffix}", f"putBoard{suffix}", f"getBoard{suffix}"} <= mine
        for query in ruleset.queries:
            first, *rest = query.split("-")
            assert first + "".join(p.capitalize() for p in rest) + suffix in mine
    assert {"listRulesets", "healthz", "readyz", "metrics", "graphql"} <= set(ids)


def test_every_operation_is_tagged_and_the_rulesets_are_tags() -> None:
    tags = {t["name"] for t in DOC["tags"]}
    assert {r.id for r in builtin_registry()} <= tags
    for _, _, op in OPERATIONS:
        assert op["tags"] and set(op["tags"]) <= tags
    assert DOC["servers"]


def test_json_bodies_declare_the_transport_answers() -> None:
    for path, method, op in OPERATIONS:
        if "requestBody" in op:
            assert {"400", "405", "413", "415"} <= set(op["responses"]), (method, path)


def test_no_restructured_text_in_descriptions() -> None:
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("example", "examples"):
                    continue
                if key == "description" and isinstance(value, str):
                    assert "``" not in value and not re.search(r":[a-z]+:`", value), value
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(DOC)


def test_codes_and_kinds_are_the_catalogues_enums() -> None:
    schemas = DOC["components"]["schemas"]
    for ruleset in builtin_registry():
        prefix = "".join(p.capitalize() for p in ruleset.id.split("_"))
        assert schemas[f"{prefix}ViolationCode"]["enum"] == list(ruleset.codes)
        assert schemas[f"{prefix}EventKind"]["enum"] == list(ruleset.event_kinds)
        violation = schemas[f"{prefix}Outcome"]["properties"]["violations"]["items"]
        assert violation == {"$ref": f"#/components/schemas/{prefix}Violation"}


def test_every_answer_example_validates_against_its_schema() -> None:
    checked = 0
    for path, method, op in OPERATIONS:
        for status, answer in op["responses"].items():
            for media in answer.get("content", {}).values():
                examples = [media["example"]] if "example" in media else [
                    e["value"] for e in media.get("examples", {}).values()]
                if "$ref" not in media["schema"]:
                    continue
                if status in ("200", "201") and method == "post" and path.startswith("/v1"):
                    assert examples, f"{method} {path} {status} has no example"
                for example in examples:
                    _validator(media["schema"]).validate(example)
                    checked += 1
    assert checked > 100


def test_request_examples_validate_against_their_schemas() -> None:
    for _, _, op in OPERATIONS:
        media = op.get("requestBody", {}).get("content", {}).get("application/json")
        if media is None or "$ref" not in media["schema"]:
            continue
        examples = [media["example"]] if "example" in media else [
            e["value"] for e in media.get("examples", {}).values()]
        for example in examples:
            _validator(media["schema"]).validate(example)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Settings(max_batch=7)))


def test_the_served_document_has_the_deployments_batch_limit(client: TestClient) -> None:
    served = client.get("/openapi.json").json()
    for ruleset in builtin_registry():
        prefix = "".join(p.capitalize() for p in ruleset.id.split("_"))
        actions = served["components"]["schemas"][f"{prefix}ValidateBatchRequest"][
            "properties"]["actions"]
        assert actions["maxItems"] == 7
    committed = DOC["components"]["schemas"]["HexManeuverValidateBatchRequest"]
    assert committed["properties"]["actions"]["maxItems"] == Settings().max_batch
    examples = builtin_registry().get("hex_maneuver").examples  # type: ignore[union-attr]
    body = {"state": examples.state, "actions": [examples.action] * 8}
    over = client.post("/v1/rulesets/hex_maneuver/validate-batch", json=body)
    assert over.status_code == 422 and over.json()["limit"] == "ARBITER_MAX_BATCH"
    body["actions"] = body["actions"][:7]
    assert client.post("/v1/rulesets/hex_maneuver/validate-batch", json=body).status_code == 200


def test_the_catalogue_answers_match_their_typed_schemas(client: TestClient) -> None:
    listed = client.get("/v1/rulesets").json()
    _validator({"$ref": "#/components/schemas/RulesetList"}).validate(listed)
    for ruleset in builtin_registry():
        prefix = "".join(p.capitalize() for p in ruleset.id.split("_"))
        described = client.get(f"/v1/rulesets/{ruleset.id}").json()
        _validator({"$ref": f"#/components/schemas/{prefix}Description"}).validate(described)
        assert [c["code"] for c in described["violation_codes"]] == list(ruleset.codes)


def test_the_document_builds_without_the_committed_settings() -> None:
    doc = build_openapi(builtin_registry(), "x", api_keys=True, rate_limited=True)
    op = doc["paths"]["/v1/rulesets/hex_maneuver/boards/{board_id}"]
    assert {"401", "429"} <= set(op["put"]["responses"])

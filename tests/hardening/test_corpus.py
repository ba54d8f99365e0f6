"""The bad-input corpus (corpus.py) against every endpoint of a running server: each entry
gets a 4xx problem document naming the JSON pointer of what is wrong (GraphQL: an error
whose ``extensions.problems`` name it, or a 400 problem when the body is not a GraphQL
request), never a 5xx, and the bytes sent are never changed."""

from __future__ import annotations

import os
from typing import Any

import httpx
import pytest

from arbiter.rulesets import builtin_registry
from hardening.corpus import Entry, graphql_corpus, is_under, rest_corpus

REGISTRY = builtin_registry(os.environ.get("ARBITER_RULESETS", ""))
ENDPOINTS = [(r.id, endpoint) for r in REGISTRY
             for endpoint in ("validate", "validate-batch", *sorted(r.queries))]
KINDS = ("truncated", "wrong-type", "nan", "infinity", "huge-integer", "duplicate",
         "does-not-exist", "unknown-region", "unknown-territory", "asymmetric-adjacency",
         "unicode", "long-id", "nested-json")


RAN: dict[str, int] = {}  # endpoint -> requests sent, for the terminal summary


def corpus() -> list[Entry]:
    entries = [e for r, ep in ENDPOINTS for e in rest_corpus(REGISTRY, r, ep)]
    return entries + [e for r in REGISTRY for e in graphql_corpus(REGISTRY, r.id)]


def _pointers(response: httpx.Response) -> list[str]:
    return [e["pointer"] for e in response.json().get("errors", [])]


def check_rest(entry: Entry, response: httpx.Response) -> str | None:
    """Why the answer to ``entry`` is wrong, or None."""
    if not 400 <= response.status_code < 500:
        return f"status {response.status_code}: {response.text[:300]}"
    if response.headers.get("content-type") != "application/problem+json":
        return f"content type {response.headers.get('content-type')}"
    body = response.json()
    if body.get("status") != response.status_code or not body.get("detail"):
        return f"not a problem document: {body}"
    pointers = _pointers(response)
    if not any(is_under(p, entry.pointer) or (entry.or_whole and p == "") for p in pointers):
        return f"no pointer at {entry.pointer!r}: {pointers}"
    return None


def check_graphql(entry: Entry, response: httpx.Response) -> str | None:
    if response.status_code != 200:
        if entry.pointer != "" and not entry.or_whole:
            return f"status {response.status_code} for a JSON body: {response.text[:300]}"
        whole = check_rest(Entry(entry.name, entry.ruleset, entry.endpoint, entry.body, ""),
                           response)
        if whole is None or not entry.or_whole:
            return whole
        # Not JSON (NaN, 1e400): the strict reading names the number in the variables.
        return check_rest(Entry(entry.name, entry.ruleset, entry.endpoint, entry.body,
                                "/variables" + entry.pointer), response)
    body: dict[str, Any] = response.json()
    errors = body.get("errors") or []
    if not errors or (body.get("data") or {}).get("__typename"):
        return f"answered: {str(body)[:300]}"
    pointers = [p["pointer"] for e in errors for p in (e.get("extensions") or {})
                .get("problems", [])]
    if any(is_under(p, entry.pointer) for p in pointers):
        return None
    # A null for the non-null $state is refused by GraphQL itself, naming the variable.
    if entry.pointer == "/state" and any("'$state'" in e["message"] for e in errors):
        return None
    return f"no pointer at {entry.pointer!r}: {errors}"


@pytest.mark.server
def test_every_endpoint_the_service_lists_is_covered(http: httpx.Client) -> None:
    listed = {(r["id"], q) for r in http.get("/v1/rulesets").json()["rulesets"]
              for q in ("validate", "validate-batch", *r["queries"])}
    assert listed == set(ENDPOINTS)
    entries = corpus()
    assert {(e.ruleset, e.endpoint) for e in entries} >= listed
    names = {e.name for e in entries}
    for kind in KINDS:
        assert any(kind in name for name in names), kind


@pytest.mark.server
@pytest.mark.parametrize(("ruleset", "endpoint"), [*ENDPOINTS, *((r.id, "graphql")
                                                                 for r in REGISTRY)])
def test_bad_input_gets_a_problem_naming_the_pointer(http: httpx.Client, ruleset: str,
                                                      endpoint: str) -> None:
    entries = (graphql_corpus(REGISTRY, ruleset) if endpoint == "graphql"
               else rest_corpus(REGISTRY, ruleset, endpoint))
    url = "/graphql" if endpoint == "graphql" else f"/v1/rulesets/{ruleset}/{endpoint}"
    check = check_graphql if endpoint == "graphql" else check_rest
    failures = []
    for entry in entries:
        sent = bytes(entry.body)
        response = http.post(url, content=entry.body,
                                  headers={"content-type": "application/json"})
        assert entry.body == sent, f"{entry.id}: the request body changed"
        why = check(entry, response)
        if why:
            failures.append(f"{entry.id}: {why}")
    RAN[f"{ruleset}/{endpoint}"] = len(entries)
    assert not failures, "\n".join(failures)

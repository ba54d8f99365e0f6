"""The bad-input corpus (corpus.py) against every endpoint of a running server: each entry
gets a 4xx problem document naming the JSON pointer of what is wrong (GraphQL: an error
whose ``extensions.problems`` name it, or a 400 problem when the body is not a GraphQL
request), never a 5xx, and the bytes sent are never changed."""

from __future__ import annotations

import os

import httpx
import pytest

from arbiter.rulesets import builtin_registry
from hardening.corpus import Entry, check_graphql, check_rest, graphql_corpus, rest_corpus

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

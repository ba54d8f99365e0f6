"""A golden case over HTTP, against any server: ``via_rest`` and ``via_graphql`` ask it as
a client would (GraphQL selecting every field of the answer, in parts when that is more
fields than one operation takes) and answer it as REST writes it; ``same_verdict`` checks
both meet the case's expectation and give the engine's verdict. tests/api/test_golden_api.py
runs every built-in golden case through the suite's server; a ruleset registered from
outside the package runs its own through a server that serves it."""

from __future__ import annotations

from typing import Any

import httpx

from arbiter.engine.registry import AnyRuleset
from arbiter.graphql.types import to_graphql
from golden import (
    TYPES_QUERY,
    answer_selection,
    camel,
    check_outcome,
    outcome_selections,
    params_typed,
    pascal,
    rest_outcome,
    snake_keys,
    subset_mismatch,
    typed_outcome,
)


def via_rest(http: httpx.Client, case: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    rid = case["ruleset"]
    if "query" in case:
        r = http.post(f"/v1/rulesets/{rid}/{case['query']}", json=case["request"])
    else:
        body = {"state": case["state"], "action": case["action"],
                "mode": case.get("mode", "strict")}
        r = http.post(f"/v1/rulesets/{rid}/validate", json=body)
    if r.status_code == 422:
        assert r.headers["content-type"] == "application/problem+json"
        return 422, {"pointers": sorted(e["pointer"] for e in r.json()["errors"])}
    return r.status_code, r.json()


def via_graphql(http: httpx.Client, ruleset: AnyRuleset, case: dict[str, Any],
                engine: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The case over GraphQL, as REST would answer it; ``engine``, the engine's answer,
    picks the params types to select (as a client asks for the ones it shows)."""
    field, prefix = camel(ruleset.id), pascal(ruleset.id)
    if "query" in case:
        query = ruleset.queries[case["query"]]
        args = {k: v for k, v in case["request"].items() if k != "state"}
        variables: dict[str, Any] = {"state": case["request"]["state"]}
        decl, call = ["$state: " + prefix + "State!"], []
        schema_types = _argument_types(http, prefix, camel(query.name))
        for name, value in args.items():
            variables[name] = to_graphql(query.request, {name: value})[camel(name)]
            decl.append(f"${name}: {schema_types[camel(name)]}")
            call.append(f"{camel(name)}: ${name}")
        arguments = f"({', '.join(call)})" if call else ""
        asked = answer_selection(_types(http), prefix,
                                 _answer_type(http, prefix, camel(query.name)),
                                 engine)
        text = (f"query({', '.join(decl)}) {{ {field}(state: $state) {{ "
                f"{camel(query.name)}{arguments} {{ {asked} }} }} }}")
    else:
        return _validate_via_graphql(http, ruleset, case, engine)
    status, answer = _ask(http, text, variables)
    if status != 200:
        return status, answer
    response = ruleset.queries[case["query"]].response
    return 200, snake_keys(answer[field][camel(case["query"])], response, ruleset)


def _validate_via_graphql(http: httpx.Client, ruleset: AnyRuleset, case: dict[str, Any],
                          engine: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """``validate`` over GraphQL, every field of the Outcome asked for at once, or in parts
    when that is more fields than the service takes in one operation."""
    field, prefix = camel(ruleset.id), pascal(ruleset.id)
    variables = {"state": case["state"],
                 "action": to_graphql(ruleset.action_model, case["action"]),
                 "mode": case.get("mode", "strict")}
    parts = outcome_selections(_types(http), prefix, engine)
    answer: dict[str, Any] = {}
    for asked in ([" ".join(parts)], parts):
        answer = {}
        for part in asked:
            text = (f"query($state: {prefix}State!, $action: {prefix}ActionInput!, "
                    f"$mode: Mode) {{ {field}(state: $state) {{ validate(action: $action, "
                    f"mode: $mode) {{ {part} }} }} }}")
            status, got = _ask(http, text, variables)
            if status == 413:
                break
            if status != 200:
                return status, got
            answer |= got[field]["validate"]
        else:
            return 200, rest_outcome(ruleset, answer)
    raise AssertionError("even one part of the Outcome is more fields than the limit")


def _ask(http: httpx.Client, text: str, variables: dict[str, Any]
         ) -> tuple[int, dict[str, Any]]:
    """The data of a GraphQL answer; its problems' pointers as a 422 would; 413 for an
    operation that selects too many fields."""
    r = http.post("/graphql", json={"query": text, "variables": variables})
    assert r.status_code == 200, r.text
    body = r.json()
    if body.get("errors"):
        if any(e.get("extensions", {}).get("limit") == "ARBITER_GRAPHQL_MAX_FIELDS"
               for e in body["errors"]):
            return 413, {}
        problems = [p for e in body["errors"] for p in e.get("extensions", {}).get("problems", [])]
        assert problems, body["errors"]
        return 422, {"pointers": sorted(p["pointer"] for p in problems)}
    return 200, body["data"]


# The live schema's types, asked once per server (the suite's server and a test's own
# may serve different rulesets).
_ARG_TYPES: dict[tuple[str, str, str], dict[str, str]] = {}
_TYPES: dict[str, dict[str, dict[str, Any]]] = {}


def _types(http: httpx.Client) -> dict[str, dict[str, Any]]:
    """The live schema's types by name."""
    server = str(http.base_url)
    if server not in _TYPES:
        data = http.post("/graphql", json={"query": TYPES_QUERY}).json()["data"]
        _TYPES[server] = {t["name"]: t for t in data["__schema"]["types"]}
    return _TYPES[server]


def _answer_type(http: httpx.Client, prefix: str, field: str) -> str:
    for f in _types(http)[prefix + "Questions"]["fields"]:
        if f["name"] == field:
            t = f["type"]
            while t.get("ofType"):
                t = t["ofType"]
            return str(t["name"])
    raise KeyError(field)


def _argument_types(http: httpx.Client, prefix: str, field: str) -> dict[str, str]:
    """The declared GraphQL types of a question's arguments, from introspection."""
    key = (str(http.base_url), prefix, field)
    if key not in _ARG_TYPES:
        text = ('{ __type(name: "' + prefix + 'Questions") { fields { name args { name '
                'type { kind name ofType { kind name ofType { kind name '
                'ofType { kind name } } } } } } } }')
        data = http.post("/graphql", json={"query": text}).json()["data"]["__type"]["fields"]
        for f in data:
            _ARG_TYPES[(key[0], prefix, f["name"])] = {
                a["name"]: _render(a["type"]) for a in f["args"]}
    return _ARG_TYPES[key]


def _render(t: dict[str, Any]) -> str:
    if t["kind"] == "NON_NULL":
        return _render(t["ofType"]) + "!"
    if t["kind"] == "LIST":
        return "[" + _render(t["ofType"]) + "]"
    return str(t["name"])


def _check(case: dict[str, Any], status: int, body: dict[str, Any]) -> None:
    expect = case["expect"]
    if isinstance(expect.get("status"), int):  # an HTTP status; a word is the answer's own
        assert status == expect["status"], body
        if "pointers" in expect:
            assert body["pointers"] == sorted(expect["pointers"])
        return
    assert status == 200, body
    if "query" in case:
        assert subset_mismatch(expect, body) is None, subset_mismatch(expect, body)
    else:
        assert check_outcome(expect, body) == []


def same_verdict(http: httpx.Client, ruleset: AnyRuleset, case: dict[str, Any],
                 engine: tuple[int, dict[str, Any]]) -> None:
    """The case over REST and over GraphQL meets its expectation and gives the engine's
    verdict: REST the engine's bytes, GraphQL the same with every declared param and
    derived fact present (null where the action has none)."""
    engine_status, engine_body = engine
    rest_status, rest_body = via_rest(http, case)
    gql_status, gql_body = via_graphql(http, ruleset, case, engine_body)
    for status, body in ((rest_status, rest_body), (gql_status, gql_body)):
        _check(case, status, body)
    assert rest_status == gql_status == engine_status
    if engine_status == 200 and "query" not in case:
        # REST answers the engine's bytes; GraphQL the same, every declared param and
        # derived fact present (null where the action has none).
        typed = typed_outcome(ruleset, engine_body)
        for body, expected in ((rest_body, engine_body), (gql_body, typed)):
            assert body["legal"] == engine_body["legal"]
            assert [v["code"] for v in body["violations"]] == \
                [v["code"] for v in engine_body["violations"]]
            assert body["state"] == engine_body["state"]
            assert body["state_hash"] == engine_body["state_hash"]
            assert [e["kind"] for e in body["events"]] == [e["kind"] for e in engine_body["events"]]
            assert body["violations"] == expected["violations"]
            assert body["events"] == expected["events"]
            assert body["derived"] == expected["derived"]
        assert rest_body == engine_body
    elif engine_status == 200:
        assert rest_body == engine_body
        typed = params_typed(ruleset, engine_body)
        assert subset_mismatch(gql_body, typed) is None, subset_mismatch(gql_body, typed)

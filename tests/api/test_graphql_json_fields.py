"""What stays the ``JSON`` scalar in GraphQL answers, and why: the live schema's output
fields typed ``JSON`` (at any depth of lists and non-nulls) must be exactly the allow-list
below, each with the reason its shape is open. A new ``dict[str, Any]`` in an answer model
fails here until it is typed (a model, a count map, a map of typed values) or justified."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from arbiter.rulesets import builtin_registry
from golden import pascal

# Output field -> why its shape is genuinely open.
ALLOWED_JSON: dict[str, str] = {
    "PatchOperation.value": "an RFC 6902 operation's value is any part of a state: a number, "
                            "a string, a unit, a whole list of hexes",
    "WhyNotChange.params": "what would change a why-not answer: its params differ by "
                           "change code and ruleset (docs/why-not.md lists them), and its "
                           "message carries them in words",
    **{f"{pascal(r.id)}Description.options": "a JSON Schema (of the ruleset's options), "
       "whose shape is the JSON Schema vocabulary's, open as REST's `options` is"
       for r in builtin_registry()},
    **{f"{pascal(r.id)}Description.catalogues": "each ruleset's own fixed game data (unit "
       "types, phases, decision kinds, dice), a map REST's model leaves open"
       for r in builtin_registry()},
}

QUERY = ("{ __schema { types { name kind fields { name type { kind name ofType { kind name "
         "ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } "
         "} } } } } }")


def _named(t: dict[str, Any]) -> str | None:
    while t.get("ofType"):
        t = t["ofType"]
    return t.get("name")


@pytest.mark.server
def test_json_output_fields_are_exactly_the_allowed_open_shapes(http: httpx.Client) -> None:
    types = http.post("/graphql", json={"query": QUERY}).json()["data"]["__schema"]["types"]
    assert any(t["name"] == "JSON" for t in types)
    found = sorted(f"{t['name']}.{f['name']}" for t in types
                   if t["kind"] == "OBJECT" and not t["name"].startswith("__")
                   for f in t["fields"] or [] if _named(f["type"]) == "JSON")
    assert found == sorted(ALLOWED_JSON)


@pytest.mark.server
def test_params_and_derived_are_typed_for_every_ruleset(http: httpx.Client) -> None:
    # The typed fields the allow-list leaves out, by name, so a rename cannot empty the
    # check above: every ruleset's violation and event params are a union (or one type)
    # of params types, and its Outcome's derived its derived model.
    text = ('{ rulesets { id } __schema { types { name kind fields { name type { kind name '
            'ofType { kind name ofType { kind name } } } } } } }')
    data = http.post("/graphql", json={"query": text}).json()["data"]
    types = {t["name"]: t for t in data["__schema"]["types"]}
    assert data["rulesets"]
    for ruleset in data["rulesets"]:
        prefix = "".join(p.capitalize() for p in ruleset["id"].split("_"))
        for owner, field, kinds in ((f"{prefix}Violation", "params", {"UNION", "OBJECT"}),
                                    (f"{prefix}Event", "params", {"UNION", "OBJECT"}),
                                    (f"{prefix}Outcome", "derived", {"OBJECT"})):
            typed = {f["name"]: _named(f["type"]) for f in types[owner]["fields"]}[field]
            assert typed is not None and types[typed]["kind"] in kinds, (owner, field, typed)

"""Loading golden cases and matching their expectations (see tests/cases/README.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CASES = Path(__file__).parent / "cases"


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(CASES.glob("*/**/*.json")):
        case = json.loads(path.read_text())
        name = path.relative_to(CASES).with_suffix("").as_posix()
        out.append((name, case | {"ruleset": _ruleset_of(path)}))
    return out


def _ruleset_of(path: Path) -> str:
    return path.relative_to(CASES).parts[0]


def subset_mismatch(expected: Any, actual: Any, where: str = "") -> str | None:
    """None when ``actual`` contains ``expected``; else a description of the first miss."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where or '/'}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{where}/{key}: missing"
            miss = subset_mismatch(value, actual[key], f"{where}/{key}")
            if miss:
                return miss
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{where or '/'}: expected {expected!r}, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            miss = subset_mismatch(e, a, f"{where}/{i}")
            if miss:
                return miss
        return None
    if expected != actual:
        return f"{where or '/'}: expected {expected!r}, got {actual!r}"
    return None


def check_outcome(expect: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    """Every way ``outcome`` (an Outcome as JSON) misses ``expect``."""
    misses = []
    if "legal" in expect and outcome["legal"] != expect["legal"]:
        misses.append(f"legal: expected {expect['legal']}, got {outcome['legal']} "
                      f"({[v['code'] for v in outcome['violations']]})")
    if "codes" in expect:
        codes = sorted(v["code"] for v in outcome["violations"])
        if codes != sorted(expect["codes"]):
            misses.append(f"codes: expected {sorted(expect['codes'])}, got {codes}")
    if "applied" in expect and outcome["applied"] != expect["applied"]:
        misses.append(f"applied: expected {expect['applied']}, got {outcome['applied']}")
    if "reversible" in expect and outcome["reversible"] != expect["reversible"]:
        misses.append(f"reversible: expected {expect['reversible']}, got {outcome['reversible']}")
    if "events" in expect:
        kinds = [e["kind"] for e in outcome["events"]]
        if kinds != expect["events"]:
            misses.append(f"events: expected {expect['events']}, got {kinds}")
    for key in ("state", "derived"):
        if key in expect:
            miss = subset_mismatch(expect[key], outcome.get(key), f"/{key}")
            if miss:
                misses.append(miss)
    return misses


# --- GraphQL: queries and answers for the cases ------------------------------------------

def camel(name: str) -> str:
    head, *rest = name.replace("-", "_").split("_")
    return head + "".join(p.capitalize() for p in rest)


def pascal(name: str) -> str:
    return "".join(p.capitalize() for p in name.replace("-", "_").split("_"))


OUTCOME_SELECTION = (
    "legal applied violations { code rule message params severity "
    "at { step region piece hex { q r } } } state events { kind rule message params } "
    "derived reversible stateHash")


# Every type of the live schema, by name, as introspection lists it (``selection``).
TYPES_QUERY = ("{ __schema { types { name kind possibleTypes { name } fields { name "
               "args { name } type { kind name ofType { kind name ofType { kind name ofType "
               "{ kind name ofType { kind name } } } } } } } } }")


def _named(t: dict[str, Any]) -> str:
    while t.get("ofType"):
        t = t["ofType"]
    return str(t["name"])


def selection(types: dict[str, dict[str, Any]], name: str) -> str:
    """The GraphQL selection set of every field of the output type ``name`` (fields that
    take arguments, such as ``Outcome.next``, left out; a union as one inline fragment per
    member), from the schema's introspection (``TYPES_QUERY``, by name)."""
    parts = []
    for field in types[name]["fields"]:
        if field["args"]:
            continue
        inner = types[_named(field["type"])]
        if inner["kind"] == "OBJECT":
            parts.append(f"{field['name']} {{ {selection(types, inner['name'])} }}")
        elif inner["kind"] == "UNION":
            members = " ".join(f"... on {m['name']} {{ {selection(types, m['name'])} }}"
                               for m in inner["possibleTypes"])
            parts.append(f"{field['name']} {{ {members} }}")
        else:
            parts.append(field["name"])
    return " ".join(parts)


def snake_keys(value: Any, model: Any) -> Any:
    """A GraphQL answer for ``model`` back as REST writes it (``graphql_types``)."""
    from arbiter.api.graphql_types import from_graphql

    return from_graphql(model, value)

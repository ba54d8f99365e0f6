"""Loading golden cases, running them in process, and matching their expectations (see
tests/cases/README.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from arbiter.cli.conformance import subset_miss
from arbiter.engine.errors import InvalidInput
from arbiter.engine.registry import AnyRuleset
from arbiter.service.problems import validation_problems

CASES = Path(__file__).parent / "cases"
M = TypeVar("M", bound=BaseModel)


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(CASES.glob("*/**/*.json")):
        case = json.loads(path.read_text())
        name = path.relative_to(CASES).with_suffix("").as_posix()
        out.append((name, case | {"ruleset": _ruleset_of(path)}))
    return out


def _ruleset_of(path: Path) -> str:
    return path.relative_to(CASES).parts[0]


def _parsed(model: type[M], value: Any, *root: str) -> M:
    """``model`` from ``value``, a refusal raised with the pointers REST would give."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        document = {root[0]: value} if root else value
        raise InvalidInput(validation_problems(exc, document, root)) from None


def run_engine(ruleset: AnyRuleset, case: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A case in process: (status, body) as REST answers it, a 422 as its sorted pointers
    (a state or action the models refuse too, at the pointers REST gives)."""
    try:
        if "query" in case:
            query = ruleset.queries[case["query"]]
            answer = query.run(_parsed(query.request, case["request"]))
            return 200, answer.model_dump(mode="json")
        state = _parsed(ruleset.state_model, case["state"], "state")
        action = _parsed(ruleset.action_model, case["action"], "action")
        outcome = ruleset.validate(state, action, case.get("mode", "strict"))
        # The service adds what it alone makes: a patch (asked for by ``return``) and the
        # resulting state's signature (when the service signs states).
        return 200, {**outcome.model_dump(mode="json"), "patch": None, "signature": None}
    except InvalidInput as exc:
        return 422, {"pointers": sorted(p.pointer for p in exc.problems)}


def expectation_misses(case: dict[str, Any], status: int, body: dict[str, Any]) -> list[str]:
    """Every way an answer, (status, body) as ``run_engine`` gives it, misses the case's
    ``expect``."""
    expect = case["expect"]
    if isinstance(expect.get("status"), int):  # an HTTP status; a word is the answer's own
        if status != expect["status"]:
            return [f"status: expected {expect['status']}, got {status}: {body}"]
        wanted = sorted(expect.get("pointers", body.get("pointers", [])))
        return [] if wanted == body["pointers"] else [f"pointers: {body['pointers']}"]
    if status != 200:
        return [f"status {status}: {body}"]
    if "query" in case:
        miss = subset_mismatch(expect, body)
        return [miss] if miss else []
    return check_outcome(expect, body)


def subset_mismatch(expected: Any, actual: Any, where: str = "") -> str | None:
    """None when ``actual`` contains ``expected``; else a description of the first miss.
    The conformance runner's own reading (``true`` is not ``1``), so the suite's golden
    cases and the published suite are matched the same way."""
    return subset_miss(expected, actual, where)


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


def _said(value: dict[str, Any]) -> tuple[str, str] | None:
    """("violation", its code), ("event", its kind) or ("result", its code) for a
    Violation, an Event or a phased_orders order result."""
    if "params" not in value:
        return None
    if "severity" in value and "code" in value:
        return "violation", value["code"]
    if "kind" in value and "at" in value:
        return "event", value["kind"]
    if "status" in value and "code" in value:
        return "result", value["code"]
    return None


def typed_params(model: Any, found: dict[str, Any] | None = None) -> dict[str, Any]:
    """The params models of every ``TypedParams`` field within ``model`` (an order
    result's, by its code), at any depth."""
    from typing import get_args

    from pydantic import BaseModel

    from arbiter.engine.catalogue import TypedParams

    found = {} if found is None else found
    stack, seen = [model], set()
    while stack:
        tp = stack.pop()
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp in seen:
                continue
            seen.add(tp)
            for info in tp.model_fields.values():
                for meta in info.metadata:
                    if isinstance(meta, TypedParams):
                        found |= meta.models()
                stack.append(info.annotation)
        else:
            stack.extend(get_args(tp))
    return found


def params_model(ruleset: Any, said: str, name: str) -> Any:
    """The params model of a violation code, an event kind or an order result's code."""
    if said == "result":
        return typed_params(ruleset.derived_model)[name]
    return ruleset.catalogue.params_model(said, name)


def _result_codes() -> frozenset[str]:
    from arbiter.rulesets.phased_orders.catalogue import RESULTS

    return frozenset(entry[0] for entry in RESULTS)


_RESULT_CODES = _result_codes()


def _shown(prefix: str, value: Any, found: dict[str, set[str]]) -> dict[str, set[str]]:
    """The params types of every violation and event in an answer, by union."""
    if isinstance(value, list):
        for v in value:
            _shown(prefix, v, found)
    elif isinstance(value, dict):
        said = _said(value)
        if said is not None:
            union = f"{prefix}{said[0].capitalize()}Params"
            # An order refused by a violation has the violation's params type.
            kind = "Violation" if said[0] == "result" and said[1] not in _RESULT_CODES \
                else said[0].capitalize()
            found.setdefault(union, set()).add(f"{prefix}{pascal(said[1])}{kind}Params")
        for v in value.values():
            _shown(prefix, v, found)
    return found


def answer_selection(types: dict[str, dict[str, Any]], prefix: str, name: str,
                     answer: Any, skip: frozenset[str] = frozenset()) -> str:
    """Every field of the answer type ``name`` (``selection``) but ``skip``; of the params
    types, those of the codes and kinds ``answer`` (the engine's) holds, as a client asks
    for the ones it shows (all of them at once exceed ARBITER_GRAPHQL_MAX_FIELDS)."""
    shown = {f"{prefix}{said}Params": set[str]() for said in ("Violation", "Event", "Result")}
    members = {k: frozenset(v) for k, v in _shown(prefix, answer, shown).items()}
    return selection(types, name, skip=skip, members=members)


def outcome_selections(types: dict[str, dict[str, Any]], prefix: str,
                       outcome: dict[str, Any]) -> list[str]:
    """Every field of a ruleset's Outcome but ``next`` (the questions about the next state)
    (``answer_selection``), in four parts (violations, events, derived, the rest) a client
    may ask apart when all of them at once exceed ARBITER_GRAPHQL_MAX_FIELDS."""
    apart = ("violations", "events", "derived")
    name = f"{prefix}Outcome"
    parts = [answer_selection(types, prefix, name, outcome, frozenset({"next", *apart}))]
    for field in apart:
        others = frozenset(f["name"] for f in types[name]["fields"]) - {field}
        parts.append(answer_selection(types, prefix, name, outcome, others))
    return parts


def params_as_rest(ruleset: Any, value: Any) -> Any:
    """A GraphQL answer (already snake_case: ``from_graphql``) with each violation's and
    event's params read by its code's params model, as REST writes them (a param the
    message does not have reads as null: compare with ``params_typed``)."""
    from arbiter.graphql.types import from_graphql

    if isinstance(value, list):
        return [params_as_rest(ruleset, v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: params_as_rest(ruleset, v) for k, v in value.items()}
    said = _said(value)
    if said is not None:
        sent = value["params"]
        out["params"] = {} if sent is None else from_graphql(
            params_model(ruleset, *said), sent)
    return out


def params_typed(ruleset: Any, value: Any) -> Any:
    """A REST answer with every declared param of each violation and event present (null
    where the message has none), as GraphQL answers it (``params_as_rest``)."""
    if isinstance(value, list):
        return [params_typed(ruleset, v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: params_typed(ruleset, v) for k, v in value.items()}
    said = _said(value)
    if said is not None:
        out["params"] = params_model(ruleset, *said).model_validate(
            value["params"]).model_dump(mode="json", by_alias=True)
    return out


def rest_outcome(ruleset: Any, answer: dict[str, Any]) -> dict[str, Any]:
    """A GraphQL Outcome (every field selected) as REST writes it: snake_case, params read
    by their codes' models, the derived facts by the ruleset's derived model. A param or a
    fact an answer does not have reads as null over GraphQL: compare with
    ``typed_outcome``."""
    from arbiter.engine.outcome import Outcome
    from arbiter.graphql.types import from_graphql

    out: dict[str, Any] = params_as_rest(ruleset, from_graphql(Outcome, unaliased(answer)))
    if ruleset.derived_model is not None:
        out["derived"] = params_as_rest(
            ruleset, from_graphql(ruleset.derived_model, unaliased(answer["derived"])))
    return out


def typed_outcome(ruleset: Any, outcome: dict[str, Any]) -> dict[str, Any]:
    """A REST Outcome with every declared param and derived fact present (null where the
    answer has none), as GraphQL answers it (``rest_outcome``)."""
    out: dict[str, Any] = params_typed(ruleset, outcome)
    if ruleset.derived_model is not None:
        out["derived"] = params_typed(ruleset, ruleset.derived_model.model_validate(
            outcome["derived"]).model_dump(mode="json"))
    return out


# Every type of the live schema, by name, as introspection lists it (``selection``):
# deprecated fields too, as they are still answered until they are removed.
TYPES_QUERY = ("{ __schema { types { name kind possibleTypes { name } "
               "fields(includeDeprecated: true) { name "
               "args { name } type { kind name ofType { kind name ofType { kind name ofType "
               "{ kind name ofType { kind name ofType { kind name ofType { kind name } } } } } "
               "} } } } } }")


def _named(t: dict[str, Any]) -> str:
    while t.get("ofType"):
        t = t["ofType"]
    return str(t["name"])


def selection(types: dict[str, dict[str, Any]], name: str,
              skip: frozenset[str] = frozenset(), aliased: frozenset[str] = frozenset(),
              members: dict[str, frozenset[str]] | None = None) -> str:
    """The GraphQL selection set of every field of the output type ``name`` (fields that
    take arguments, such as ``Questions.reachable``, and ``skip`` left out; a union as one
    inline fragment per member), from the schema's introspection (``TYPES_QUERY``, by
    name). Fields of one name but different types in two members of a union (a param
    ``units`` that is counts for one code, unit types for another) cannot be selected
    together as they are: those (``aliased``) are asked as ``units__<Type>: units``,
    which ``unaliased`` reads back. ``members``: by union (at any depth), the only members
    asked for (``__typename`` when none is)."""
    parts = []
    for field in types[name]["fields"]:
        if field["args"] or field["name"] in skip:
            continue
        if field["name"] in aliased:
            parts.append(f"{field['name']}__{name}: {_one_field(types, name, field)}")
            continue
        inner = types[_named(field["type"])]
        if inner["kind"] == "OBJECT":
            inside = selection(types, inner["name"], members=members)
            parts.append(f"{field['name']} {{ {inside} }}")
        elif inner["kind"] == "UNION":
            only = (members or {}).get(inner["name"])
            names = [m["name"] for m in inner["possibleTypes"]
                     if only is None or m["name"] in only]
            clashes = _clashes(types, names)
            fragments = " ".join(
                f"... on {m} {{ {selection(types, m, aliased=clashes, members=members)} }}"
                for m in names)
            parts.append(f"{field['name']} {{ {fragments or '__typename'} }}")
        else:
            parts.append(field["name"])
    return " ".join(parts)


def _one_field(types: dict[str, dict[str, Any]], name: str, field: dict[str, Any]) -> str:
    """One field of ``name`` with its selection (as ``selection`` would write it)."""
    single = {**types[name], "fields": [field]}
    return selection({**types, name: single}, name)


def _shape(t: dict[str, Any]) -> str:
    return str(t["kind"]) + ("(" + _shape(t["ofType"]) + ")" if t.get("ofType") else
                        ":" + str(t["name"]))


def _clashes(types: dict[str, dict[str, Any]], members: list[str]) -> frozenset[str]:
    """The field names that two members of a union give different types."""
    shapes: dict[str, set[str]] = {}
    for member in members:
        for field in types[member]["fields"]:
            shapes.setdefault(field["name"], set()).add(_shape(field["type"]))
    return frozenset(n for n, found in shapes.items() if len(found) > 1)


def unaliased(value: Any) -> Any:
    """An answer with the aliases ``selection`` gave clashing fields taken off."""
    if isinstance(value, list):
        return [unaliased(v) for v in value]
    if isinstance(value, dict):
        return {k.split("__")[0] if "__" in k and not k.startswith("__") else k: unaliased(v)
                for k, v in value.items()}
    return value


def snake_keys(value: Any, model: Any, ruleset: Any = None) -> Any:
    """A GraphQL answer for ``model`` back as REST writes it (``graphql_types``); with the
    ruleset, the params of its violations and events too (``params_as_rest``)."""
    from arbiter.graphql.types import from_graphql

    out = from_graphql(model, unaliased(value))
    return out if ruleset is None else params_as_rest(ruleset, out)

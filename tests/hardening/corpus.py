"""The bad-input corpus: hostile and malformed requests built from each ruleset's own
examples (``ruleset.examples`` and each query's ``examples``), for every endpoint. What a
mutation needs of a state (its first number, string or list, a field naming a player) is
found in the example itself, so any registered ruleset gets a corpus; the built-in ones
get mutations of their own shapes besides (duplicate ids, pieces off the board,
adjacency to nowhere).

Each ``Entry`` is the exact bytes to send, where, and the JSON pointer the answer must name
(``""``: the whole body, when it is not JSON at all; a pointer names a field or anything
below it). Kinds: truncated JSON, wrong types, NaN and Infinity, huge integers, duplicate
ids, pieces on hexes or regions that do not exist, adjacency to unknown regions,
asymmetric adjacency, unicode and very long ids, deeply nested JSON, and the body's own
shape (empty, not an object, unknown and missing fields, batches too small or too big).

``check_rest`` and ``check_graphql`` say what is wrong with the answer to an entry: a
4xx problem document naming the entry's pointer (GraphQL: an error whose
``extensions.problems`` name it, or a 400 problem when the body is not a GraphQL request).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from arbiter.engine.registry import Registry, Ruleset
from arbiter.graphql.types import to_graphql
from arbiter.service.contract import camel, example_body


@dataclass(frozen=True)
class Entry:
    name: str
    ruleset: str
    endpoint: str          # "validate", "validate-batch", a query name, or "graphql"
    body: bytes
    pointer: str           # the answer names this pointer, or one below it
    # A body that is not JSON at all (NaN, a number no parser reads): naming the whole
    # body ("") is right too.
    or_whole: bool = False

    @property
    def id(self) -> str:
        return f"{self.ruleset}/{self.endpoint}/{self.name}"


Mutation = Callable[[dict[str, Any]], tuple[dict[str, Any] | bytes, str] | None]


def _dump(value: Any) -> bytes:
    # The standard library writes integers of any size (orjson stops at 64 bits).
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _first_leaf(node: Any, kind: type, path: tuple[Any, ...] = ()
                ) -> tuple[Any, ...] | None:
    """Path to the first leaf of ``kind`` (depth first, bools aside)."""
    if isinstance(node, dict):
        items: Iterator[tuple[Any, Any]] = iter(node.items())
    elif isinstance(node, list):
        items = iter(enumerate(node))
    else:
        return path if isinstance(node, kind) and not isinstance(node, bool) else None
    for key, child in items:
        found = _first_leaf(child, kind, (*path, key))
        if found is not None:
            return found
    return None


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        doc = doc[key]
    doc[path[-1]] = value


def _ptr(path: tuple[Any, ...]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _raw_at(body: dict[str, Any], path: tuple[Any, ...], token: bytes) -> bytes:
    """The body serialised with the value at ``path`` replaced by raw ``token`` bytes
    (for what JSON cannot say: NaN, Infinity, numbers beyond any integer type)."""
    marker = "\x00MARK\x00"
    doc = copy.deepcopy(body)
    _set(doc, path, marker)
    return _dump(doc).replace(_dump(marker), token)


# -- mutations that apply to any body with a state ------------------------------------------

def _leaf_mutations() -> dict[str, Mutation]:
    def at_int(token: bytes) -> Mutation:
        def mutate(body: dict[str, Any]) -> tuple[bytes, str] | None:
            path = _first_leaf(body["state"], int, ("state",))
            return None if path is None else (_raw_at(body, path, token), _ptr(path))
        return mutate

    def int_to(value: Any) -> Mutation:
        def mutate(body: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
            path = _first_leaf(body["state"], int, ("state",))
            if path is None:
                return None
            doc = copy.deepcopy(body)
            _set(doc, path, value)
            return doc, _ptr(path)
        return mutate

    def str_to(value: Any) -> Mutation:
        def mutate(body: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
            path = _first_leaf(body["state"], str, ("state",))
            if path is None:
                return None
            doc = copy.deepcopy(body)
            _set(doc, path, value)
            return doc, _ptr(path)
        return mutate

    def first_list_to(value: Any) -> Mutation:
        def mutate(body: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
            key = next((k for k, v in body["state"].items() if isinstance(v, list)), None)
            if key is None:
                return None
            doc = copy.deepcopy(body)
            doc["state"][key] = value
            return doc, f"/state/{key}"
        return mutate

    def state_to(value: Any) -> Mutation:
        return lambda body: ({**body, "state": value}, "/state")

    def nested_in_first_list(depth: int) -> Mutation:
        def mutate(body: dict[str, Any]) -> tuple[bytes, str] | None:
            key = next((k for k, v in body["state"].items() if isinstance(v, list)), None)
            if key is None:
                return None
            token = b"[" * depth + b"]" * depth
            # Deeper than ARBITER_MAX_JSON_DEPTH (64): refused before any parser reads it,
            # at the place it goes past the bound (256 and more: orjson writes 255 levels,
            # a 500 before the bound).
            return _raw_at(body, ("state", key, 0), token), f"/state/{key}/0"
        return mutate

    return {
        "wrong-type-state-number": state_to(7),
        "wrong-type-state-list": state_to([]),
        "wrong-type-state-null": state_to(None),
        "wrong-type-int-as-string": int_to("seven"),
        "wrong-type-int-as-float": int_to(1.5),
        "wrong-type-int-as-bool-list": int_to([True]),
        # JSON's true is no count and "7" no number: pydantic's lax mode would take both
        # (schemathesis found `true` for a count accepted before REST parsed strictly).
        "wrong-type-int-as-bool": int_to(True),
        "wrong-type-int-as-numeric-string": int_to("7"),
        "wrong-type-string-as-object": str_to({"id": "x"}),
        "wrong-type-string-as-number": str_to(12),
        "wrong-type-list-as-string": first_list_to("hexes"),
        "wrong-type-list-as-object": first_list_to({"0": {}}),
        "nan": at_int(b"NaN"),
        "infinity": at_int(b"Infinity"),
        "minus-infinity": at_int(b"-Infinity"),
        "huge-integer-30-digits": int_to(10**30),
        "huge-integer-negative": int_to(-(10**30)),
        "huge-integer-400-digits": at_int(b"9" * 400),
        "huge-integer-5000-digits": at_int(b"9" * 5000),
        "huge-exponent": at_int(b"1e400"),
        "nested-json-100": nested_in_first_list(100),
        "nested-json-256": nested_in_first_list(256),
        "nested-json-1023": nested_in_first_list(1023),
        "nested-json-5000": nested_in_first_list(5000),
        "nested-json-100000": nested_in_first_list(100_000),
    }


def _body_mutations(endpoint: str) -> dict[str, Mutation]:
    out: dict[str, Mutation] = {
        "unknown-top-level-field": lambda body: ({**body, "surplus": {"a": [1]}}, "/surplus"),
        "unknown-state-field": lambda body: (
            {**body, "state": {**body["state"], "surplus": [[[]]]}}, "/state/surplus"),
        "missing-state": lambda body: ({k: v for k, v in body.items() if k != "state"},
                                       "/state"),
        "truncated-half": lambda body: (_dump(body)[: len(_dump(body)) // 2], ""),
        "truncated-one-byte-short": lambda body: (_dump(body)[:-1], ""),
        "empty-body": lambda body: (b"", ""),
        "not-an-object": lambda body: (_dump([body]), ""),
        "json-null": lambda body: (b"null", ""),
        "invalid-utf8": lambda body: (_dump(body)[:-1] + b"\xff\xfe}", ""),
        "trailing-garbage": lambda body: (_dump(body) + b" {}", ""),
    }
    if endpoint == "validate":
        out["wrong-type-action"] = lambda body: ({**body, "action": "maneuver"}, "/action")
        out["unknown-action-type"] = lambda body: (
            {**body, "action": {**body["action"], "type": "teleport"}}, "/action")
    if endpoint == "validate-batch":
        out["empty-batch"] = lambda body: ({**body, "actions": []}, "/actions")
        out["batch-over-limit"] = lambda body: ({**body, "actions": body["actions"] * 201},
                                                "/actions")
        out["bad-action-in-batch"] = lambda body: (
            {**body, "actions": [*body["actions"], {"type": "teleport"}]}, "/actions/1")
    return out


# -- mutations that need to know the ruleset's shapes ---------------------------------------

# Mutations whose bytes are not JSON (RFC 8259 has no NaN or Infinity) or hold a number
# beyond what a JSON parser reads (pydantic's parser stops at 4300 digits).
NOT_JSON = {"nan", "infinity", "minus-infinity", "huge-integer-400-digits",
            "huge-integer-5000-digits", "huge-exponent"}
LONG = "x" * 100_000
UNICODE = "红军‮①\u0301"
LONE_SURROGATE = b'"\\ud800"'


def _reference_path(state: dict[str, Any]) -> tuple[Any, ...] | None:
    """A field of the state that names one of its players by id: the first one the state
    lists after ``players`` (where states keep what the players own and whose turn it is),
    else the first one before it; None when the state has no players. Any ruleset's
    state answers it: the unknown, long and odd ids are sent there."""
    keys = list(state)
    if "players" not in keys:
        return None
    ids = {p["id"] for p in state["players"] if isinstance(p, dict) and "id" in p}
    at = keys.index("players")
    for key in keys[at + 1:] + keys[:at]:
        found = _reference_in(state[key], ids, ("state", key))
        if found is not None:
            return found
    return None


def _reference_in(node: Any, ids: set[Any], path: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """Path to the first string in ``node`` (depth first) that is one of ``ids``; an
    object's own ``id`` is its name, not a reference, and is passed over."""
    if isinstance(node, str):
        return path if node in ids else None
    items = (node.items() if isinstance(node, dict) else
             enumerate(node) if isinstance(node, list) else ())
    for key, child in items:
        if key == "id" and isinstance(node, dict):
            continue
        found = _reference_in(child, ids, (*path, key))
        if found is not None:
            return found
    return None


def _ruleset_mutations(ruleset: str, state: dict[str, Any]) -> dict[str, Mutation]:
    """The mutations that need the state's shape: ids sent where the state names a player
    (any ruleset), and each built-in ruleset's own (duplicate ids, pieces off the board,
    adjacency to nowhere)."""
    ref = _reference_path(state)

    def edit(fn: Callable[[dict[str, Any]], str]) -> Mutation:
        def mutate(body: dict[str, Any]) -> tuple[dict[str, Any], str]:
            doc = copy.deepcopy(body)
            return doc, fn(doc["state"])
        return mutate

    def reference_to(value: str) -> Mutation:
        def mutate(body: dict[str, Any]) -> tuple[dict[str, Any], str]:
            assert ref is not None
            doc = copy.deepcopy(body)
            _set(doc, ref, value)
            return doc, _ptr(ref)
        return mutate

    out: dict[str, Mutation] = {} if ref is None else {
        "unicode-id-unknown": reference_to(UNICODE),
        "very-long-id": reference_to(LONG),
        "empty-id": reference_to(""),
        "id-with-nul-and-newline": reference_to("red\x00\n"),
        "lone-surrogate-id": lambda body: (_raw_at(body, ref, LONE_SURROGATE), ""),
    }
    if ruleset == "hex_maneuver":
        def duplicate_army(state: dict[str, Any]) -> str:
            state["armies"].append(copy.deepcopy(state["armies"][0]))
            return f"/state/armies/{len(state['armies']) - 1}/id"

        def duplicate_hex(state: dict[str, Any]) -> str:
            state["hexes"].append(copy.deepcopy(state["hexes"][3]))
            return f"/state/hexes/{len(state['hexes']) - 1}"

        def army_off_board(state: dict[str, Any]) -> str:
            state["armies"][0]["hex"] = {"q": 40, "r": -7}
            return "/state/armies/0/hex"

        def army_on_huge_hex(state: dict[str, Any]) -> str:
            state["armies"][0]["hex"] = {"q": 10**18, "r": -(10**18)}
            return "/state/armies/0/hex"

        def unicode_army_id(state: dict[str, Any]) -> str:
            state["armies"][0]["id"] = LONG
            return "/state/armies/0/id"

        out |= {"duplicate-army-id": edit(duplicate_army),
                "duplicate-hex": edit(duplicate_hex),
                "army-on-hex-that-does-not-exist": edit(army_off_board),
                "army-on-hex-with-huge-coordinates": edit(army_on_huge_hex),
                "very-long-army-id": edit(unicode_army_id)}
    elif ruleset == "region_conquest":
        def duplicate_region(state: dict[str, Any]) -> str:
            state["regions"].append(copy.deepcopy(state["regions"][2]))
            return f"/state/regions/{len(state['regions']) - 1}/id"

        def tokens_off_board(state: dict[str, Any]) -> str:
            state["players"][1]["active"]["atlantis"] = 2
            return "/state/players/1/active/atlantis"

        def unknown_neighbour(state: dict[str, Any]) -> str:
            state["regions"][0]["adjacent"].append("atlantis")
            return f"/state/regions/0/adjacent/{len(state['regions'][0]['adjacent']) - 1}"

        def asymmetric(state: dict[str, Any]) -> str:
            # "hills" lists "sea", but "sea" no longer lists "hills".
            sea = state["regions"][0]
            sea["adjacent"] = [r for r in sea["adjacent"] if r != "hills"]
            return "/state/regions"

        def self_neighbour(state: dict[str, Any]) -> str:
            state["regions"][2]["adjacent"].append(state["regions"][2]["id"])
            return "/state/regions/2/adjacent"

        out |= {"duplicate-region-id": edit(duplicate_region),
                "tokens-on-region-that-does-not-exist": edit(tokens_off_board),
                "adjacency-to-unknown-region": edit(unknown_neighbour),
                "asymmetric-adjacency": edit(asymmetric),
                "region-adjacent-to-itself": edit(self_neighbour)}
    elif ruleset == "territory_conquest":
        def duplicate_territory(state: dict[str, Any]) -> str:
            state["territories"].append(copy.deepcopy(state["territories"][2]))
            return f"/state/territories/{len(state['territories']) - 1}/id"

        def pawns_off_board(state: dict[str, Any]) -> str:
            state["players"][0]["armies"]["atlantis"] = 1
            return "/state/players/0/armies/atlantis"

        def unknown_neighbour(state: dict[str, Any]) -> str:
            state["adjacent"].append(["south", "atlantis"])
            return f"/state/adjacent/{len(state['adjacent']) - 1}/1"

        def self_neighbour(state: dict[str, Any]) -> str:
            state["adjacent"].append(["south", "south"])
            return f"/state/adjacent/{len(state['adjacent']) - 1}"

        out |= {"duplicate-territory-id": edit(duplicate_territory),
                "pawns-on-territory-that-does-not-exist": edit(pawns_off_board),
                "adjacency-to-unknown-territory": edit(unknown_neighbour),
                "territory-adjacent-to-itself": edit(self_neighbour)}
    return out


def rest_corpus(registry: Registry, ruleset_id: str, endpoint: str) -> list[Entry]:
    ruleset = registry.get(ruleset_id)
    assert ruleset is not None
    example = example_body(ruleset, endpoint)
    assert example is not None, f"{ruleset_id}/{endpoint} has no example"
    mutations = {**_body_mutations(endpoint), **_leaf_mutations(),
                 **_ruleset_mutations(ruleset_id, example["state"])}
    entries = []
    for name, mutate in mutations.items():
        made = mutate(copy.deepcopy(example))
        if made is None:
            continue
        body, pointer = made
        raw = body if isinstance(body, bytes) else _dump(body)
        entries.append(Entry(name, ruleset_id, endpoint, raw, pointer,
                             or_whole=name in NOT_JSON))
    return entries


# -- GraphQL: the same states through the state scalar ---------------------------------------

def graphql_query(ruleset: Ruleset) -> str:
    """Judge the example action: the state is parsed, then compiled and checked."""
    field = camel(ruleset.id)[0].lower() + camel(ruleset.id)[1:]
    name = camel(ruleset.id)
    return (f"query($state: {name}State!, $action: {name}ActionInput!) {{ "
            f"{field}(state: $state) {{ validate(action: $action) {{ legal }} }} }}")


def graphql_corpus(registry: Registry, ruleset_id: str) -> list[Entry]:
    """The state mutations, sent as the ``$state`` variable of a GraphQL query; plus the
    body's own shape (not JSON, not an object, no query)."""
    ruleset = registry.get(ruleset_id)
    assert ruleset is not None
    query = graphql_query(ruleset)
    action = to_graphql(ruleset.action_model, ruleset.examples.action)
    example = {"query": query, "variables": {"state": copy.deepcopy(ruleset.examples.state),
                                             "action": action}}
    entries = []
    state = example["variables"]["state"]
    for name, mutate in {**_leaf_mutations(), **_ruleset_mutations(ruleset_id, state),
                         "unknown-state-field": _body_mutations("")["unknown-state-field"],
                         }.items():
        made = mutate(copy.deepcopy(example["variables"]))
        if made is None:
            continue
        body, pointer = made
        if isinstance(body, bytes):
            # The raw mutation of the variables: splice it in.
            raw = b'{"query":' + _dump(query) + b',"variables":' + body + b"}"
        else:
            raw = _dump({"query": query, "variables": body})
        # (too deep, or a string over ARBITER_MAX_JSON_STRING_BYTES: refused by the strict
        # reading, named in the body, under /variables)
        entries.append(Entry(name, ruleset_id, "graphql", raw, pointer, or_whole=(
            name in NOT_JSON or name.startswith("nested-json") or name.startswith("very-long"))))
    for name in ("truncated-half", "empty-body", "not-an-object", "json-null",
                 "invalid-utf8", "trailing-garbage"):
        body, pointer = _body_mutations("")[name](example)  # type: ignore[misc]
        entries.append(Entry(name, ruleset_id, "graphql",
                             body if isinstance(body, bytes) else _dump(body), pointer))
    entries.append(Entry("query-not-a-string", ruleset_id, "graphql",
                         _dump({"query": 7, "variables": example["variables"]}), ""))
    entries.append(Entry("variables-not-an-object", ruleset_id, "graphql",
                         _dump({"query": query, "variables": [1]}), ""))
    return entries


def is_under(pointer: str, expected: str) -> bool:
    """``pointer`` is ``expected`` or names something inside it."""
    return pointer == expected or (expected != "" and pointer.startswith(expected + "/"))


# -- judging an answer -------------------------------------------------------------------------

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

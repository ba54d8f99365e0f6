"""The scan of a body's depth, values and longest string (``service.json_bounds``) agrees
with a walk over the parsed document, strings full of brackets, commas, quotes and
escapes included, and a body over a bound is refused naming it."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.service.json_bounds import JsonBounds, measure, place
from arbiter.service.problems import LimitExceeded


def walked(node: Any) -> tuple[int, int, int]:
    """(depth, values, longest string as JSON writes it) by walking the document."""
    if isinstance(node, dict):
        inner = [walked(v) for v in node.values()]
        keys = [len(json.dumps(k, ensure_ascii=False)[1:-1].encode()) for k in node]
    elif isinstance(node, list):
        inner = [walked(v) for v in node]
        keys = []
    else:
        size = len(json.dumps(node, ensure_ascii=False)[1:-1].encode()) \
            if isinstance(node, str) else 0
        return 0, 1, size
    return (1 + max((d for d, _, _ in inner), default=0), 1 + sum(v for _, v, _ in inner),
            max([s for _, _, s in inner] + keys, default=0))


DOCUMENTS = [
    {"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION},
    [], {}, [[]], [{}], {"a": {}}, 7, "x", [1, [2, [3, [4]]], {"k": [{}]}],
    {"brackets": "[[[{{{", "commas": ",,,:::", "quote\"d": "a\\\"b\\\\", "": [""]},
    {"unicode": "é€𝄞", "escaped": "\n\t\u0001", "long": "y" * 300},
    [[[[[[[[[[["deep"]]]]]]]]]]],
]


@pytest.mark.parametrize("document", DOCUMENTS, ids=range(len(DOCUMENTS)))
@pytest.mark.parametrize("dumps", ["orjson", "spaced"])
def test_the_scan_agrees_with_a_walk(document: Any, dumps: str) -> None:
    body = orjson.dumps(document) if dumps == "orjson" else \
        json.dumps(document, indent=2, ensure_ascii=False).encode()
    depth, values, longest = walked(document)
    found = measure(body, string_cap=1 << 20, depth_cap=100)
    assert (found.depth, found.values, found.long_string) == (depth, values, False)
    assert measure(body, string_cap=longest, depth_cap=100).long_string is False
    if longest:
        assert measure(body, string_cap=longest - 1, depth_cap=100).long_string is True


def test_caps_count_one_past_them() -> None:
    found = measure(b'[[[["' + b"z" * 50 + b'"]]]]', string_cap=10, depth_cap=2)
    assert (found.depth, found.long_string) == (3, True)
    found = measure(b'["a\\"' + b"z" * 50 + b'"]', string_cap=10, depth_cap=2)
    assert found.long_string


def test_unbalanced_brackets_are_left_to_the_parser() -> None:
    assert measure(b"[[[", string_cap=10, depth_cap=2).depth == 0
    JsonBounds(max_depth=2).check(b"[[[")  # not refused here: not JSON


@pytest.mark.parametrize(("body", "limit", "status"), [
    (b"[" + b",".join([b"1"] * 11) + b"]", "ARBITER_MAX_JSON_VALUES", 413),
    (b'{"k":"' + b"s" * 65 + b'"}', "ARBITER_MAX_JSON_STRING_BYTES", 413),
    (b'{"' + b"k" * 65 + b'":1}', "ARBITER_MAX_JSON_STRING_BYTES", 413),
    (b"[" * 5 + b"]" * 5, "ARBITER_MAX_JSON_DEPTH", 422),
])
def test_over_a_bound_is_refused_naming_it(body: bytes, limit: str, status: int) -> None:
    bounds = JsonBounds(max_depth=4, max_values=10, max_string_bytes=64)
    with pytest.raises(LimitExceeded) as refused:
        bounds.check(body)
    assert (refused.value.limit, refused.value.status) == (limit, status)
    bounds.check(b'{"k":[[1,2],"' + b"s" * 64 + b'"]}')  # at every bound: read


def test_a_refusal_points_at_the_place() -> None:
    body = orjson.dumps({"state": {"hexes": [{"q": 1}, [[["deep"]]]], "id": "s" * 70}})
    assert place(body, depth_cap=4) == "/state/hexes/1/0"
    assert place(body, depth_cap=6) == ""
    assert place(body, string_cap=64) == "/state/id"
    key = orjson.dumps({"a/b": {"x": "y", "k" * 70: 1}})
    assert place(key, string_cap=64) == "/a~1b"  # a key: its object, never the key
    with pytest.raises(LimitExceeded) as refused:
        JsonBounds(max_depth=4).check(body)
    assert [p.pointer for p in refused.value.problems] == ["/state/hexes/1/0"]

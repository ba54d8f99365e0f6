"""JSON Patch answers: applied to the state the client sent, they give the new state."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.service.patch import applied, json_patch

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", "~/x"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["q", "r", "a/b", "~1", "units"]), inner, max_size=4),
    max_leaves=20)


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def apply(document: Any, operations: list[dict[str, Any]]) -> Any:
    """A strict RFC 6902 applier for add, remove and replace (the test's own)."""
    doc = copy.deepcopy(document)
    for op in operations:
        tokens = [_unescape(t) for t in op["path"].split("/")[1:]]
        if not tokens:
            assert op["op"] == "replace"
            doc = copy.deepcopy(op["value"])
            continue
        parent = doc
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last = tokens[-1]
        if isinstance(parent, list):
            index = int(last)
            if op["op"] == "add":
                assert 0 <= index <= len(parent)
                parent.insert(index, copy.deepcopy(op["value"]))
            elif op["op"] == "remove":
                del parent[index]
            else:
                parent[index] = copy.deepcopy(op["value"])
        else:
            if op["op"] == "add":
                parent[last] = copy.deepcopy(op["value"])
            elif op["op"] == "remove":
                del parent[last]
            else:
                assert last in parent
                parent[last] = copy.deepcopy(op["value"])
    return doc


@settings(max_examples=300)
@given(JSON, JSON)
def test_a_patch_applied_to_the_old_document_gives_the_new(before: Any, after: Any) -> None:
    assert apply(before, json_patch(before, after)) == after


def test_an_unchanged_document_needs_no_operation_and_a_change_names_its_place() -> None:
    state = {"armies": [{"id": "a1", "hex": {"q": 0, "r": 0}}], "rng": 7}
    assert json_patch(state, copy.deepcopy(state)) == []
    moved = {"armies": [{"id": "a1", "hex": {"q": 1, "r": 0}}], "rng": 7}
    assert json_patch(state, moved) == [{"op": "replace", "path": "/armies/0/hex/q",
                                         "value": 1}]
    assert json_patch({"a": [1, 2, 3]}, {"a": [1]}) == [
        {"op": "remove", "path": "/a/2"}, {"op": "remove", "path": "/a/1"}]
    assert json_patch({"x": 1}, {"x": True}) == [{"op": "replace", "path": "/x",
                                                 "value": True}]


def test_an_item_leaving_the_middle_of_a_list_is_one_remove() -> None:
    armies = [{"id": f"a{i}", "units": {"infantry": i}} for i in range(50)]
    after = armies[:20] + armies[21:]
    assert json_patch({"armies": armies}, {"armies": after}) == [
        {"op": "remove", "path": "/armies/20"}]
    joined = [*armies[:20], {"id": "b", "units": {"infantry": 1}}, *armies[20:]]
    assert json_patch({"armies": armies}, {"armies": joined}) == [
        {"op": "add", "path": "/armies/20", "value": {"id": "b", "units": {"infantry": 1}}}]
    # Equal in Python, not in JSON: still a change.
    assert json_patch([1, [1]], [True, [True]]) == [
        {"op": "replace", "path": "/0", "value": True},
        {"op": "replace", "path": "/1/0", "value": True}]


DEFAULTS = st.dictionaries(st.sampled_from(["d1", "d2", "d3"]), JSON, max_size=3)


@settings(max_examples=300, deadline=None)
@given(sent=st.dictionaries(st.sampled_from(["q", "r", "units"]), JSON, max_size=3),
       defaults=DEFAULTS, changed=DEFAULTS, after_sent=st.dictionaries(
           st.sampled_from(["q", "r", "units"]), JSON, max_size=3))
def test_defaults_never_sent_and_kept_stay_out_of_the_patch(
        sent: dict[str, Any], defaults: dict[str, Any], changed: dict[str, Any],
        after_sent: dict[str, Any]) -> None:
    # The state as read fills in ``defaults``; the resulting state keeps some of them and
    # changes others. Applied to the state as sent, read the same way, the patch gives it.
    filled = {**defaults, **sent}
    after = {**defaults, **changed, **after_sent}
    operations = json_patch(sent, after, filled)
    patched = apply(sent, operations)
    assert {**defaults, **patched} == after
    kept = [k for k in defaults if k not in changed]
    assert not [op for op in operations if op["path"].lstrip("/") in kept]
    assert applied(sent, operations) == patched  # (the service's applier, the test's)

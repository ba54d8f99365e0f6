"""Keys are exact: changing any single input that can change the answer changes the key,
and each tier's answer equals a fresh computation (hypothesis, random boards)."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rulesets.test_hex_maneuver import boards

from arbiter.cache.keys import cache_key
from arbiter.cache.memory import LruCache
from arbiter.cache.tiered import AnswerCache
from arbiter.rulesets import load
from arbiter.service.answer_cache import digest
from arbiter.service.configured import configured
from arbiter.settings import Settings

RULESET = load("hex_maneuver")
REACHABLE = RULESET.queries["reachable"]


def key_of(body: dict[str, Any]) -> str:
    """The key the REST route uses for this body, as a client would send it."""
    return cache_key(RULESET.id, RULESET.version, "reachable",
                     b"rest\0" + digest(orjson.dumps(body)))


def fresh(body: dict[str, Any]) -> bytes:
    return REACHABLE.run(REACHABLE.request.model_validate(body)).model_dump_json().encode()


@settings(max_examples=40, deadline=None)
@given(boards(), st.data())
def test_every_single_input_changes_the_key(state: dict[str, Any], data: st.DataObject
                                            ) -> None:
    body = {"state": state, "army": "a"}
    base = key_of(body)
    assert key_of(copy.deepcopy(body)) == base

    changed = copy.deepcopy(body)
    i = data.draw(st.integers(0, len(state["hexes"]) - 1))
    old = changed["state"]["hexes"][i]["terrain"]
    changed["state"]["hexes"][i]["terrain"] = "swamp" if old != "swamp" else "plains"
    assert key_of(changed) != base, "one hex's terrain"

    changed = copy.deepcopy(body)
    changed["state"]["structures"].append({"id": "new", "kind": "castle", "owner": "blue",
                                           "hex": {"q": 2, "r": -2}})
    assert key_of(changed) != base, "one blocker"

    assert key_of({**body, "march": False}) != base, "the budget"

    changed = copy.deepcopy(body)
    units = changed["state"]["armies"][0]["units"]
    first = sorted(units)[0]
    units[first] += 1
    assert key_of(changed) != base, "the unit mix"

    changed = copy.deepcopy(body)
    changed["state"]["hexes"].pop()
    assert key_of(changed) != base, "the topology"

    changed = copy.deepcopy(body)
    changed["state"]["options"] = {"free_own_structure_entries": 0}
    assert key_of(changed) != base, "an option"

    # The key covers the whole request, so a malformed twin never shares an answer.
    changed = copy.deepcopy(body)
    changed["state"]["players"][0]["voting_cubes"] = 5
    assert key_of(changed) != base, "anything else in the state"


@settings(max_examples=25, deadline=None)
@given(boards())
def test_memory_tier_answers_equal_fresh_computation(state: dict[str, Any]) -> None:
    body = {"state": state, "army": "a"}
    cache = AnswerCache(LruCache(100, 1 << 20))
    answerer = configured(Settings(), cache=cache)
    raw = orjson.dumps(body)

    async def twice() -> tuple[bytes, bytes]:
        first = await answerer.query(RULESET, REACHABLE, raw)
        second = await answerer.query(RULESET, REACHABLE, raw)
        return first, second

    first, second = asyncio.run(twice())
    assert first == second == fresh(body)
    assert len(cache.memory) == 1

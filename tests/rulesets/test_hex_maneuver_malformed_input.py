"""Malformed input to hex_maneuver is a 422 naming the JSON pointer of the bad field, never
another exception: unknown hexes, armies, units and relics, counts an army does not have,
a tile with a cell twice, a player who is not in the game, in validate and in the queries;
and a malformed state never shares an answer-cache key with a valid one."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rulesets.hex_maneuver_cases import alex_state, army, explore, grid, h, maneuver, state
from tests.rulesets.hex_maneuver_judging import RULESET, SOLID_TILE, codes, judge, pointers

from arbiter.engine.errors import InvalidInput


@pytest.mark.parametrize(("st", "act", "pointer"), [
    (state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0), (9, 9)]), "/action/path/1"),
    (state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0)], pickups=[{"army": "nope", "units": {"cavalrymen": 1}}]),
     "/action/pickups/0/army"),
    (state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                     army("r2", "red", (1, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0)], pickups=[{"army": "r2", "units": {"cavalrymen": 2}}]),
     "/action/pickups/0/units/cavalrymen"),
    (state(grid(2), [army("r1", "red", (0, 0), cavalrymen=2)]),
     maneuver("red", "r1", [(1, 0), (2, 0)], drops=[{"hex": h(1, 0), "units": {"archers": 1}}]),
     "/action/drops/0/units/archers"),
    (state(grid(2), [army("r1", "red", (0, 0), dragons=1)]),
     maneuver("red", "r1", [(1, 0)]), "/state/armies/0/units/dragons"),
    (state([*grid(1), {"q": 0, "r": 0, "terrain": "hills", "province": "home"}],
           [army("r1", "red", (0, 0), cavalrymen=1)]),
     maneuver("red", "r1", [(1, 0)]), "/state/hexes/7"),
    (alex_state(), explore("alex", "x1", [(2, 0)], tile={"id": "t", "hexes": [
        {"dq": 0, "dr": 0, "terrain": "plains"}, {"dq": 0, "dr": 0, "terrain": "hills"}]},
        rotation=0, event_card="e2"), "/action/tile/hexes/1"),
    (alex_state(), explore("alex", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2,
                           relic="excalibur", event_card="e2"), "/action/relic"),
    (alex_state(), explore("carl", "x1", [(2, 0)], tile=SOLID_TILE, rotation=2,
                           relic="crown", event_card="e2"), "/action/player"),
])
def test_malformed_input_names_the_bad_field(st: dict[str, Any], act: dict[str, Any],
                                             pointer: str) -> None:
    assert pointer in pointers(lambda: judge(st, act))


def test_two_pickups_from_one_army_cannot_take_more_than_it_has() -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                         army("r2", "red", (1, 0), cavalrymen=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0)],
                   pickups=[{"army": "r2", "units": {"cavalrymen": 1}},
                            {"army": "r2", "units": {"cavalrymen": 1}}])
    assert any(p.startswith("/action/pickups/1") for p in pointers(lambda: judge(st, act)))


def test_unknown_unit_with_zero_count_in_a_pickup_is_not_a_crash() -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1),
                         army("r2", "red", (1, 0), cavalrymen=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0)],
                   pickups=[{"army": "r2", "units": {"cavalrymen": 1, "dragons": 0}}])
    try:
        out = judge(st, act)
    except InvalidInput as err:
        assert all(p.pointer.startswith("/action/pickups/0/units") for p in err.problems)
    else:
        assert out.legal, codes(out)


def test_unknown_unit_with_zero_count_in_a_drop_is_not_a_crash() -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1, archers=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0)],
                   drops=[{"hex": h(1, 0), "units": {"dragons": 0}}])
    try:
        judge(st, act)
    except InvalidInput as err:
        assert all(p.pointer.startswith("/action/drops/0/units") for p in err.problems)


def test_a_drop_of_zero_units_forms_no_empty_army() -> None:
    st = state(grid(2), [army("r1", "red", (0, 0), cavalrymen=1, archers=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0)],
                   drops=[{"hex": h(1, 0), "units": {"archers": 0}}])
    try:
        out = judge(st, act)
    except InvalidInput as err:
        assert all(p.pointer.startswith("/action/drops/0/units") for p in err.problems)
    else:
        assert all(sum(a["units"].values()) > 0 for a in out.state["armies"])


def test_a_bad_drop_is_named_by_its_own_index() -> None:
    st = state(grid(3), [army("r1", "red", (0, 0), cavalrymen=2, archers=1)])
    act = maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)],
                   drops=[{"hex": h(2, 0), "units": {"cavalrymen": 1}},
                          {"hex": h(1, 0), "units": {"archers": 3}}])
    assert pointers(lambda: judge(st, act)) == ["/action/drops/1/units/archers"]


def test_query_input_errors_name_the_bad_field() -> None:
    st = state(grid(1), [army("r1", "red", (0, 0), cavalrymen=1)])
    reach, legal = RULESET.queries["reachable"], RULESET.queries["legal-actions"]
    cases = [
        (reach, {"state": st, "army": "r9"}, "/army"),
        (reach, {"state": st, "army": "r1", "units": {"cavalrymen": 2}}, "/units/cavalrymen"),
        (legal, {"state": st, "player": "green"}, "/player"),
    ]
    for query, body, pointer in cases:
        with pytest.raises(InvalidInput) as err:
            query.run(query.request.model_validate(body))
        assert pointer in [p.pointer for p in err.value.problems]



def test_a_malformed_state_never_shares_a_cache_key_with_a_valid_one() -> None:
    query = RULESET.queries["reachable"]
    good = query.request.model_validate({"state": alex_state(), "army": "x1"})
    bad = query.request.model_validate({"state": alex_state(relics={
        "total": 5, "to_place": 5, "bag": [], "placed": []}), "army": "x1"})
    query.run(good)
    with pytest.raises(InvalidInput):
        query.run(bad)
    # Through the cache: the valid answer is cached, the malformed twin still gets its 422.
    import asyncio

    import orjson

    from arbiter.cache.memory import LruCache
    from arbiter.cache.tiered import AnswerCache
    from arbiter.service.configured import configured
    from arbiter.settings import Settings

    service = configured(Settings(), cache=AnswerCache(LruCache(10, 1 << 20)))
    asyncio.run(service.query(RULESET, query, orjson.dumps(good.model_dump(mode="json"))))
    with pytest.raises(InvalidInput):
        asyncio.run(service.query(RULESET, query, orjson.dumps(bad.model_dump(mode="json"))))

"""hex_maneuver's ``reachable`` and ``legal-actions`` queries against costs worked out by
hand and against a brute force over every simple path judged by ``validate``: every hex
listed is one a maneuver (or an exploration) reaches legally at exactly the listed cost,
every hex such a path reaches is listed, and the whole army's legal maneuvers end exactly
there.

Geometry: axial (q, r), pointy-top; the neighbours of (0,0) are E (1,0), NE (1,-1),
NW (0,-1), W (-1,0), SW (-1,1), SE (0,1).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.rulesets.hex_maneuver_cases import army, explore, grid, maneuver, state
from tests.rulesets.hex_maneuver_judging import RULESET, Hex, city, codes, judge, tile

# Written out rather than taken from the engine, so the brute force shares no geometry
# with what it checks.
DIRS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbours(x: Hex) -> list[Hex]:
    return [(x[0] + dq, x[1] + dr) for dq, dr in DIRS]


ONE_HEX_TILE = tile("t-one", {(0, 0): "plains"})


def map_m(movers: list[dict[str, Any]], galley_depletion: int = 1) -> dict[str, Any]:
    """Radius-2 map: mountains (1,0) and (2,-1), swamp (0,1), sea (-1,0) and (-2,0), ocean
    (-2,1) and (-1,1); own city (1,-1), own castle on the mountains (2,-1); own galley on
    (-2,0); a blue army on (0,-1) and a blue city on (0,2); (2,0) is a one-hex unexplored
    province."""
    terrain = {(1, 0): "mountains", (2, -1): "mountains", (0, 1): "swamp", (-1, 0): "sea",
               (-2, 0): "sea", (-2, 1): "ocean", (-1, 1): "ocean"}
    hexes = [hx for hx in grid(2, terrain) if (hx["q"], hx["r"]) != (2, 0)]
    hexes.append({"q": 2, "r": 0, "province": "U", "explored": False})
    return state(hexes, [*movers, army("b1", "blue", (0, -1), swordsmen=1),
                         army("g", "red", (-2, 0), depletion=galley_depletion, galley=1)],
                 structures=[city("c1", "red", (1, -1)), city("k1", "red", (2, -1), "castle"),
                             city("bc", "blue", (0, 2))],
                 events={"deck": ["ev"], "rows": []})


def reachable(st: dict[str, Any], army_id: str, **extra: Any) -> Any:
    query = RULESET.queries["reachable"]
    return query.run(query.request.model_validate({"state": st, "army": army_id, **extra}))


def test_reachable_costs_worked_out_by_hand() -> None:
    # Swordsmen (2 MP, 3 on a march) on (0,0). Ferry zone of the depleted galley on (-2,0):
    # (-2,0), (-1,0), (-1,-1), (-2,1). The own city (1,-1) is free once; the castle on
    # mountains (2,-1) costs 1 when the city is paid (1 + 0) instead of 0 + 2.
    st = map_m([army("r1", "red", (0, 0), swordsmen=1)])
    answer = reachable(st, "r1")
    assert answer.movement_points == 2
    got = {(d.hex.q, d.hex.r): (d.cost, d.march, d.explore) for d in answer.destinations}
    expected = {
        (0, 0): 0, (1, -1): 0, (-1, 0): 0, (-2, 0): 0, (-2, 1): 0, (-1, -1): 0,
        (2, -1): 1, (2, -2): 1, (1, -2): 1, (0, -2): 1, (-2, 2): 1,
        (-1, 2): 2, (0, 1): 2, (1, 0): 2,
        (1, 1): 3,
    }
    want = {x: (c, c > 2, False) for x, c in expected.items()}
    want[(2, 0)] = (3, True, True)   # explore: castle (1) + unexplored (2)
    assert got == want
    # Blocked: the blue army (0,-1), the blue city (0,2), the ocean (-1,1) next to no vessel.


def brute_force(st: dict[str, Any], army_id: str, max_len: int = 6
                ) -> tuple[dict[Hex, int], dict[Hex, int]]:
    """Cheapest legal cost (on a march) of every hex the whole army can end a maneuver on,
    and of every hex it can claim in an exploration, over every simple path up to
    ``max_len`` hexes. Illegal prefixes are not extended: a step's violations stay and a
    path's cost never falls as it grows."""
    cells = {(hx["q"], hx["r"]) for hx in st["hexes"]}
    unexplored = {(hx["q"], hx["r"]) for hx in st["hexes"] if not hx.get("explored", True)}
    owner = next(a for a in st["armies"] if a["id"] == army_id)["owner"]
    start = next((a["hex"]["q"], a["hex"]["r"]) for a in st["armies"] if a["id"] == army_id)
    moves: dict[Hex, int] = {}
    explores: dict[Hex, int] = {}
    stack: list[list[Hex]] = [[]]
    while stack:
        walk = stack.pop()
        end = walk[-1] if walk else start
        if end in unexplored:
            out = judge(st, explore(owner, army_id, walk, tile=ONE_HEX_TILE, rotation=0,
                                    march=True))
            if out.legal:
                explores[end] = min(explores.get(end, 99), out.derived["cost"])
            continue
        out = judge(st, maneuver(owner, army_id, walk, march=True))
        if not out.legal:
            continue
        moves[end] = min(moves.get(end, 99), out.derived["cost"])
        if len(walk) < max_len:
            stack += [[*walk, n] for n in neighbours(end)
                      if n in cells and n not in walk and n != start]
    return moves, explores


MOVERS = {
    "swordsmen": ([army("r1", "red", (0, 0), swordsmen=1)], 1),
    "cavalry": ([army("r1", "red", (0, 0), cavalrymen=2)], 1),
    "peasants": ([army("r1", "red", (0, 0), peasants=1)], 1),
    "cavalry_and_catapult": ([army("r1", "red", (0, 0), cavalrymen=1, catapult=1)], 1),
    "unpacked_trebuchet": ([{**army("r1", "red", (0, 0), trebuchet=1), "unpacked": 1}], 1),
    "galley": ([army("r1", "red", (-1, 0), galley=1)], 0),
}


@pytest.mark.parametrize("mover", sorted(MOVERS))
def test_reachable_and_legal_actions_match_brute_force(mover: str) -> None:
    movers, galley_depletion = MOVERS[mover]
    st = map_m(movers, galley_depletion)
    before = json.dumps(st, sort_keys=True)
    answer = reachable(st, "r1")
    listed = {(d.hex.q, d.hex.r): d for d in answer.destinations}
    for at, d in listed.items():
        path = [p.model_dump() for p in d.path]
        if d.explore:
            out = judge(st, {**explore("red", "r1", [], tile=ONE_HEX_TILE, rotation=0),
                             "path": path, "march": d.march})
        else:
            out = judge(st, {**maneuver("red", "r1", []), "path": path, "march": d.march})
        assert out.legal, (at, codes(out))
        assert out.derived["cost"] == d.cost, at
        assert d.march == (d.cost > answer.movement_points), at
        end = (path[-1]["q"], path[-1]["r"]) if path else (movers[0]["hex"]["q"],
                                                           movers[0]["hex"]["r"])
        assert end == at
    moves, explores = brute_force(st, "r1")
    assert {x: d.cost for x, d in listed.items() if not d.explore} == moves
    assert {x: d.cost for x, d in listed.items() if d.explore} == explores

    query = RULESET.queries["legal-actions"]
    actions = query.run(query.request.model_validate({"state": st, "player": "red"})).actions
    by_army: dict[str, set[Hex]] = {}
    for action in actions:
        act = action.model_dump(mode="json")
        out = judge(st, act)
        assert out.legal, (act, codes(out))
        start = next((a["hex"]["q"], a["hex"]["r"]) for a in st["armies"]
                     if a["id"] == act["army"])
        if act["type"] != "maneuver" or act["units"] or act["drops"] or act["pickups"]:
            continue  # the whole army's maneuvers are what brute force finds
        by_army.setdefault(act["army"], set()).add(
            (act["path"][-1]["q"], act["path"][-1]["r"]) if act["path"] else start)
    assert by_army["r1"] == set(moves)
    if galley_depletion == 0:
        assert by_army["g"] == set(brute_force(st, "g")[0])
    assert json.dumps(st, sort_keys=True) == before


def test_reachable_lists_only_moves_that_validate_accepts_for_a_depleted_army() -> None:
    st = state(grid(1), [army("r1", "red", (0, 0), depletion=1, swordsmen=1)])
    for d in reachable(st, "r1").destinations:
        out = judge(st, {**maneuver("red", "r1", []),
                         "path": [p.model_dump() for p in d.path], "march": d.march})
        assert out.legal, codes(out)

"""How hex_maneuver carries land units over water: vessels stand only on water
(vessel.1); land units cross water only next to a vessel of their player, a chain of
vessels carrying them on, peasants wading into the sea (ferry.1-2, peasant_sea.1); and
land units are never stranded at sea out of a vessel's reach as the vessels stand when the
maneuver ends (ferry.1) — a property on random seas with galleys carrying land units,
splits, drops and pick-ups, and worked examples.

Every expected verdict is worked out by hand from the rules text (the source sentences
and the binding "Reading to implement"), never copied from the engine.

Geometry: axial (q, r), pointy-top; the neighbours of (0,0) are E (1,0), NE (1,-1),
NW (0,-1), W (-1,0), SW (-1,1), SE (0,1).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.rulesets.hex_maneuver_cases import (
    FLOWER,
    alex_state,
    army,
    explore,
    flower,
    grid,
    h,
    maneuver,
    state,
)
from tests.rulesets.hex_maneuver_judging import (
    Hex,
    armies_at,
    ask,
    codes,
    judge,
    pointers,
)

from arbiter.engine.errors import InvalidInput
from arbiter.engine.hexgrid import distance, neighbours, spiral

LAND_UNITS = ("peasants", "swordsmen", "archers")


# --- ferry.1: nobody stranded at sea, the property --------------------------------------

def stranded(result: dict[str, Any], player: str) -> list[tuple[Hex, str]]:
    """(hex, unit) for every land unit of ``player`` on water in ``result`` that no vessel
    of theirs is on or next to (peasants on a sea hex excepted): worked out from the
    Reading's sentence alone, with the default unit catalogue."""
    terrain = {(hx["q"], hx["r"]): hx.get("terrain") for hx in result["hexes"]}
    vessels = {(a["hex"]["q"], a["hex"]["r"]) for a in result["armies"]
               if a["owner"] == player and a["units"].get("galley", 0) > 0}
    out = []
    for a in result["armies"]:
        at = (a["hex"]["q"], a["hex"]["r"])
        if a["owner"] != player or terrain[at] not in ("sea", "ocean"):
            continue
        if any(distance(at, v) <= 1 for v in vessels):
            continue
        out += [(at, u) for u, c in a["units"].items() if c > 0 and u != "galley"
                and not (u == "peasants" and terrain[at] == "sea")]
    return out


@st.composite
def seas(draw: st.DrawFn) -> dict[str, Any]:
    """A radius-2 sea with a few islands. Red's army ``a`` on (0,0) is a galley carrying
    land units; other red galleys (some carrying land units), red land armies on islands
    and blue galleys stand about. Nobody starts stranded."""
    cells = spiral((0, 0), 2)
    terrain = {c: draw(st.sampled_from(("sea", "ocean", "ocean", "plains"))) for c in cells}
    terrain[(0, 0)] = draw(st.sampled_from(("sea", "ocean")))
    hexes = [{"q": q, "r": r, "terrain": terrain[(q, r)], "province": "p"} for q, r in cells]
    cargo = draw(st.dictionaries(st.sampled_from(LAND_UNITS), st.integers(1, 2), min_size=1,
                                 max_size=2))
    armies = [{"id": "a", "owner": "red", "hex": h(0, 0),
               "units": {"galley": draw(st.integers(1, 2)), **cargo}}]
    spots = draw(st.lists(st.sampled_from([c for c in cells if c != (0, 0)]), unique=True,
                          max_size=5))
    for i, spot in enumerate(spots):
        owner = draw(st.sampled_from(("red", "red", "blue")))
        if terrain[spot] == "plains":
            units = draw(st.dictionaries(st.sampled_from(LAND_UNITS), st.integers(1, 2),
                                         min_size=1, max_size=2))
        else:
            units = {"galley": 1, **draw(st.dictionaries(st.sampled_from(LAND_UNITS),
                                                         st.integers(1, 2), max_size=1))}
        armies.append({"id": f"x{i}", "owner": owner, "hex": h(*spot), "units": units,
                       "depletion": draw(st.sampled_from((0, 0, 1)))})
    return {"hexes": hexes, "players": [{"id": "red"}, {"id": "blue"}], "armies": armies}


def some(draw: st.DrawFn, units: dict[str, int]) -> dict[str, int]:
    picked = {u: draw(st.integers(0, c)) for u, c in units.items()}
    return {u: c for u, c in picked.items() if c > 0}


@st.composite
def moves(draw: st.DrawFn, sea: dict[str, Any]) -> dict[str, Any]:
    """A maneuver of army ``a``: a random walk, maybe a split, drops on the way and
    pick-ups from red armies the walk passes."""
    cells = {(hx["q"], hx["r"]) for hx in sea["hexes"]}
    path: list[Hex] = []
    at = (0, 0)
    for turn in draw(st.lists(st.integers(0, 5), min_size=1, max_size=5)):
        at = neighbours(at)[turn]
        if at not in cells:
            break
        path.append(at)
    mover = sea["armies"][0]["units"]
    units = some(draw, mover) if draw(st.booleans()) else dict(mover)
    act: dict[str, Any] = {"type": "maneuver", "player": "red", "army": "a",
                           "path": [h(*p) for p in path], "march": draw(st.booleans())}
    if units and units != mover:
        act["units"] = units
    passed = set(path)
    act["pickups"] = [{"army": a["id"], "units": picked} for a in sea["armies"][1:]
                      if a["owner"] == "red" and (a["hex"]["q"], a["hex"]["r"]) in passed
                      and draw(st.booleans()) and (picked := some(draw, a["units"]))]
    drops = []
    for _ in range(draw(st.sampled_from((0, 1, 1, 2))) if len(path) > 1 else 0):
        where = draw(st.sampled_from(path[:-1]))
        dropped = some(draw, {**mover, **{u: 2 for p in act["pickups"] for u in p["units"]}})
        if dropped:
            drops.append({"hex": h(*where), "units": dropped})
    act["drops"] = drops
    return act


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_legal_maneuver_leaves_land_units_at_sea_out_of_a_vessels_reach(
        data: st.DataObject) -> None:
    sea = data.draw(seas())
    assert stranded(sea, "red") == []
    act = data.draw(moves(sea))
    try:
        out = judge(sea, act)
    except InvalidInput:
        return  # counts the column does not carry: malformed, not a verdict
    if not out.legal:
        return
    assert out.state is not None
    assert stranded(out.state, "red") == [], (act, out.state["armies"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_reachable_for_a_split_fleet_lists_only_ends_validate_accepts(
        data: st.DataObject) -> None:
    # ``reachable`` and the judge share the rule: every listed end is legal, and a legal
    # maneuver without drops or pick-ups ends on a listed hex at no less than its cost.
    sea = data.draw(seas())
    mover = sea["armies"][0]["units"]
    units = some(data.draw, mover) or dict(mover)
    answer = ask("reachable", {"state": sea, "army": "a", "units": units})
    listed = {(d.hex.q, d.hex.r): d for d in answer.destinations}
    for at, d in listed.items():
        out = judge(sea, {**maneuver("red", "a", []), "units": units,
                          "path": [p.model_dump() for p in d.path], "march": d.march})
        assert out.legal, (at, codes(out))
        assert out.state is not None and stranded(out.state, "red") == []
    act = {**data.draw(moves(sea)), "units": units, "drops": [], "pickups": []}
    out = judge(sea, act)
    if out.legal:
        end = (act["path"][-1]["q"], act["path"][-1]["r"]) if act["path"] else (0, 0)
        assert end in listed, (act, sorted(listed))
        assert listed[end].cost <= out.derived["cost"]


# --- ferry.1: nobody stranded at sea, worked examples -----------------------------------

OCEAN = {(q, r): "ocean" for q in range(-3, 4) for r in range(-3, 4)}


def test_a_galley_may_sail_one_hex_from_the_swordsmen_it_leaves() -> None:
    # The split leaves the swordsmen on (0,0): a galley on (1,0) is next to them, on (2,0)
    # it is not.
    st_ = state(grid(3, OCEAN), [army("r1", "red", (0, 0), galley=1, swordsmen=1)])
    near = judge(st_, maneuver("red", "r1", [(1, 0)], units={"galley": 1}))
    assert near.legal, codes(near)
    far = judge(st_, maneuver("red", "r1", [(1, 0), (2, 0)], units={"galley": 1}))
    assert codes(far) == ["stranded_at_sea"]
    [violation] = far.violations
    assert violation.rule == "hex_maneuver/ferry.1"
    assert violation.params == {"units": {"swordsmen": 1}, "hex": h(0, 0), "terrain": "ocean"}
    assert violation.at.piece == "r1"


def test_another_vessel_keeps_the_dropped_units_in_reach() -> None:
    # A second galley on (-1,1) (depleted: it ferries all the same) stands next to the
    # drop hex (-1,0) when the maneuver ends.
    st_ = state(grid(3, OCEAN), [army("r1", "red", (-2, 0), galley=1, swordsmen=1),
                                 army("g2", "red", (-1, 1), depletion=1, galley=1)])
    out = judge(st_, maneuver("red", "r1", [(-1, 0), (0, 0), (1, 0), (2, 0)],
                              drops=[{"hex": h(-1, 0), "units": {"swordsmen": 1}}]))
    assert out.legal, codes(out)


def test_picking_up_the_vessel_beside_the_dropped_units_strands_them() -> None:
    # The swordsmen are dropped on (-1,0) beside red galley g2 on (0,0), which the column
    # then picks up and carries to (2,0): as the vessels stand at the end, nobody is near.
    st_ = state(grid(3, OCEAN), [army("r1", "red", (-2, 0), galley=1, swordsmen=1),
                                 army("g2", "red", (0, 0), galley=1)])
    act = maneuver("red", "r1", [(-1, 0), (0, 0), (1, 0), (2, 0)],
                   drops=[{"hex": h(-1, 0), "units": {"swordsmen": 1}}],
                   pickups=[{"army": "g2", "units": {"galley": 1}}])
    assert codes(judge(st_, act)) == ["stranded_at_sea"]
    # Picking up its passengers' galley from another army leaves them stranded too.
    st_ = state(grid(3, OCEAN), [army("r1", "red", (-2, 0), galley=1),
                                 army("g2", "red", (-1, 0), galley=1, archers=1)])
    act = maneuver("red", "r1", [(-1, 0), (0, 0), (1, 0)],
                   pickups=[{"army": "g2", "units": {"galley": 1}}])
    out = judge(st_, act)
    assert codes(out) == ["stranded_at_sea"]
    assert out.violations[0].params["units"] == {"archers": 1}


def test_walking_into_the_sea_unferried_is_reported_once() -> None:
    # The step itself is refused (water_needs_ferry); the end on that hex is the same fault.
    st_ = state(grid(2, {(1, 0): "sea"}), [army("r1", "red", (0, 0), swordsmen=1)])
    assert codes(judge(st_, maneuver("red", "r1", [(1, 0)]))) == ["water_needs_ferry"]


def test_stranding_is_applied_in_advisory_mode_with_a_warning() -> None:
    # A stranded unit is a legal position of the pieces, only an illegal maneuver.
    st_ = state(grid(3, OCEAN), [army("r1", "red", (0, 0), galley=1, swordsmen=1)])
    out = judge(st_, maneuver("red", "r1", [(1, 0), (2, 0)], units={"galley": 1}),
                "advisory")
    assert out.applied and [v.severity for v in out.violations] == ["warning"]


def split_fleet_explore_state() -> dict[str, Any]:
    """A galley carrying swordsmen on the home sea (-1,1); the unexplored P2 (centre
    (2,1)) is reached over the sea (0,1): its claimed hex (1,1) is 2 hexes from (-1,1)."""
    st_ = alex_state(armies=[army("g", "alex", (-1, 1), galley=1, swordsmen=1)])
    st_["hexes"] = flower((0, 0), "home", {(-1, 1): "sea", (0, 1): "sea"}) + flower(
        (2, 1), "P2", explored=False)
    return st_


def test_a_galley_that_explores_away_from_its_swordsmen_strands_them_if_it_lands() -> None:
    st_ = split_fleet_explore_state()
    lagoon = {"id": "t-lagoon", "hexes": [{"dq": dq, "dr": dr, "terrain": "sea"}
                                          for dq, dr in FLOWER]}
    plains = {"id": "t-plains", "hexes": [{"dq": dq, "dr": dr, "terrain": "plains"}
                                          for dq, dr in FLOWER]}
    act = explore("alex", "g", [(0, 1), (1, 1)], units={"galley": 1}, event_card="e2")
    out = judge(st_, {**act, "tile": lagoon})
    assert out.derived["landed"] is True
    assert codes(out) == ["stranded_at_sea"]
    # A plains tile: the galley cannot land and stays beside its swordsmen (explore.5).
    out = judge(st_, {**act, "tile": plains})
    assert out.legal, codes(out)
    assert out.derived["landed"] is False


def test_legal_actions_of_a_fleet_strand_nobody() -> None:
    # A galley carrying swordsmen keeps them aboard wherever it goes; splits and drops
    # that would leave them at sea are not listed.
    st_ = state(grid(2, OCEAN), [army("r1", "red", (0, 0), galley=1, swordsmen=1)])
    answer = ask("legal-actions", {"state": st_, "player": "red"})
    whole = [a for a in answer.actions if a.units is None and not a.drops and not a.pickups]
    assert len(whole) == 19  # every hex of the radius-2 ocean, staying put included
    for action in answer.actions:
        out = judge(st_, action.model_dump(mode="json"))
        assert out.legal and out.state is not None and stranded(out.state, "red") == []



# --- vessel.1: vessels stand only on water ----------------------------------------------

def test_a_vessel_on_land_is_malformed_for_every_question() -> None:
    st_ = state(grid(1), [army("r1", "red", (0, 0), swordsmen=1),
                          army("g1", "red", (1, 0), galley=2, archers=1)])
    want = ["/state/armies/1/units/galley"]
    assert pointers(lambda: judge(st_, maneuver("red", "r1", []))) == want
    assert pointers(lambda: ask("reachable", {"state": st_, "army": "r1"})) == want
    assert pointers(lambda: ask("legal-actions", {"state": st_, "player": "red"})) == want


def test_what_counts_as_a_vessel_follows_the_unit_catalogue() -> None:
    # A state may override or add unit types: a raft of class vessel is a vessel, and a
    # "galley" redefined as infantry is not.
    st_ = state(grid(1), [army("r1", "red", (0, 0), raft=1, galley=1)],
                unit_types={"raft": {"unit_class": "vessel", "movement": 2},
                            "galley": {"unit_class": "infantry", "movement": 2}})
    assert pointers(lambda: judge(st_, maneuver("red", "r1", []))) == [
        "/state/armies/0/units/raft"]
    # A pile of zero galleys is no galley.
    st_ = state(grid(1), [army("r1", "red", (0, 0), galley=0, swordsmen=1)])
    assert judge(st_, maneuver("red", "r1", [])).legal


def test_a_galley_left_on_land_in_advisory_mode_is_not_applied() -> None:
    # vessel.1: ending on the plains would make a state that is no state of the game, so
    # advisory mode cannot apply it; sailing across land and ending at sea it can.
    terrain = {(0, 0): "sea", (2, 0): "sea"}
    st_ = state(grid(2, terrain), [army("g1", "red", (0, 0), galley=1)])
    ashore = judge(st_, maneuver("red", "g1", [(1, 0)]), "advisory")
    assert codes(ashore) == ["vessel_off_water"] and not ashore.applied
    across = judge(st_, maneuver("red", "g1", [(1, 0), (2, 0)]), "advisory")
    assert codes(across) == ["vessel_off_water"] and across.applied
    dropped = judge(st_, maneuver("red", "g1", [(1, 0), (2, 0)], units={"galley": 1}),
                    "advisory")
    assert dropped.applied
    st_["armies"][0]["units"] = {"galley": 2}
    left = judge(st_, maneuver("red", "g1", [(1, 0), (2, 0)],
                               drops=[{"hex": h(1, 0), "units": {"galley": 1}}]), "advisory")
    assert codes(left) == ["vessel_off_water"] and not left.applied



# --- ferry.1-2, peasant_sea.1: crossing the water ---------------------------------------

def test_a_chain_of_vessels_carries_land_units_across_the_water() -> None:
    water = {(1, 0): "sea", (2, 0): "sea", (3, 0): "sea", (1, 1): "sea", (3, -1): "sea"}
    fleet = [army("g1", "red", (1, 1), galley=1), army("g2", "red", (3, -1), depletion=1,
                                                       galley=1)]
    st_ = state(grid(3, water), [army("r1", "red", (0, 0), swordsmen=1), *fleet])
    out = judge(st_, maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)]))
    assert out.legal, codes(out)
    assert out.derived["cost"] == 0
    # Without the second (depleted) galley, (3,0) is next to no vessel.
    st_["armies"] = st_["armies"][:2]
    assert codes(judge(st_, maneuver("red", "r1", [(1, 0), (2, 0), (3, 0)]))) == [
        "water_needs_ferry"]


def test_an_enemy_vessel_does_not_ferry() -> None:
    st_ = state(grid(2, {(1, 0): "sea", (1, 1): "sea"}),
               [army("r1", "red", (0, 0), swordsmen=1), army("bg", "blue", (1, 1), galley=1)])
    assert codes(judge(st_, maneuver("red", "r1", [(1, 0)]))) == ["water_needs_ferry"]


def test_peasants_wade_into_the_sea_for_two_and_into_the_ocean_only_by_ferry() -> None:
    st_ = state(grid(2, {(1, 0): "sea"}), [army("p1", "red", (0, 0), peasants=1)])
    act = maneuver("red", "p1", [(1, 0), (2, 0)])
    assert codes(judge(st_, act)) == ["over_movement_points"]  # 2 + 1 > 2
    out = judge(st_, {**act, "march": True})
    assert out.legal and out.derived["cost"] == 3
    assert armies_at(out, (2, 0))[0]["depletion"] == 2
    st_ = state(grid(2, {(1, 0): "ocean", (2, 0): "ocean"}),
               [army("p1", "red", (0, 0), peasants=1), army("g1", "red", (2, 0), galley=1)])
    out = judge(st_, maneuver("red", "p1", [(1, 0)]))
    assert out.legal and out.derived["cost"] == 0


def test_vessels_do_not_cross_unexplored_or_land_hexes() -> None:
    hexes = [{"q": 0, "r": 0, "terrain": "sea", "province": "w"},
             {"q": 1, "r": 0, "province": "U", "explored": False},
             {"q": 2, "r": 0, "terrain": "sea", "province": "w"},
             {"q": 1, "r": -1, "terrain": "plains", "province": "w"},
             {"q": 2, "r": -1, "terrain": "sea", "province": "w"}]
    st_ = state(hexes, [army("g1", "red", (0, 0), galley=1)])
    assert "unexplored_needs_explore" in codes(judge(st_, maneuver("red", "g1",
                                                                  [(1, 0), (2, 0)])))
    assert codes(judge(st_, maneuver("red", "g1", [(1, -1), (2, -1)]))) == ["vessel_off_water"]


def test_a_vessel_dropped_along_the_way_ferries_the_units_that_go_on() -> None:
    st_ = state(grid(2, {(0, 0): "sea", (1, 0): "sea", (2, 0): "sea"}),
               [army("g1", "red", (0, 0), galley=1, swordsmen=1)])
    out = judge(st_, maneuver("red", "g1", [(1, 0), (2, 0)],
                             drops=[{"hex": h(1, 0), "units": {"galley": 1}}]))
    assert out.legal, codes(out)


def test_a_vessel_ferries_until_it_is_picked_up() -> None:
    st_ = state(grid(3, {(1, 0): "sea", (2, 0): "sea", (3, 0): "sea"}),
               [army("s1", "red", (0, 0), swordsmen=1), army("g1", "red", (2, 0), galley=1)])
    out = judge(st_, maneuver("red", "s1", [(1, 0), (2, 0), (3, 0)],
                             pickups=[{"army": "g1", "units": {"galley": 1}}]))
    assert out.legal, codes(out)

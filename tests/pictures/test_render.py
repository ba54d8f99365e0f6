"""The ``render`` query's golden cases, one per ruleset and overlay: each SVG parses as XML
and holds what the case expects (places, pieces, shades, paths, notes, arrows, violation
marks where they occur), and every picture is accessible (``<title>`` and ``<desc>`` on
the picture and on each piece). Also: the same request always gives the same bytes, and
a state too big to draw is a problem naming the render limit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest

from arbiter.engine.errors import InvalidInput
from arbiter.engine.registry import AnyRuleset
from arbiter.pictures import palette
from arbiter.pictures.draw import _wrap as legend_lines
from arbiter.pictures.render import MAX_CELLS, MAX_NODES, pictured
from arbiter.rulesets import builtin_registry
from arbiter.rulesets.area_movement.examples import EXAMPLE_ACTION as AREA_ACTION
from arbiter.rulesets.area_movement.examples import EXAMPLE_STATE as AREA
from arbiter.rulesets.area_movement.queries import AreaMovementReachableRequest
from arbiter.rulesets.area_movement.queries import run_reachable as run_area_reachable
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_STATE as HEX
from arbiter.rulesets.hex_maneuver.queries import HexManeuverReachableRequest, run_reachable
from arbiter.rulesets.phased_orders import RULESET as PHASED_ORDERS
from arbiter.rulesets.phased_orders.examples import EXAMPLE_ACTION as TURN
from arbiter.rulesets.phased_orders.examples import EXAMPLE_STATE as VALLEY
from arbiter.rulesets.phased_orders.queries import PhasedOrdersResolveRequest, run_resolve
from arbiter.rulesets.region_conquest.examples import EXAMPLE_STATE as REGIONS
from arbiter.rulesets.region_conquest.queries import RegionConquestCostRequest, run_conquest_cost
from arbiter.rulesets.territory_conquest.examples import EXAMPLE_ACTION as TERRITORY_ACTION
from arbiter.rulesets.territory_conquest.examples import EXAMPLE_STATE as TERRITORIES
from arbiter.rulesets.territory_conquest.queries import (
    TerritoryConquestConquestCostRequest,
)
from arbiter.rulesets.territory_conquest.queries import (
    run_conquest_cost as run_territory_cost,
)
from toy.tic_tac_toe import RULESET as TOY
from toy.tic_tac_toe.examples import EXAMPLE_STATE as GRID
from toy.tic_tac_toe.scene import PICTURE as TOY_PICTURE

REGISTRY = builtin_registry()
SVG = "{http://www.w3.org/2000/svg}"


def ruleset(ruleset_id: str) -> AnyRuleset:
    if ruleset_id == TOY.id:
        return pictured(TOY, TOY_PICTURE)
    found = REGISTRY.get(ruleset_id)
    assert found is not None
    return found


def render(ruleset_id: str, body: dict[str, Any]) -> str:
    query = ruleset(ruleset_id).queries["render"]
    answer: Any = query.run(query.request.model_validate(body))
    return str(answer.svg)


class Picture:
    """A parsed picture and the questions the cases ask of it."""

    def __init__(self, svg: str) -> None:
        self.root = ET.fromstring(svg)

    def all(self, cls: str) -> list[ET.Element]:
        return [e for e in self.root.iter() if cls in (e.get("class") or "").split()]

    def attr(self, cls: str, name: str) -> list[str]:
        return [e.get(name) or "" for e in self.all(cls)]

    def text(self, cls: str) -> str:
        return " ".join("".join(e.itertext()) for e in self.all(cls))


def check_accessible(picture: Picture) -> None:
    root = picture.root
    assert root.tag == SVG + "svg" and root.get("role") == "img"
    assert [c.tag for c in root[:2]] == [SVG + "title", SVG + "desc"]
    assert root.get("aria-labelledby") == "arbiter-title arbiter-desc"
    for piece in picture.all("piece"):
        tags = [c.tag for c in piece]
        assert tags[:2] == [SVG + "title", SVG + "desc"], piece.get("data-piece")
        assert (piece[0].text or "").strip() and (piece[1].text or "").strip()


def hex_maneuver_board(p: Picture) -> None:
    assert len(p.all("cell")) == len(HEX["hexes"]) == 19
    assert set(p.attr("piece", "data-piece")) == {"red-1", "red-fleet", "blue-1", "red-city"}
    assert "(0,-1) mountains, province home" in p.text("cell")
    assert json.loads(p.all("piece")[0].get("data-select") or "") == \
        {"reachable": {"army": "red-1"}}


def hex_maneuver_reachable(p: Picture) -> None:
    answer = run_reachable(HexManeuverReachableRequest(state=HEX, army="red-1"))
    assert sorted(p.attr("shade", "data-at")) == sorted(
        f"{d.hex.q},{d.hex.r}" for d in answer.destinations)
    actions = [json.loads(a) for a in p.attr("shade", "data-action")]
    assert all(a["army"] == "red-1" and a["type"] in ("maneuver", "explore") for a in actions)
    assert len(p.all("path")) == 1 and "one cheapest path" in p.text("path")
    assert "reachable by red-1 with" in p.text("legend")


def hex_maneuver_illegal(p: Picture) -> None:
    marks = dict(zip(p.attr("mark", "data-code"), p.attr("mark", "data-at"), strict=True))
    assert marks == {"enemy_at_destination": "2,0", "over_movement_points": "2,0"}
    assert set(p.attr("mark", "data-rule")) == {"hex_maneuver/maneuver.2",
                                                 "hex_maneuver/movement.1"}
    assert len(p.all("arrow")) == 1
    assert "the action is illegal: 2 violation(s)" in p.text("legend")
    written_whole(p)


def written_whole(p: Picture) -> None:
    """Each violation written whole in the legend's lines (not only in their tooltips)."""
    [legend] = p.all("legend")
    written = "".join(e.text or "" for e in legend.iter() if e.tag == SVG + "text")
    assert "…" not in written and p.all("mark")
    for mark in p.all("mark"):
        assert (mark[0].text or "").replace(" ", "") in written.replace(" ", "")


def region_conquest_board(p: Picture) -> None:
    assert p.attr("node", "data-node") == ["sea", "hills", "farmland", "forest", "mountain"]
    assert len(p.all("edge")) == 7
    assert set(p.attr("piece", "data-piece")) == {"lost-tribe@hills", "elves@farmland",
                                                  "orcs-hand", "elves-hand"}


def region_conquest_costs(p: Picture) -> None:
    answer = run_conquest_cost(RegionConquestCostRequest(state=REGIONS, player="orcs"))
    costs = {c.region: c for c in answer.costs}
    # The sea is not conquered: no cost written there.
    assert [e.text for e in p.all("note")] == [f"cost {c.total}" for c in answer.costs
                                               if c.region != "sea"]
    shaded = set(p.attr("shade", "data-at"))
    assert shaded == {r for r, c in costs.items() if not c.blocked_by and c.affordable}
    assert {"hills", "mountain", "forest"} <= shaded and "farmland" not in shaded
    assert {json.loads(a)["type"] for a in p.attr("shade", "data-action")} == {"conquer"}


def region_conquest_illegal(p: Picture) -> None:
    assert p.attr("mark", "data-at") and set(p.attr("mark", "data-at")) == {"farmland"}
    assert "region_conquest/first.1" in p.attr("mark", "data-rule")


def territory_conquest_costs(p: Picture) -> None:
    answer = run_territory_cost(TerritoryConquestConquestCostRequest(state=TERRITORIES,
                                                                     player="red"))
    route = "with_double_move" if answer.holds_double_move else "without_double_move"
    feasible = {t.territory for t in answer.targets if getattr(t, route).feasible
                and t.status.value in ("neutral", "enemy")}
    assert set(p.attr("shade", "data-at")) == feasible and feasible
    assert "needs 3" in p.text("note")
    assert {json.loads(a)["type"] for a in p.attr("shade", "data-action")} == {"move"}


def territory_conquest_move(p: Picture) -> None:
    assert len(p.all("arrow")) == len(TERRITORY_ACTION["sources"]) == 1
    assert p.all("mark") == [] and "the action is legal" in p.text("legend")


def area_movement_board(p: Picture) -> None:
    assert set(p.attr("node", "data-node")) == {"athens", "thebes", "corinth", "rhodes",
                                                "crete", "aegean"}
    assert "water" in " ".join(p.attr("edge", "class"))
    pieces = set(p.attr("piece", "data-piece"))
    assert {"argo", "city@crete", "barbarians@thebes", "red@athens", "red-treasury"} <= pieces


def area_movement_voyages(p: Picture) -> None:
    answer = run_area_reachable(AreaMovementReachableRequest(state=AREA, player="red"))
    [argo] = [s for s in answer.ships if s.ship == "argo"]
    assert p.attr("shade", "data-at") == [r.area for r in argo.reach]
    ends = [json.loads(e.get("data-action") or "")["steps"][0]["path"][-1]["area"]
            for e in p.all("shade") if e.get("data-action")]
    assert ends == [r.area for r in argo.reach if r.can_end]
    assert "rhodes" not in ends   # out of play: a voyage passes, never ends there
    assert len(p.all("path")) == 1


def area_movement_plan(p: Picture) -> None:
    steps = [a.get("data-step") for a in p.all("arrow")]
    assert steps == [str(i) for i, s in enumerate(AREA_ACTION["steps"])
                     if s["type"] != "end_movement"]
    assert "sail" in " ".join(p.attr("arrow", "class"))


def phased_orders_board(p: Picture) -> None:
    assert len(p.all("cell")) == len(VALLEY["hexes"]) == 35
    assert len(p.all("road")) == 7 and "(3,2) road" in p.text("road")
    units = {u["id"] for u in VALLEY["units"]}
    strongholds = {s["id"] for s in VALLEY["strongholds"]}
    assert set(p.attr("piece", "data-piece")) == units | strongholds
    owners = dict(zip(p.attr("piece", "data-piece"), p.attr("piece", "data-owner"),
                      strict=True))
    assert owners["bandit-1"] == "bandits" and owners["green-capital"] == "green"
    assert [e.get("data-piece") for e in p.all("castle")] == ["green-capital"]
    assert {e.get("data-piece") for e in p.all("structure")} == {"red-keep", "red-tower"}
    selects = {e.get("data-piece"): e.get("data-select") for e in p.all("piece")}
    assert json.loads(selects["red-cavalry"] or "") == {"reachable": {"unit": "red-cavalry"}}
    assert selects["bandit-1"] is None   # no player orders a bandit
    legend = p.text("legend")
    assert "bandits" in legend and "undead" in legend and "road" in legend
    # bandits take a colour of their own, after the three players', not the neutral grey
    [bandit] = [e for e in p.all("piece") if e.get("data-piece") == "bandit-1"]
    assert [b.get("fill") for b in bandit.iter() if b.get("class") == "body"] == \
        [palette.OWNERS[3]]


def phased_orders_reachable(p: Picture) -> None:
    listing = PHASED_ORDERS.queries["legal-actions"]
    answer = listing.run(listing.request.model_validate({"state": VALLEY, "player": "red",
                                                         "limit": 10_000}))
    listed = answer.model_dump(mode="json")["actions"]
    moves = [a["orders"][0] for a in listed if a["type"] == "submit"
             and a["orders"][0]["order"] == "move" and a["orders"][0]["unit"] == "red-cavalry"]
    ends = {"{q},{r}".format(**m["path"][-1]): len(m["path"]) for m in moves}
    assert dict(zip(p.attr("shade", "data-at"), map(int, p.attr("shade", "data-cost")),
                    strict=True)) == ends
    assert max(ends.values()) == 4 and len(ends) == 18
    actions = [json.loads(a) for a in p.attr("shade", "data-action")]
    assert all(a["type"] == "submit" and a["orders"][0]["unit"] == "red-cavalry"
               for a in actions)
    assert len(p.all("path")) == 1 and "one shortest path" in p.text("path")
    assert "where a move order can take red-cavalry (move 4): 18 hexes" in p.text("legend")


def phased_orders_trace(p: Picture) -> None:
    answer = run_resolve(PhasedOrdersResolveRequest(state=VALLEY, orders=TURN["orders"]))
    moved = [e for phase in answer.trace for e in phase.events if e.kind == "unit_moved"]
    arrows = p.all("arrow")
    assert len(arrows) == len(moved) == 3
    # numbered by subphase, in the order they ran: 3b, 3c, 3c-priority
    assert [a.get("data-step") for a in arrows] == ["1", "2", "3"]
    assert [a[0].text for a in arrows] == [f"{n} ({e.params['subphase']}): {e.message}"
                                           for n, e in enumerate(moved, start=1)]
    assert "arrows by (sub)phase: 1 3b, 2 3c, 3 3c-priority" in p.text("legend")
    [new] = p.all("note")
    assert new.text == "new" and "red-spearmen-1 appears on (2,0)" in p.text("note")
    assert p.all("mark") == []


CLASH = [  # red and green (neither allied nor at war) enter (4,1) together in 3e
    {"order": "move", "player": "red", "unit": "red-cavalry",
     "path": [{"q": 1, "r": 1}, {"q": 2, "r": 1}, {"q": 3, "r": 1}, {"q": 4, "r": 1}]},
    {"order": "move", "player": "green", "unit": "green-archers",
     "path": [{"q": 5, "r": 0}, {"q": 4, "r": 1}]},
]
PROCEED = [{"id": "communique:4,1:red", "choice": "proceed"},
           {"id": "communique:4,1:green", "choice": "proceed"}]


def phased_orders_pending(p: Picture) -> None:
    assert p.attr("mark", "data-code") == ["pending"] * 2  # questions, not violations
    assert set(p.attr("mark", "data-at")) == {"4,1"}
    assert set(p.attr("mark", "data-rule")) == {"phased_orders/communique.1"}
    legend = p.text("legend")
    assert "the turn stopped in phase 0 (emergency communique, 3e): 2 decision(s) " \
        "pending" in legend
    assert "red: halt or proceed? communique:4,1:red." in legend
    assert "green: halt or proceed? communique:4,1:green." in legend
    # the steps taken before the turn stopped: 3b, 3c, 3d
    assert [a.get("data-step") for a in p.all("arrow")] == ["1", "2", "3", "3"]


def phased_orders_melee(p: Picture) -> None:
    [note] = p.all("note")
    assert note.text == "melee · slain +2"
    told = p.text("note")
    assert "melee on (4,1) between red-cavalry, green-archers" in told
    assert "green-archers is slain on (4,1)" in told
    assert p.all("mark") == [] and "the turn resolved" in p.text("legend")


def phased_orders_action(p: Picture) -> None:
    steps = dict(zip(p.attr("arrow", "data-step"), p.attr("arrow", "class"), strict=True))
    assert steps == {"0": "arrow move", "3": "arrow commission"}
    marks = dict(zip(p.attr("mark", "data-code"), p.attr("mark", "data-at"), strict=True))
    assert marks == {"path_too_long": "0,1"}   # on the unit whose order breaks the rule
    assert p.attr("mark", "data-rule") == ["phased_orders/movement.1"]
    assert "the action is illegal: 1 violation(s)" in p.text("legend")
    written_whole(p)


def toy_moves(p: Picture) -> None:
    assert len(p.all("node")) == 9
    assert sorted(p.attr("shade", "data-at")) == [str(i) for i, c in enumerate(GRID["board"])
                                                  if c is None]


ILLEGAL_HEX = {"type": "maneuver", "player": "red", "army": "red-1",
               "path": [{"q": 1, "r": -1}, {"q": 2, "r": -1}, {"q": 2, "r": 0}]}
ILLEGAL_TURN = {**TURN, "orders": [  # five steps for a unit that moves four
    {**TURN["orders"][0], "path": [*TURN["orders"][0]["path"], {"q": 3, "r": 2},
                                   {"q": 4, "r": 2}]}, *TURN["orders"][1:]]}
CASES: list[tuple[str, str, dict[str, Any], Callable[[Picture], None]]] = [
    ("hex_maneuver", "board", {"state": HEX}, hex_maneuver_board),
    ("hex_maneuver", "reachable", {"state": HEX, "overlay": {"reachable": {"army": "red-1"}}},
     hex_maneuver_reachable),
    ("hex_maneuver", "action", {"state": HEX, "overlay": {"action": ILLEGAL_HEX}},
     hex_maneuver_illegal),
    ("region_conquest", "board", {"state": REGIONS}, region_conquest_board),
    ("region_conquest", "costs", {"state": REGIONS, "overlay": {"costs": {"player": "orcs"}}},
     region_conquest_costs),
    ("region_conquest", "action", {"state": REGIONS, "overlay": {"action": {
        "type": "conquer", "player": "orcs", "region": "farmland"}}}, region_conquest_illegal),
    ("territory_conquest", "costs", {"state": TERRITORIES,
                                     "overlay": {"costs": {"player": "red"}}},
     territory_conquest_costs),
    ("territory_conquest", "action", {"state": TERRITORIES,
                                      "overlay": {"action": TERRITORY_ACTION}},
     territory_conquest_move),
    ("area_movement", "board", {"state": AREA}, area_movement_board),
    ("area_movement", "reachable", {"state": AREA, "overlay": {"reachable": {
        "player": "red", "ship": "argo"}}}, area_movement_voyages),
    ("area_movement", "action", {"state": AREA, "overlay": {"action": AREA_ACTION}},
     area_movement_plan),
    ("phased_orders", "board", {"state": VALLEY}, phased_orders_board),
    ("phased_orders", "reachable", {"state": VALLEY, "overlay": {"reachable": {
        "unit": "red-cavalry"}}}, phased_orders_reachable),
    ("phased_orders", "trace", {"state": VALLEY, "overlay": {"trace": {
        "orders": TURN["orders"]}}}, phased_orders_trace),
    ("phased_orders", "trace-pending", {"state": VALLEY, "overlay": {"trace": {
        "orders": CLASH}}}, phased_orders_pending),
    ("phased_orders", "trace-melee", {"state": VALLEY, "overlay": {"trace": {
        "orders": CLASH, "decisions": PROCEED}}}, phased_orders_melee),
    ("phased_orders", "action", {"state": VALLEY, "overlay": {"action": ILLEGAL_TURN}},
     phased_orders_action),
    ("tic_tac_toe", "moves", {"state": GRID, "overlay": {"moves": {"player": "alice"}}},
     toy_moves),
]


@pytest.mark.parametrize(("ruleset_id", "overlay", "body", "expect"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_golden_picture(ruleset_id: str, overlay: str, body: dict[str, Any],
                        expect: Callable[[Picture], None]) -> None:
    picture = Picture(render(ruleset_id, body))
    check_accessible(picture)
    assert (picture.root[0].text or "").startswith(ruleset_id)
    expect(picture)


def pictured_rulesets() -> list[str]:
    return [r.id for r in REGISTRY if "render" in r.queries] + [TOY.id]


@pytest.mark.parametrize("ruleset_id", pictured_rulesets())
def test_every_example_renders_the_same_each_time(ruleset_id: str) -> None:
    query = ruleset(ruleset_id).queries["render"]
    assert len(query.examples) >= 3
    for body in query.examples:
        first = render(ruleset_id, dict(body))
        check_accessible(Picture(first))
        assert render(ruleset_id, dict(body)) == first


def test_a_picture_does_not_depend_on_the_hash_seed() -> None:
    body = {"state": REGIONS, "overlay": {"costs": {"player": "orcs"}}}
    code = ("import json, sys; from arbiter.rulesets import builtin_registry; "
            "q = builtin_registry('region_conquest').get('region_conquest').queries['render']; "
            "print(q.run(q.request.model_validate(json.loads(sys.argv[1]))).svg)")
    outputs = {subprocess.run([sys.executable, "-c", code, json.dumps(body)], check=True,
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert outputs == {render("region_conquest", body) + "\n"}


def test_overlay_problems_point_into_the_overlay() -> None:
    with pytest.raises(InvalidInput) as raised:
        render("hex_maneuver", {"state": HEX, "overlay": {"reachable": {"army": "nobody"}}})
    assert [p.pointer for p in raised.value.problems] == ["/overlay/reachable/army"]


def test_phased_orders_overlay_problems_point_into_the_overlay() -> None:
    with pytest.raises(InvalidInput) as raised:
        render("phased_orders", {"state": VALLEY, "overlay": {"reachable": {"unit": "x"}}})
    assert [p.pointer for p in raised.value.problems] == ["/overlay/reachable/unit"]
    orders = [{"order": "hold", "player": "red", "unit": "nobody"}]
    with pytest.raises(InvalidInput) as raised:
        render("phased_orders", {"state": VALLEY, "overlay": {"trace": {"orders": orders}}})
    assert [p.pointer for p in raised.value.problems] == ["/overlay/trace/orders/0/unit"]


def test_a_bandit_has_no_reachable_hexes_to_order() -> None:
    picture = Picture(render("phased_orders", {"state": VALLEY, "overlay": {
        "reachable": {"unit": "bandit-1"}}}))
    assert picture.all("shade") == []
    assert "bandit-1 belongs to the bandits: no player orders it" in picture.text("legend")


def test_a_state_too_big_to_draw_names_the_render_limit() -> None:
    side = int(MAX_CELLS ** 0.5) + 1
    hexes = [{"q": q, "r": r, "terrain": "plains", "province": "p"}
             for q in range(side) for r in range(side)]
    with pytest.raises(InvalidInput) as raised:
        render("hex_maneuver", {"state": {**HEX, "hexes": hexes, "structures": [],
                                          "armies": HEX["armies"][:1]}})
    [problem] = raised.value.problems
    assert problem.pointer == "/state"
    assert f"at most {MAX_CELLS} (the render limit on hexes)" in problem.detail
    regions = [{"id": f"r{i}", "kind": "farmland"} for i in range(MAX_NODES + 1)]
    with pytest.raises(InvalidInput, match=f"at most {MAX_NODES} .the render limit on areas"):
        render("region_conquest", {"state": {**REGIONS, "regions": regions,
                                             "players": [{"id": "orcs"}]}})


# -- what a person reads off a picture ------------------------------------------------------

def piece_fills(p: Picture) -> dict[str, str]:
    return {piece.get("data-owner") or "": next(b.get("fill") or "" for b in piece.iter()
                                                if b.get("class") == "body")
            for piece in p.all("piece") if piece.get("data-owner")}


def test_a_player_whose_id_names_a_colour_is_drawn_in_it_whatever_the_order() -> None:
    swapped = {**HEX, "players": list(reversed(HEX["players"]))}
    for state in (HEX, swapped):
        fills = piece_fills(Picture(render("hex_maneuver", {"state": state})))
        assert fills["red"] == palette.NAMED["red"] and fills["blue"] == palette.NAMED["blue"]
    fills = piece_fills(Picture(render("phased_orders", {"state": VALLEY})))
    assert fills["green"] == palette.NAMED["green"] and fills["red"] == palette.NAMED["red"]
    # other ids take the palette's colours left, in the state's order
    assert palette.owner_colours(("orcs", "green", "elves")) == {
        "green": "#009E73", "orcs": "#D55E00", "elves": "#0072B2"}


def test_out_of_play_and_coastal_are_told_apart_from_neutral_and_land() -> None:
    assert palette.kind_colour("out_of_play").startswith("url(#")   # hatched
    land, coast = (palette.kind_colour(k).lstrip("#") for k in ("land", "coastal"))
    distance = sum(abs(int(land[i:i + 2], 16) - int(coast[i:i + 2], 16)) for i in (0, 2, 4))
    assert distance > 80


@pytest.mark.parametrize("ruleset_id", [r.id for r in REGISTRY if "render" in r.queries])
def test_the_legend_has_a_glyph_for_each_kind_of_piece_and_each_line(ruleset_id: str) -> None:
    query = ruleset(ruleset_id).queries["render"]
    for body in query.examples:
        p = Picture(render(ruleset_id, dict(body)))
        [legend] = p.all("legend")
        shapes = {"city": "rect", "castle": "rect", "structure": "rect", "ship": "polygon",
                  "relic": "polygon"}
        on_board = {shapes.get((e.get("class") or "").split()[1], "circle")
                    for e in p.all("piece") if e.get("data-at")}
        in_legend = {e.tag.removeprefix(SVG) for e in legend.iter() if e.get("class") == "body"}
        assert on_board <= in_legend, (ruleset_id, body.get("overlay"))
        legend_text = p.text("legend")
        assert "Pieces" in legend_text
        if any("water" in (e.get("class") or "") for e in p.all("edge")):
            assert "dashed line" in legend_text
        if p.all("step"):
            assert "the action's step" in legend_text


@pytest.mark.parametrize("ruleset_id", [r.id for r in REGISTRY if "render" in r.queries])
def test_costs_steps_and_notes_are_drawn_over_the_pieces(ruleset_id: str) -> None:
    for body in ruleset(ruleset_id).queries["render"].examples:
        p = Picture(render(ruleset_id, dict(body)))
        layers = [(e.get("class") or "") for e in p.root if e.tag == SVG + "g"]
        assert layers.index("labels") > layers.index("pieces")
        [labels] = p.all("labels")
        inside = {e.get("class") for e in labels.iter()}
        if p.all("note"):
            assert "notes" in inside
        for arrow in p.all("arrow"):
            assert not [e for e in arrow.iter() if e.tag == SVG + "text"]   # numbers moved up


def test_a_shade_on_an_area_covers_the_whole_area() -> None:
    p = Picture(render("region_conquest", {"state": REGIONS,
                                           "overlay": {"costs": {"player": "orcs"}}}))
    for shade in p.all("shade"):
        [disc] = [e for e in shade if e.tag == SVG + "circle"]
        assert disc.get("fill") not in (None, "none") and float(disc.get("r") or 0) > 34


def test_a_violation_is_written_whole_in_the_legend() -> None:
    long = "x" * 10 + " " + " ".join(["word"] * 40) + " " + "y" * 60
    lines = legend_lines(long)
    assert "".join(lines).replace(" ", "") == long.replace(" ", "")
    assert all(len(line) <= 42 for line in lines) and "…" not in "".join(lines)

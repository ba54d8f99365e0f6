"""The pages in a real browser (headless Chromium): the index, the playground on every
ruleset's examples, a click on a piece, an illegal action's verdict, apply and undo, the
permalink, GraphiQL and the REST reference; each page makes no request off the machine,
no failed request and no console error, and leaves a screenshot (see conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Watched

pytestmark = pytest.mark.browser

ILLEGAL = {"type": "maneuver", "player": "red", "army": "red-1",
           "path": [{"q": 1, "r": -1}, {"q": 2, "r": -1}, {"q": 2, "r": 0}]}


def drawn(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.drawn || 0)"))


def wait_drawn(page: Any, after: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.drawn || 0) > {after}")


def open_playground(watched: Watched, server: str, ruleset: str = "hex_maneuver") -> Any:
    page = watched.page
    page.goto(f"{server}/playground#r={ruleset}")
    wait_drawn(page, 0)
    return page


def test_the_index_links_every_page_and_ruleset(watched: Watched, server: str,
                                                screenshots: Path) -> None:
    page = watched.page
    page.goto(server + "/")
    links = page.eval_on_selector_all("a", "links => links.map(a => a.getAttribute('href'))")
    for href in ("/playground", "/docs", "/graphql", "/openapi.json", "/v1/rulesets"):
        assert href in links
    for ruleset in httpx.get(server + "/v1/rulesets").json()["rulesets"]:
        assert f"/v1/rulesets/{ruleset['id']}" in links
        assert f"/playground#r={ruleset['id']}" in links
    watched.shot(screenshots, "index")
    watched.assert_clean()


def test_the_playground_shows_every_rulesets_examples(watched: Watched, server: str,
                                                      screenshots: Path) -> None:
    page = open_playground(watched, server)
    rulesets = page.eval_on_selector_all("#ruleset option", "os => os.map(o => o.value)")
    assert len(rulesets) >= 5 and "phased_orders" in rulesets
    pictured: dict[str, int] = {}
    for ruleset in rulesets:
        before = drawn(page)
        page.select_option("#ruleset", ruleset)
        wait_drawn(page, before)
        examples = page.eval_on_selector_all("#example option", "os => os.map(o => o.value)")
        for i, example in enumerate(examples):
            if i:
                before = drawn(page)
                page.select_option("#example", example)
                wait_drawn(page, before)
            assert page.inner_text("#problem") == "", (ruleset, example)
            svg = page.query_selector("#board svg.arbiter-board")
            if svg is None:   # a ruleset without a picture says so
                assert "no picture" in page.inner_text("#board")
                continue
            pictured[ruleset] = pictured.get(ruleset, 0) + 1
            assert (page.text_content("#board svg > title") or "").startswith(ruleset)
        if page.query_selector("#board svg") is not None:
            watched.shot(screenshots, f"playground-{ruleset}")
    assert sum(pictured.values()) >= 5 * 3
    # the board, reachable, trace and action examples of phased_orders
    assert pictured.get("phased_orders") == 4
    watched.assert_clean()


def test_a_phased_orders_unit_shows_where_its_move_can_end(watched: Watched, server: str,
                                                           screenshots: Path) -> None:
    page = open_playground(watched, server, "phased_orders")
    before = drawn(page)
    page.click('#board .piece[data-piece="red-cavalry"]')
    wait_drawn(page, before)
    assert len(page.query_selector_all("#board .shade[data-action]")) == 18
    assert page.query_selector("#board .arrow.path") is not None
    assert "where a move order can take red-cavalry" in \
        (page.text_content("#board svg .legend") or "")
    watched.shot(screenshots, "playground-phased_orders-reachable")
    watched.assert_clean()


def test_hovering_over_an_unshaded_hex_says_why_not(watched: Watched, server: str,
                                                     screenshots: Path) -> None:
    page = open_playground(watched, server, "phased_orders")
    before = drawn(page)
    page.click('#board .piece[data-piece="red-cavalry"]')
    wait_drawn(page, before)
    assert page.query_selector('#board .shade[data-at="6,2"]') is None
    page.hover('#board .cell[data-hex="6,2"]')
    page.wait_for_selector('#verdict[data-why-not="(6,2)"]')
    verdict = page.inner_text("#verdict")
    assert "Why not (6,2)?" in verdict
    assert "path_too_long" in verdict and "phased_orders/movement.1" in verdict
    assert "moves 4" in verdict  # what would change it: the path's length against the move
    watched.shot(screenshots, "playground-why-not")
    watched.assert_clean()


def test_clicking_a_piece_shows_where_it_can_go(watched: Watched, server: str,
                                                screenshots: Path) -> None:
    page = open_playground(watched, server)
    assert page.query_selector_all("#board .shade") == []
    before = drawn(page)
    page.click('#board .piece[data-piece="red-1"]')
    wait_drawn(page, before)
    shades = page.query_selector_all("#board .shade[data-action]")
    assert len(shades) > 3
    assert page.query_selector("#board .arrow.path") is not None
    assert "reachable by red-1" in (page.text_content("#board svg .legend") or "")
    watched.shot(screenshots, "playground-reachable")
    watched.assert_clean()


def test_an_illegal_action_shows_each_violation_with_its_rule(watched: Watched, server: str,
                                                              screenshots: Path) -> None:
    page = open_playground(watched, server)
    page.fill("#action", json.dumps(ILLEGAL))
    before = drawn(page)
    page.click("#check")
    page.wait_for_selector("#verdict .violation")
    wait_drawn(page, before)
    verdict = page.inner_text("#verdict")
    assert "Illegal." in verdict
    assert "enemy_at_destination" in verdict and "hex_maneuver/maneuver.2" in verdict
    assert "over_movement_points" in verdict and "hex_maneuver/movement.1" in verdict
    marks = page.eval_on_selector_all("#board .mark", "ms => ms.map(m => m.dataset.code)")
    assert {"enemy_at_destination", "over_movement_points"} <= set(marks)
    assert page.is_disabled("#apply")
    watched.shot(screenshots, "playground-illegal-action")
    watched.assert_clean()


def test_a_legal_move_applies_undoes_and_survives_the_permalink(watched: Watched, server: str,
                                                                chromium: Any) -> None:
    page = open_playground(watched, server)
    before = drawn(page)
    page.click('#board .piece[data-piece="red-1"]')
    wait_drawn(page, before)
    page.click('#board .shade[data-at="1,-1"]')
    page.wait_for_selector("#verdict .legal")
    page.wait_for_function("!document.getElementById('apply').disabled")
    before = drawn(page)
    page.click("#apply")
    wait_drawn(page, before)
    moved = page.get_attribute('#board .piece[data-piece="red-1"]', "data-piece")
    assert moved == "red-1"
    state = json.loads(page.input_value("#state"))
    assert next(a for a in state["armies"] if a["id"] == "red-1")["hex"] == {"q": 1, "r": -1}
    link = page.get_attribute("#permalink", "href")
    before = drawn(page)
    page.click("#undo")
    wait_drawn(page, before)
    state = json.loads(page.input_value("#state"))
    assert next(a for a in state["armies"] if a["id"] == "red-1")["hex"] == {"q": 0, "r": 0}
    assert page.is_disabled("#undo")
    other = chromium.new_page()
    try:
        other.goto(f"{server}/playground{link}")
        wait_drawn(other, 0)
        linked = json.loads(other.input_value("#state"))
        assert next(a for a in linked["armies"] if a["id"] == "red-1")["hex"] == \
            {"q": 1, "r": -1}
    finally:
        other.close()
    watched.assert_clean()


LINT_ERRORS = ".graphiql-editor-tool .CodeMirror-lint-mark-error, .CodeMirror-lint-mark-error"


def test_graphiql_opens_with_a_working_example_per_ruleset(watched: Watched, server: str,
                                                           screenshots: Path) -> None:
    page = watched.page
    page.goto(server + "/graphql")
    page.wait_for_selector(".graphiql-container")
    tabs = page.eval_on_selector_all(".graphiql-tab", "ts => ts.map(t => t.innerText.trim())")
    for ruleset in httpx.get(server + "/v1/rulesets").json()["rulesets"]:
        camel = "".join(w.capitalize() for w in ruleset["id"].split("_"))
        assert f"{camel}Example" in tabs
    variables = page.locator(".graphiql-editor-tool .CodeMirror").first
    assert '"state"' in variables.inner_text()
    page.click(".graphiql-execute-button")
    page.wait_for_function("document.querySelector('.result-window') && "
                           "document.querySelector('.result-window').innerText"
                           ".includes('legalActions')")
    result = page.inner_text(".result-window")
    assert '"count"' in result and '"errors"' not in result
    # A correct state is no error for the custom scalar (GraphiQL 3's linter flags any
    # object given to one); the linter is live: a wrong player (a number) is underlined.
    page.wait_for_timeout(1000)   # the linter runs after a pause in typing
    assert page.query_selector_all(LINT_ERRORS) == []
    editor = "document.querySelector('.graphiql-editor-tool .CodeMirror').CodeMirror"
    # (first in the text: CodeMirror draws only the lines in view, marks included)
    page.evaluate(f"{editor}.setValue(JSON.stringify({{player: 5, state: "
                  f"JSON.parse({editor}.getValue()).state}}, null, 2))")
    page.wait_for_selector(".CodeMirror-lint-mark-error")
    watched.shot(screenshots, "graphiql")
    watched.assert_clean()


def test_the_rest_reference_renders_offline(watched: Watched, server: str,
                                            screenshots: Path) -> None:
    page = watched.page
    page.goto(server + "/docs")
    page.wait_for_selector(".swagger-ui .opblock-tag")
    page.wait_for_selector('.swagger-ui .opblock[id*="render"]', state="attached")
    assert "Arbiter" in page.inner_text(".swagger-ui .info")
    watched.shot(screenshots, "docs", full_page=False)
    watched.assert_clean()


# The example of each ruleset whose overlay shades places a click can go to.
SHADED = {"region_conquest": "what each conquest costs orcs",
          "territory_conquest": "what each conquest costs red",
          "area_movement": "where red's ship argo can go",
          "hex_maneuver": "where army red-1 can go",
          "phased_orders": "where unit red-cavalry can go"}


def choose_example(page: Any, label: str) -> None:
    before = drawn(page)
    page.select_option("#example", label=label)
    wait_drawn(page, before)


@pytest.mark.parametrize("ruleset", sorted(SHADED))
def test_a_click_in_the_middle_of_a_shaded_place_proposes_going_there(
        watched: Watched, server: str, screenshots: Path, ruleset: str) -> None:
    page = open_playground(watched, server, ruleset)
    choose_example(page, SHADED[ruleset])
    shade = page.query_selector("#board .shade[data-action]")
    assert shade is not None, ruleset
    at = shade.get_attribute("data-at")
    action = json.loads(shade.get_attribute("data-action") or "")
    # The place's own shape (a node's disc, a hex), not the shade's: the middle of what a
    # person sees, whatever is drawn over it there (pieces, counts).
    place = page.query_selector(f'#board .node[data-node="{at}"] circle') or \
        page.query_selector(f'#board .cell[data-hex="{at}"]')
    assert place is not None, (ruleset, at)
    place.scroll_into_view_if_needed()
    box = place.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector("#verdict p")
    assert json.loads(page.input_value("#action")) == action, (ruleset, at)
    watched.shot(screenshots, f"playground-{ruleset}-clicked")
    watched.assert_clean()


NAMED = {"red": "#D55E00", "blue": "#0072B2", "green": "#009E73"}


@pytest.mark.parametrize("ruleset", sorted(SHADED))
def test_the_legend_names_every_colour_glyph_and_line(watched: Watched, server: str,
                                                      screenshots: Path, ruleset: str) -> None:
    page = open_playground(watched, server, ruleset)
    legend = page.query_selector("#board svg .legend")
    assert legend is not None
    items = page.eval_on_selector_all(
        "#board svg .legend .legend-item",
        "is => is.map(i => [i.querySelector('text:last-of-type').textContent, "
        "(i.querySelector('rect') || {getAttribute: () => null}).getAttribute('fill')])")
    swatches = dict(items)
    # Every owner's pieces are drawn in the colour the legend gives that player, and a
    # player whose id names a colour is drawn in it.
    owners = page.eval_on_selector_all(
        "#board svg > .pieces .piece[data-owner]",
        "ps => ps.map(p => [p.dataset.owner, p.querySelector('.body').getAttribute('fill')])")
    assert owners, ruleset
    for owner, fill in owners:
        assert swatches.get(owner) == fill, (ruleset, owner, fill)
        assert NAMED.get(owner, fill) == fill, (ruleset, owner, fill)
    # Every kind of piece on the board has a glyph in the legend.
    headings = page.eval_on_selector_all("#board svg .legend .legend-heading",
                                         "hs => hs.map(h => h.textContent)")
    assert any(h.startswith("Pieces") for h in headings), headings
    kinds = set(page.eval_on_selector_all("#board svg > .pieces .piece",
                                          "ps => ps.map(p => p.classList[1])"))
    drawn_glyphs = set(page.eval_on_selector_all(
        "#board svg .legend .legend-item .body",
        "bs => bs.map(b => b.tagName)"))
    shapes = {"city": "rect", "castle": "rect", "structure": "rect", "ship": "polygon",
              "relic": "polygon"}
    assert {shapes.get(k, "circle") for k in kinds} <= drawn_glyphs, (ruleset, kinds)
    # Each line style of the links is named.
    texts = " ".join(text for text, _ in items)
    if page.query_selector("#board .edge.water"):
        assert "dashed line" in texts
    if page.query_selector("#board .edge.land"):
        assert "solid line" in texts
    legend.screenshot(path=str(screenshots / f"legend-{ruleset}.png"))
    watched.assert_clean()


def test_a_resolved_turn_shows_each_order_and_the_trace(watched: Watched, server: str,
                                                        screenshots: Path) -> None:
    page = open_playground(watched, server, "phased_orders")
    choose_example(page, "a resolve action (5 orders) and its verdict")
    page.wait_for_selector("#verdict .results")
    assert "the turn resolved" in page.inner_text("#verdict .legal")
    results = page.eval_on_selector_all("#verdict .results > li", "ls => ls.map(l => l.innerText)")
    assert len(results) == 5 and "red-cavalry moved 3 of 3 steps" in results[0]
    phases = page.eval_on_selector_all("#verdict .trace .phase", "ps => ps.map(p => p.textContent)")
    assert "movement" in phases and "upkeep" in phases
    watched.shot(screenshots, "playground-phased_orders-turn")
    watched.assert_clean()


def test_an_edited_fragment_is_followed_in_the_same_tab(watched: Watched, server: str) -> None:
    page = open_playground(watched, server, "hex_maneuver")
    before = drawn(page)
    page.evaluate("location.hash = '#r=region_conquest'")
    wait_drawn(page, before)
    assert page.input_value("#ruleset") == "region_conquest"
    assert (page.text_content("#board svg > title") or "").startswith("region_conquest")
    watched.assert_clean()


def test_three_players_seal_their_orders_and_the_turn_resolves_from_them(
        watched: Watched, screenshots: Path) -> None:
    """The playground on a service that seals (its own, with state keys): each player's
    orders typed as a submit and sealed, the turn resolved from the three envelopes; and a
    view that shows the seed as a sealed handle."""
    import base64

    from tests.support import serve

    cases = Path(__file__).resolve().parents[1] / "cases" / "phased_orders" / "blind2"
    melee = json.loads((cases / "p12_default_damage_spills_over_to_the_next_weakest.json")
                       .read_text())
    fragment = base64.urlsafe_b64encode(json.dumps(melee["state"]).encode()).decode()
    with serve({"ARBITER_STATE_KEYS": "k1:" + "s" * 40}) as keyed:
        page = watched.page
        page.goto(f"{keyed}/playground#r=phased_orders&s={fragment.rstrip('=')}")
        wait_drawn(page, 0)
        page.wait_for_selector("#hidden:not([hidden])")
        page.click("#hidden summary")
        for order in melee["action"]["orders"]:
            submit = {"type": "submit", "player": order["player"], "orders": [order]}
            page.fill("#action", json.dumps(submit))
            count = len(page.query_selector_all("#envelopes li"))
            page.click("#seal")
            page.wait_for_function(
                f"document.querySelectorAll('#envelopes li').length > {count}")
        players = page.eval_on_selector_all("#envelopes li", "ls => ls.map(l => l.innerText)")
        assert [p.split(":")[0] for p in players] == ["red", "blue", "green"]
        before = drawn(page)
        page.click("#resolve-sealed")
        page.wait_for_selector("#verdict .results")
        wait_drawn(page, before)
        assert "the turn resolved" in page.inner_text("#verdict .legal")
        assert len(page.query_selector_all("#verdict .results > li")) == 3
        watched.shot(screenshots, "playground-sealed-orders")
        page.click("#apply")
        page.wait_for_selector("text=Applied: the board shows the resulting state.")
        page.click("#view")
        page.wait_for_function(
            "document.getElementById('verdict').innerText.includes('/rng: sealed')")
        watched.assert_clean()

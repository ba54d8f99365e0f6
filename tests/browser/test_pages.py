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


def test_graphiql_runs_a_query_offline(watched: Watched, server: str, screenshots: Path) -> None:
    page = watched.page
    page.goto(server + "/graphql")
    page.wait_for_selector(".graphiql-container")
    page.click(".graphiql-execute-button")
    page.wait_for_function("document.querySelector('.result-window') && "
                           "document.querySelector('.result-window').innerText"
                           ".includes('hex_maneuver')")
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

"""No label under or over a piece on the playground's page (headless Chromium): every
picture test_labels.py checks from the SVG (each ruleset's examples, the golden cases, the
crowded requests) is opened in the playground by its permalink, and the browser's own
boxes (``getBBox()``, with the fonts it really uses) of every label — an area's name, a
cost, a step's number, a note, a violation's number — meet no piece's. And the text
metrics the drawing places labels with hold: each text's box as the drawing reckons it
(``arbiter.pictures.boxes.text_box``) holds the box the browser draws."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from arbiter.pictures.boxes import PAD, text_box
from browser.conftest import Watched
from pictures.test_labels import REQUESTS

from .test_pages import drawn, open_playground, wait_drawn

pytestmark = pytest.mark.browser

# The boxes of the pieces, of the labels and of every text outside the legend, as the
# browser draws them; each box [left, top, right, bottom] in the picture's coordinates.
READ_BOXES = """() => {
  const svg = document.querySelector("#board svg.arbiter-board");
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const at = (e) => e.getAttribute("data-at");
  const pieces = [...svg.querySelectorAll(":scope > g.pieces > g.piece")]
    .map((e) => [e.getAttribute("data-piece"), box(e)]);
  const labels = [
    ...[...svg.querySelectorAll(":scope > g.board > g.node > text")]
      .map((e) => ["name of " + e.parentNode.getAttribute("data-node"), box(e)]),
    ...[...svg.querySelectorAll(":scope > g.labels :is(.cost, .step, .note)")]
      .map((e) => [e.getAttribute("class") + " at " + at(e), box(e)]),
    ...[...svg.querySelectorAll(":scope > g.marks > g.mark > g.badge")]
      .map((e) => ["mark at " + at(e.parentNode), box(e)]),
  ];
  const texts = [...svg.querySelectorAll("text")]
    .filter((t) => !t.closest(".legend") && t.firstChild && t.firstChild.nodeValue)
    .map((t) => ({ text: t.firstChild.nodeValue,
                   x: Number(t.getAttribute("x")), y: Number(t.getAttribute("y")),
                   size: Number(t.getAttribute("font-size")),
                   anchor: t.getAttribute("text-anchor") || "start", box: box(t) }));
  return { title: svg.querySelector(":scope > title").textContent, pieces, labels, texts };
}"""


# px: a text's middle is laid out on the device's pixels (a 10 px "C" 0.05 px off its x)
# and coordinates are written with one decimal. The drawing's PAD covers it.
SLACK = 0.1


def fragment(ruleset_id: str, body: dict[str, Any]) -> str:
    """The playground's permalink fragment for a render request (base64url JSON)."""
    def encode(value: Any) -> str:
        raw = json.dumps(value, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")
    parts = [f"r={ruleset_id}", f"s={encode(body['state'])}"]
    if body.get("overlay"):
        parts.append(f"o={encode(body['overlay'])}")
    return "#" + "&".join(parts)


def meets(a: list[float], b: list[float]) -> bool:
    """Overlap by more than a hundredth of a px (the browser's boxes are floats)."""
    return (min(a[2], b[2]) - max(a[0], b[0]) > 0.01
            and min(a[3], b[3]) - max(a[1], b[1]) > 0.01)


def test_no_label_meets_a_piece_in_the_browser(watched: Watched, server: str,
                                               screenshots: Path) -> None:
    page = open_playground(watched, server)
    served = {r["id"] for r in httpx.get(server + "/v1/rulesets").json()["rulesets"]}
    checked = {"pictures": 0, "labels": 0, "pieces": 0, "texts": 0}
    for ruleset_id, name, body in REQUESTS:
        if ruleset_id not in served:   # the toy is the tests' own
            continue
        before = drawn(page)
        page.evaluate("h => { location.hash = h; }", fragment(ruleset_id, body))
        wait_drawn(page, before)
        assert page.inner_text("#problem") == "", (ruleset_id, name)
        seen = page.evaluate(READ_BOXES)
        assert seen["title"].startswith(ruleset_id), (ruleset_id, name)
        found = [f"{label} {lbox} meets {piece} {pbox}" for label, lbox in seen["labels"]
                 for piece, pbox in seen["pieces"] if meets(lbox, pbox)]
        assert not found, (ruleset_id, name, found)
        for t in seen["texts"]:
            # Without the drawing's margin but for the slack: the metrics alone must hold.
            reckoned = text_box(t["text"], t["x"], t["y"], t["size"], t["anchor"]).grown(-PAD)
            left, top, right, bottom = t["box"]
            assert (reckoned.left - SLACK <= left and right <= reckoned.right + SLACK
                    and reckoned.top - SLACK <= top
                    and bottom <= reckoned.bottom + SLACK), (ruleset_id, name, t, reckoned)
        checked["pictures"] += 1
        checked["labels"] += len(seen["labels"])
        checked["pieces"] += len(seen["pieces"])
        checked["texts"] += len(seen["texts"])
        if name.startswith("crowded"):
            watched.shot(screenshots, f"labels-{ruleset_id}-{name}")
    assert checked["pictures"] >= 40 and checked["labels"] >= 300, checked
    watched.assert_clean()

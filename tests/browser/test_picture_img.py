"""A picture's URL in a real ``<img src>`` (headless Chromium): the board by reference,
the overlay in the query string, drawn by the browser as an image of the size the SVG
says, for every ruleset."""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path

import httpx
import pytest

from arbiter.engine.boards import board_id
from arbiter.rulesets import builtin_registry
from browser.conftest import Watched

pytestmark = pytest.mark.browser
REGISTRY = builtin_registry()


def picture_url(server: str, ruleset_id: str) -> tuple[str, int]:
    """The URL of the last render example's picture, its board stored and named by
    reference; and the picture's width."""
    ruleset = REGISTRY.get(ruleset_id)
    assert ruleset is not None and ruleset.boards is not None
    body = dict(ruleset.queries["render"].examples[-1])
    board = {f: body["state"][f] for f in ruleset.boards.fields}
    bid = board_id(board)
    stored = httpx.put(f"{server}/v1/rulesets/{ruleset_id}/boards/{bid}", json=board)
    assert stored.status_code == 201
    body["state"] = {**{k: v for k, v in body["state"].items() if k not in board},
                     "board": bid}
    width = httpx.post(f"{server}/v1/rulesets/{ruleset_id}/render", json=body).json()["width"]
    query = urllib.parse.urlencode({k: json.dumps(v, separators=(",", ":"))
                                    for k, v in body.items()})
    return f"{server}/v1/rulesets/{ruleset_id}/render?{query}", width


def test_a_picture_url_is_an_img_src(watched: Watched, server: str,
                                     screenshots: Path) -> None:
    page = watched.page
    page.goto(server + "/")
    for ruleset_id in REGISTRY.ids():
        url, width = picture_url(server, ruleset_id)
        drawn = page.evaluate("""url => new Promise((resolve) => {
            const img = new Image();
            img.onload = () => resolve({ ok: true, width: img.naturalWidth });
            img.onerror = () => resolve({ ok: false, width: 0 });
            img.src = url;
            document.body.append(img);
        })""", url)
        assert drawn == {"ok": True, "width": width}, ruleset_id
    watched.shot(screenshots, "pictures-by-url")
    watched.assert_clean()

"""Pictures a page can embed, against a live ``arbiter serve``: ``render`` answers the
SVG alone as ``image/svg+xml`` when the request's Accept prefers it (an ``<img>``'s
does), and a state whose board goes by reference is drawn by a plain ``GET`` URL with
the rest of the render body in its query string, cacheable (ETag, Cache-Control)."""

from __future__ import annotations

import json
import urllib.parse
import xml.etree.ElementTree as ET
from typing import Any

import httpx
import pytest

from arbiter.engine.boards import board_id
from arbiter.rulesets import builtin_registry

pytestmark = pytest.mark.server
RULESETS = ("hex_maneuver", "region_conquest", "territory_conquest", "area_movement",
            "phased_orders")
IMG_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"  # Chromium's


def render_example(ruleset: str) -> dict[str, Any]:
    found = builtin_registry().get(ruleset)
    assert found is not None
    return dict(found.queries["render"].examples[-1])


def is_svg(answer: httpx.Response) -> None:
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "image/svg+xml"
    root = ET.fromstring(answer.content)  # a whole XML document, no JSON around it
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_render_answers_svg_when_accept_prefers_it(http: httpx.Client, ruleset: str) -> None:
    body = render_example(ruleset)
    url = f"/v1/rulesets/{ruleset}/render"
    wrapped = http.post(url, json=body)
    assert wrapped.headers["content-type"] == "application/json"
    svg = wrapped.json()["svg"]
    for accept in ("image/svg+xml", IMG_ACCEPT, "application/json;q=0.5, image/svg+xml"):
        picture = http.post(url, json=body, headers={"accept": accept})
        is_svg(picture)
        assert picture.text == svg
    for accept in ("application/json", "*/*", "image/svg+xml;q=0.5, application/json", ""):
        assert http.post(url, json=body, headers={"accept": accept}).headers[
            "content-type"] == "application/json"


def picture_url(ruleset: str, body: dict[str, Any]) -> str:
    return f"/v1/rulesets/{ruleset}/render?" + urllib.parse.urlencode(
        {name: json.dumps(value, separators=(",", ":")) for name, value in body.items()})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_board_by_reference_is_drawn_by_a_get_url(http: httpx.Client, ruleset: str) -> None:
    body = render_example(ruleset)
    found = builtin_registry().get(ruleset)
    assert found is not None and found.boards is not None
    board = {field: body["state"][field] for field in found.boards.fields}
    bid = board_id(board)
    assert http.put(f"/v1/rulesets/{ruleset}/boards/{bid}", json=board).status_code == 201
    by_reference = {**body, "state": {**{k: v for k, v in body["state"].items()
                                          if k not in board}, "board": bid}}
    url = picture_url(ruleset, by_reference)
    assert len(url) < 8000, len(url)  # (a URL every browser and proxy carries)
    picture = http.get(url, headers={"accept": IMG_ACCEPT})
    is_svg(picture)
    assert picture.text == http.post(f"/v1/rulesets/{ruleset}/render", json=body).json()["svg"]
    assert picture.headers["cache-control"] == "public, max-age=86400, immutable"
    etag = picture.headers["etag"]
    again = http.get(url, headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    # Another overlay is another picture, with another validator.
    other = http.get(picture_url(ruleset, {"state": by_reference["state"]}))
    is_svg(other)
    assert other.headers["etag"] != etag


def test_a_picture_url_is_checked_as_a_body_is(http: httpx.Client) -> None:
    body = render_example("hex_maneuver")
    url = "/v1/rulesets/hex_maneuver/render"
    unknown = http.get(url, params={"state": json.dumps(body["state"]), "colour": "1"})
    assert unknown.status_code == 400 and "colour" in unknown.json()["detail"]
    broken = http.get(url, params={"state": "{not json"})
    assert broken.status_code == 400
    twice = http.get(url, params={"state": '{"a": 1, "a": 2}'})
    assert twice.status_code == 422
    unheld = {**{k: v for k, v in body["state"].items() if k != "hexes"},
              "board": "sha256:" + "0" * 64}
    missing = http.get(url, params={"state": json.dumps(unheld)})
    assert missing.status_code in (404, 422)
    assert missing.json()["type"] == "urn:arbiter:problem:board-not-found"
    bad = http.get(url, params={"state": json.dumps({**body["state"], "turn": -5})})
    assert bad.status_code == 422 and bad.json()["errors"]
    assert "cache-control" not in bad.headers  # (a refusal is not kept)
    deep = http.get(url, params={"state": "[" * 80 + "]" * 80})
    assert deep.status_code == 422 and deep.json()["limit"] == "ARBITER_MAX_JSON_DEPTH"
    assert http.post("/v1/rulesets/hex_maneuver/render?state=1").status_code != 200

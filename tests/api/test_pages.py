"""The browser pages, in process: the index links the pages and every ruleset; only the
listed files are served under /static (nothing else of the package, no path tricks); the
GraphiQL page uses the service's own copy of GraphiQL, or says how to install it; the
documentation site is served under /guide/ once built, and says how to build it until
then; the pages stay open when API keys are on; the render route answers every pictured
ruleset."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arbiter.http import pages
from arbiter.http.app import create_app
from arbiter.rulesets import builtin_registry
from arbiter.settings import Settings


def test_the_index_links_the_pages_and_every_ruleset(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for href in ('href="/playground"', 'href="/docs"', 'href="/graphql"',
                 'href="/openapi.json"', 'href="/guide/"'):
        assert href in page.text
    for ruleset in builtin_registry():
        assert f'href="/v1/rulesets/{ruleset.id}"' in page.text
        assert f'href="/playground#r={ruleset.id}"' in page.text


@pytest.mark.parametrize("name", sorted(pages.ASSETS))
def test_every_listed_file_is_served_with_its_type(client: TestClient, name: str) -> None:
    if not pages.ASSETS[name].is_file():
        pytest.skip(f"{name} is not installed (make assets)")
    answer = client.get(f"/static/{name}")
    assert answer.status_code == 200
    assert answer.headers["content-type"].split(";")[0] in pages.MEDIA_TYPES.values()
    assert answer.content == pages.ASSETS[name].read_bytes()


@pytest.mark.parametrize("path", ["/static/vendor/package.json", "/static/../app.py",
                                  "/static/vendor/node_modules/react/package.json",
                                  "/static/%2e%2e/app.py", "/static/playground.html"])
def test_nothing_else_is_served(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.headers["content-type"] == "application/problem+json"


def test_the_pages_load_only_the_services_own_files(client: TestClient) -> None:
    for path in ("/", "/playground", "/docs"):
        text = client.get(path).text
        assert "http://" not in text.replace('xmlns="http://www.w3.org', "")
        assert "https://" not in text
    graphiql = client.get("/graphql", headers={"accept": "text/html"}).text
    assert "/static/vendor/graphiql.min.js" in graphiql or "make assets" in graphiql
    assert "https://" not in graphiql and "unpkg" not in graphiql


def test_without_its_files_graphiql_says_how_to_install_them(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(pages.ASSETS, "vendor/graphiql.min.js", tmp_path / "missing.js")
    page = pages.graphiql_page()
    assert "make assets" in page and "<script" not in page


def test_the_guide_is_served_once_built_and_says_how_until_then(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    site = tmp_path / "site"
    monkeypatch.setattr(pages, "SITE", site)
    with TestClient(create_app(Settings(api_keys="secret"))) as client:
        missing = client.get("/guide/")
        assert missing.status_code == 404 and "make docs" in missing.text
        assert missing.headers["content-type"].startswith("text/html")
        # Built while the service runs (make docs): served at once, keys on or not.
        (site / "rules").mkdir(parents=True)
        (site / "index.html").write_text("<h1>Arbiter</h1>")
        (site / "rules" / "index.html").write_text("<h1>The rulesets</h1>")
        (tmp_path / "secret.txt").write_text("not the site's")
        assert client.get("/guide/").text == "<h1>Arbiter</h1>"
        assert client.get("/guide/rules/").text == "<h1>The rulesets</h1>"
        for outside in ("/guide/%2e%2e/secret.txt", "/guide/../secret.txt"):
            assert "not the site's" not in client.get(outside).text
        assert client.get("/docs").text != client.get("/guide/").text  # the API reference


def test_the_pages_stay_open_when_keys_are_on() -> None:
    with TestClient(create_app(Settings(api_keys="secret"))) as client:
        for path in ("/", "/playground", "/docs", "/static/playground.js"):
            assert client.get(path).status_code == 200, path
        assert client.get("/v1/rulesets").status_code == 401


@pytest.mark.parametrize("ruleset", [r for r in builtin_registry() if "render" in r.queries],
                         ids=lambda r: r.id)
def test_render_answers_svg_with_its_size(client: TestClient, ruleset: object) -> None:
    query = ruleset.queries["render"]  # type: ignore[attr-defined]
    answer = client.post(f"/v1/rulesets/{ruleset.id}/render",  # type: ignore[attr-defined]
                         json=dict(query.examples[1]))
    assert answer.status_code == 200
    body = answer.json()
    root = ET.fromstring(body["svg"])
    assert root.get("width") == str(body["width"]) and root.get("height") == str(body["height"])

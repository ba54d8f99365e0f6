"""The pages a person opens in a browser, all served by the service itself so that they
work with the machine's network cut: ``GET /`` (an index of the pages and rulesets),
``/playground``, ``/docs`` (Swagger UI over ``/openapi.json``), the GraphiQL page at
``GET /graphql`` (``graphiql_page``), the files they load under ``/static/``, and the
documentation site under ``/guide/``.

The documentation site is built by ``make docs`` (MkDocs, a dev tool) into the checkout's
git-ignored ``site/``, so it is served only when it was built: until then ``/guide/`` says
how to build it. ``/docs`` stays the API reference the index, the playground and clients
have always linked to.

Only the files listed in ``ASSETS`` are served: the playground's own (``arbiter/static``),
Swagger UI's dist from the ``swagger-ui-bundle-v2`` package (PyPI, a dependency), and
GraphiQL's UMD build with React from the npm packages ``make assets`` installs into the
git-ignored ``arbiter/static/vendor/node_modules`` (package.json and its lock beside it).
Without them the GraphiQL page says how to install them; it never falls back to a CDN.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]  # untyped: one Path

from arbiter.engine.registry import Registry
from arbiter.http.problems import problem

STATIC = Path(__file__).resolve().parents[1] / "static"
NODE_MODULES = STATIC / "vendor" / "node_modules"
SWAGGER = Path(str(swagger_ui_path))
# `make docs` writes the site here (mkdocs.yml's site_dir), beside service/ in a checkout.
SITE = Path(__file__).resolve().parents[3] / "site"

ASSETS: dict[str, Path] = {
    "playground.js": STATIC / "playground.js",
    "playground.css": STATIC / "playground.css",
    "favicon.svg": STATIC / "favicon.svg",
    "docs.js": STATIC / "docs.js",
    "graphiql.js": STATIC / "graphiql.js",
    "vendor/swagger-ui-bundle.js": SWAGGER / "swagger-ui-bundle.js",
    "vendor/swagger-ui.css": SWAGGER / "swagger-ui.css",
    "vendor/graphiql.min.js": NODE_MODULES / "graphiql" / "graphiql.min.js",
    "vendor/graphiql.min.css": NODE_MODULES / "graphiql" / "graphiql.min.css",
    "vendor/react.production.min.js": NODE_MODULES / "react" / "umd" / "react.production.min.js",
    "vendor/react-dom.production.min.js":
        NODE_MODULES / "react-dom" / "umd" / "react-dom.production.min.js",
}
GRAPHIQL_ASSETS = ("vendor/graphiql.min.js", "vendor/graphiql.min.css",
                   "vendor/react.production.min.js", "vendor/react-dom.production.min.js")
MEDIA_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
               ".html": "text/html"}
# Versioned vendor files never change under one name; the playground's own may.
CACHE = {"vendor/": "public, max-age=86400", "": "no-cache"}

HEAD = ('<meta charset="utf-8"><meta name="viewport" content="width=device-width, '
        'initial-scale=1"><link rel="icon" href="/static/favicon.svg" type="image/svg+xml">')


def _page(title: str, head: str, body: str) -> str:
    return (f'<!doctype html><html lang="en"><head>{HEAD}<title>{escape(title)}</title>'
            f"{head}</head><body>{body}</body></html>")


def index_page(registry: Registry) -> str:
    rows = "".join(
        f"<tr><td><a href=\"/v1/rulesets/{escape(r.id)}\"><code>{escape(r.id)}</code></a></td>"
        f"<td>{escape(r.title)}</td><td>{escape(r.version)}</td>"
        f"<td>{escape(', '.join(sorted(r.queries)))}</td>"
        f"<td><a href=\"/playground#r={escape(r.id)}\">play</a></td></tr>"
        for r in registry)
    style = ("<style>body{font:15px/1.5 'DejaVu Sans',Verdana,sans-serif;max-width:60em;"
             "margin:2em auto;padding:0 1em;color:#222}td,th{padding:.2em .8em;text-align:left;"
             "border-bottom:1px solid #ddd}code{font-size:.95em}</style>")
    body = (
        "<h1>Arbiter</h1><p>A stateless rules service for board games: send a whole game "
        "state and an action, get the verdict with every violation and the rule it breaks, "
        "the resulting state and the facts a frontend needs.</p><ul>"
        "<li><a href=\"/playground\">Playground</a>: see a board, click a piece, check and "
        "apply actions.</li>"
        "<li><a href=\"/docs\">REST reference</a> (Swagger UI over "
        "<a href=\"/openapi.json\"><code>/openapi.json</code></a>).</li>"
        "<li><a href=\"/graphql\">GraphiQL</a>: the GraphQL API, with its schema "
        "explorer.</li>"
        "<li><a href=\"/guide/\">Documentation</a>: the contract, each ruleset, GraphQL, "
        "the command line, configuration, deployment (built by <code>make docs</code>).</li>"
        "<li><a href=\"/v1/rulesets\"><code>/v1/rulesets</code></a>: the rulesets as JSON; "
        "<a href=\"/healthz\"><code>/healthz</code></a>, <a href=\"/readyz\">"
        "<code>/readyz</code></a>, <a href=\"/metrics\"><code>/metrics</code></a>.</li></ul>"
        "<h2>Rulesets</h2><table><thead><tr><th>id</th><th>title</th><th>version</th>"
        f"<th>queries</th><th></th></tr></thead><tbody>{rows}</tbody></table>")
    return _page("Arbiter", style, body)


def docs_page() -> str:
    head = ('<link rel="stylesheet" href="/static/vendor/swagger-ui.css">'
            "<style>body{margin:0}</style>")
    body = ('<div id="swagger-ui"></div><script src="/static/vendor/swagger-ui-bundle.js">'
            '</script><script src="/static/docs.js"></script>')
    return _page("Arbiter REST reference", head, body)


def graphiql_page() -> str:
    """GraphiQL from the service's own files, or, when they are not installed, a page
    that says how to install them (POST /graphql answers either way)."""
    missing = [name for name in GRAPHIQL_ASSETS if not ASSETS[name].is_file()]
    if missing:
        body = ("<h1>GraphiQL is not installed</h1><p>Its files come from npm at build time "
                "and are served by this service: run <code>make assets</code> (npm ci in "
                "<code>service/arbiter/static/vendor</code>) and restart. Missing: "
                f"{escape(', '.join(missing))}.</p><p><code>POST /graphql</code> answers "
                "GraphQL queries meanwhile.</p>")
        return _page("GraphiQL is not installed", "", body)
    head = ('<link rel="stylesheet" href="/static/vendor/graphiql.min.css">'
            "<style>body{margin:0;height:100vh}#graphiql{height:100vh}</style>")
    body = ('<div id="graphiql">Loading GraphiQL…</div>'
            '<script src="/static/vendor/react.production.min.js"></script>'
            '<script src="/static/vendor/react-dom.production.min.js"></script>'
            '<script src="/static/vendor/graphiql.min.js"></script>'
            '<script src="/static/graphiql.js"></script>')
    return _page("Arbiter GraphiQL", head, body)


def guide_missing_page() -> str:
    body = ("<h1>The documentation is not built</h1><p>It is built from the checkout's "
            "<code>docs/</code> folder by MkDocs: run <code>make docs</code> (it installs "
            "the dev tools into <code>.venv</code> and writes <code>site/</code>, which this "
            "service then serves here; no restart needed). The same pages read as Markdown "
            "in <code>docs/</code>. The <a href=\"/docs\">REST reference</a> and "
            "<a href=\"/graphql\">GraphiQL</a> need no build.</p>")
    return _page("The documentation is not built", "", body)


class Guide:
    """The built documentation site (``SITE``), looked for on each request so that a site
    built while the service runs is served; a 404 page saying how to build it until then."""

    def __init__(self, site: Path | None = None) -> None:
        self.site = site = SITE if site is None else site
        self.files = StaticFiles(directory=site, html=True, check_dir=False)
        self.missing = HTMLResponse(guide_missing_page(), status_code=404)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (self.site / "index.html").is_file():
            await self.files(scope, receive, send)
        else:
            await self.missing(scope, receive, send)


def page_routes(registry: Registry) -> list[BaseRoute]:
    index = index_page(registry)
    docs = docs_page()

    async def home(request: Request) -> Response:
        return HTMLResponse(index)

    async def playground(request: Request) -> Response:
        return FileResponse(STATIC / "playground.html", media_type="text/html",
                            headers={"cache-control": "no-cache"})

    async def docs_route(request: Request) -> Response:
        return HTMLResponse(docs)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        path = ASSETS.get(name)
        if path is None or not path.is_file():
            return problem(404, f"no file {name!r} here")
        cache = next(v for k, v in CACHE.items() if name.startswith(k))
        return FileResponse(path, media_type=MEDIA_TYPES.get(path.suffix),
                            headers={"cache-control": cache})

    return [
        Route("/", home, methods=["GET"]),
        Route("/playground", playground, methods=["GET"]),
        Route("/docs", docs_route, methods=["GET"]),
        Route("/static/{name:path}", asset, methods=["GET"]),
        Mount("/guide", app=Guide()),
    ]


# Pages and their files stay open when API keys are on, like the GraphiQL page: they
# hold no data (the playground's own requests to the API carry no key).
OPEN_PREFIXES = ("/static/", "/guide/")
OPEN_PAGES = frozenset({"/", "/playground", "/docs"})

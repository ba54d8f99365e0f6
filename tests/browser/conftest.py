"""A real browser for the page tests: headless Chromium from Debian's ``chromium``
package, driven by Playwright's Python package (never ``playwright install``: the
browser is the system's), against the suite's real ``arbiter serve`` process.

Every page a test opens is watched: each request it makes must go to the loopback
address and succeed, and no console error or uncaught exception may happen; a test ends
by checking that (``Watched.assert_clean``). Screenshots go to ``ARBITER_SCREENSHOTS``
when set, else to ``<pytest's base temp>/screenshots`` (printed at the end of the run).
Without Chromium or Playwright the tests are skipped with the reason, and fail when
``CI=true``: ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

CHROMIUM = Path(os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium"))
# Debian's Chromium, headless, as root in a container, on a machine without internet:
# no sandbox (root), no GPU, and none of the background traffic (updates, metrics) that
# would leave the machine.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync",
        "--disable-default-apps", "--disable-extensions"]
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
SHOTS: list[Path] = []


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(f"{reason}; set CI=true to make this a failure")


# Package scope, not session: Playwright's sync API keeps an event loop running while it
# is open, and the tests after this package call asyncio.run, which refuses to run inside
# one.
@pytest.fixture(scope="package")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.is_file():
        _missing(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright's Python package is not installed (the test extra has it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("ARBITER_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass
class Watched:
    """A page and what it did: every request's URL, failed requests, console errors and
    uncaught exceptions."""

    page: Any
    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        outside = [u for u in self.requests
                   if urlsplit(u).scheme not in ("data", "blob", "about")
                   and urlsplit(u).hostname not in LOOPBACK]
        assert not outside, f"requests left the machine: {outside}"
        assert not self.failed, f"failed requests: {self.failed}"
        assert not self.errors, f"console errors: {self.errors}"

    def shot(self, folder: Path, name: str, *, full_page: bool = True) -> Path:
        path = folder / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        SHOTS.append(path)
        return path


@pytest.fixture
def watched(chromium: Any) -> Iterator[Watched]:
    context = chromium.new_context(viewport={"width": 1360, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    seen = Watched(page)
    page.on("request", lambda r: seen.requests.append(r.url))
    page.on("requestfailed", lambda r: seen.failed.append(f"{r.url}: {r.failure}"))
    page.on("response", lambda r: seen.failed.append(f"{r.url}: HTTP {r.status}")
            if r.status >= 400 else None)
    page.on("console", lambda m: seen.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.errors.append(f"uncaught: {e}"))
    yield seen
    context.close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SHOTS:
        terminalreporter.write_line(f"browser screenshots: {SHOTS[0].parent}")

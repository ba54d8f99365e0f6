"""The documentation site (`make docs`): mkdocs.yml's navigation lists every page under
docs/ (so none is built and left unreachable), and the site builds with --strict (a broken
link or anchor, or an included file that is missing, fails it), offline."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def config() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    return loaded


def pages(nav: Any) -> set[str]:
    """Every page a navigation entry (or section) names."""
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, list):
        return set().union(*(pages(entry) for entry in nav))
    if isinstance(nav, dict):
        return set().union(*(pages(entry) for entry in nav.values()))
    return set()


def test_every_page_is_in_the_navigation() -> None:
    excluded = set(config().get("exclude_docs", "").split())
    written = {str(path.relative_to(DOCS)) for path in DOCS.rglob("*.md")} - excluded
    listed = pages(config()["nav"])
    assert sorted(written - listed) == [], "pages missing from mkdocs.yml's nav"
    assert sorted(listed - written) == [], "nav entries without a page"


def test_every_ruleset_page_is_in_the_navigation() -> None:
    from arbiter.rulesets import builtin_registry

    listed = pages(config()["nav"])
    assert {f"rules/{r.id}.md" for r in builtin_registry()} <= listed


def test_the_site_builds_strict(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "index.html").is_file()
    assert (tmp_path / "configuration.html").is_file()
    assert (tmp_path / "rules" / "index.html").is_file()

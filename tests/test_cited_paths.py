"""Every repository path the checkout cites is in the checkout. In the code (docstrings,
comments, strings), the docs, the READMEs, the Makefile, deploy/ and the clients, a token
that reads as a path is looked for:

- a file with a folder before it, ending ``.py``, ``.md``, ``.json``, ``.yaml``, ``.yml``
  or ``.toml`` (``service/arbiter/http/rest.py``, ``engine/bounds.py``,
  ``../tests/cases/README.md``), found from the citing file's folder or one above it, or
  from the folders paths are written from: the package (``service/``, ``service/arbiter/``,
  ``service/arbiter/rulesets/``) and each client's root;
- a document named alone (``README.md``, ``design.md``), found the same way.

Not paths: URL paths (``/openapi.json``, ``http://host/x.json``), names built in code
(``ROOT / "docs" / "x.md"``, a quoted bare name, a name with ``{...}`` or ``<...>`` in
it), and globs. The one place outside the checkout a citation may name is the rules texts
beside it, ``../shared/rules/`` (not part of the checkout by design: ``make
source-check`` and .ci/run read them where they are). This file's own examples are not
citations, and are not scanned."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("service", "tests", "docs", "clients", "deploy", ".ci", "README.md", "Makefile",
           "conformance/README.md", "conformance/schema.json",
           "pyproject.toml")
TEXT = {".py", ".md", ".json", ".yaml", ".yml", ".toml", ".mjs", ".ts", ".js", ".html",
        ".css", ".txt", ".graphql", ".cfg"}
NAMED = {"Makefile", "Dockerfile", "run"}
# Installed, built or cached: not the checkout's own text.
SKIPPED = {"node_modules", "__pycache__", "dist", "build", ".mypy_cache", ".ruff_cache",
           ".pytest_cache", ".hypothesis"}
# Where a path may be written from, besides the citing file's own folders.
BASES = ("", "service", "service/arbiter", "service/arbiter/rulesets", "clients/python",
         "clients/typescript")
RULES_TEXTS = "../shared/rules"
FOLDERED = re.compile(r"(?<![\w./:%@~$\\-])((?:\.\.?/)*[\w.-]+(?:/[\w.-]+)+"
                      r"\.(?:py|md|json|ya?ml|toml))(?![\w/-])")
ALONE = re.compile(r"(?<![\w./:%@~$\\\"'-])([A-Za-z][\w-]*\.md)(?![\w/-])")


def scanned(root: Path) -> Iterator[Path]:
    for name in SCANNED:
        top = root / name
        paths = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in paths:
            parts = set(path.relative_to(root).parts)
            if (path.is_file() and not parts & SKIPPED and path.name != "package-lock.json"
                    and (path.suffix in TEXT or path.name in NAMED)
                    and path.resolve() != Path(__file__).resolve()):
                yield path


def found(root: Path, citing: Path, cited: str) -> bool:
    """Whether ``cited``, in ``citing``, names a file of the checkout at ``root``, or the
    rules text of one of its rulesets."""
    folders = [*citing.parents[:len(citing.relative_to(root).parts) - 1],
               *(root / base for base in BASES)]
    # Named, never opened: the suite reads nothing beside the checkout.
    rules_texts = (root / RULES_TEXTS).resolve()
    rulesets = {p.name for p in (root / "service" / "arbiter" / "rulesets").glob("*/")}
    for folder in folders:
        path = (folder / cited).resolve()
        if path.parent == rules_texts:
            if path.suffix == ".md" and path.stem in rulesets:
                return True
        elif path.is_relative_to(root.resolve()) and path.is_file():
            return True
    return False


def cited_but_missing(root: Path) -> list[str]:
    """``file:line: token`` for every cited path that names no file of the checkout."""
    missing = []
    for path in scanned(root):
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for pattern in (FOLDERED, ALONE):
                for cited in pattern.findall(line):
                    if not found(root, path, cited):
                        missing.append(f"{path.relative_to(root)}:{number}: {cited}")
    return missing


def test_every_cited_path_is_in_the_checkout() -> None:
    assert cited_but_missing(ROOT) == []


def test_a_citation_of_a_missing_file_is_caught(tmp_path: Path) -> None:
    package = tmp_path / "service" / "arbiter" / "http"
    package.mkdir(parents=True)
    (tmp_path / "service" / "arbiter" / "rulesets" / "hex_maneuver").mkdir(parents=True)
    (tmp_path / "service" / "arbiter" / "engine").mkdir()
    (tmp_path / "service" / "arbiter" / "engine" / "bounds.py").write_text("")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "design.md").write_text("[The routes](../service/arbiter/http/rest.py)")
    (package / "rest.py").write_text(
        '"""Routes (DESIGN.md, "Layout"; api/limits.py): the budget in engine/bounds.py,\n'
        'the design in docs/design.md, the rules in ../shared/rules/hex_maneuver.md\n'
        '(not ../shared/rules/hex_manuever.md)."""\n'
        'URL = "/v1/rulesets/x/schema/state.json"  # served, not a file\n'
        'PAGE = ROOT / "docs" / "missing.md"  # built in code\n'
        'GLOB = "tests/rulesets/*_cases.py"  # a glob\n')
    assert cited_but_missing(tmp_path) == [
        "service/arbiter/http/rest.py:1: api/limits.py",
        "service/arbiter/http/rest.py:1: DESIGN.md",
        "service/arbiter/http/rest.py:3: ../shared/rules/hex_manuever.md",
    ]

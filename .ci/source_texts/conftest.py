"""Checks against the rules texts, which are not part of this checkout: they read
../shared/rules/ (or ARBITER_SHARED/rules) and so run outside the test suite, by
`.ci/run` where that folder exists (`make source-check`). The checkout's own tests check
what the checkout holds (docs/rules/ in its words, tests/data/, tests/cases/)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The suite's helpers (tests/rulesets/*_cases.py, ...) import as they do in the suite.
sys.path.insert(0, str(ROOT / "tests"))


@pytest.fixture(scope="session")
def shared() -> Path:
    folder = Path(os.environ.get("ARBITER_SHARED", ROOT.parent / "shared"))
    if not (folder / "rules").is_dir():
        pytest.skip(f"no rules texts at {folder / 'rules'}")
    return folder

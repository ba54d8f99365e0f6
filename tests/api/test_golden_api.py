"""Every golden case through a real uvicorn server, over REST and over GraphQL: both must
give the engine's verdict (the same codes, state, events, derived facts and hash)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from api.golden_over_http import same_verdict
from golden import load_cases
from test_golden_engine import REGISTRY, run_engine

CASES = [(n, c) for n, c in load_cases() if REGISTRY.get(c["ruleset"]) is not None]


@pytest.mark.server
@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_golden_case_same_verdict_engine_rest_graphql(http: httpx.Client, name: str,
                                                      case: dict[str, Any]) -> None:
    ruleset = REGISTRY.get(case["ruleset"])
    assert ruleset is not None
    same_verdict(http, ruleset, case, run_engine(case))

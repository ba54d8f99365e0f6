"""The legal-actions answer over HTTP, against the suite's real server: on the golden
states of every built-in ruleset with the most actions, the listing answers the engine's
actions and the same bytes twice, and a sample of them POSTed back unchanged to
``validate`` answers ``legal: true`` (``generic.listed_actions_validate_over_http``; the
same in process on every golden state, and every action type listed on one, are
``generic``'s checks too)."""

from __future__ import annotations

import httpx
import pytest

from .generic import listed_actions_validate_over_http
from .under_test import BUILT_IN, by_default


@pytest.mark.server
@pytest.mark.parametrize("ruleset_id", BUILT_IN)
def test_listed_actions_validate_over_http(http: httpx.Client, ruleset_id: str) -> None:
    listed_actions_validate_over_http(by_default(ruleset_id), http)

"""The legal-actions answer, which the engine makes for every ruleset (``engine/legal.py``):
every registered ruleset asks the same request (``state``, ``player``, ``limit`` with one
default and one maximum) and answers the same four fields first, under its own prefix;
and over HTTP, against the suite's real server: on the golden states of every built-in
ruleset with the most actions, the listing answers the engine's actions and the same bytes
twice, and a sample of them POSTed back unchanged to ``validate`` answers ``legal: true``
(``generic.listed_actions_validate_over_http``; the same in process on every golden state,
and every action type listed on one, are ``generic``'s checks too)."""

from __future__ import annotations

import httpx
import pytest

from arbiter.engine.legal import LIMIT, MAX_LIMIT, pascal

from .generic import listed_actions_validate_over_http
from .under_test import BUILT_IN, DEFAULT_IDS, by_default


def test_every_ruleset_takes_one_limit_default_and_maximum() -> None:
    limits = {}
    for ruleset_id in DEFAULT_IDS:
        request = by_default(ruleset_id).ruleset.queries["legal-actions"].request
        limit = request.model_json_schema()["properties"]["limit"]
        limits[ruleset_id] = (limit["default"], limit["minimum"], limit["maximum"])
    assert set(limits.values()) == {(LIMIT, 1, MAX_LIMIT)} == {(100, 1, 10_000)}, limits


@pytest.mark.parametrize("ruleset_id", DEFAULT_IDS)
def test_the_listing_has_one_shape_under_the_rulesets_names(ruleset_id: str) -> None:
    query = by_default(ruleset_id).ruleset.queries["legal-actions"]
    prefix = pascal(ruleset_id)
    assert (query.request.__name__, query.response.__name__) == (
        f"{prefix}LegalActionsRequest", f"{prefix}LegalActionsResponse")
    assert list(query.request.model_fields) == ["state", "player", "limit"]
    assert list(query.response.model_fields)[:4] == ["player", "actions", "truncated", "count"]


@pytest.mark.server
@pytest.mark.parametrize("ruleset_id", BUILT_IN)
def test_listed_actions_validate_over_http(http: httpx.Client, ruleset_id: str) -> None:
    listed_actions_validate_over_http(by_default(ruleset_id), http)

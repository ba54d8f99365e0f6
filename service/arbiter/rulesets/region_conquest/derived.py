"""The model of a region_conquest outcome's ``derived`` facts: a conquest's cost broken
down (``cost.RegionConquestCost``); a redeployment has none. The judge builds plain dicts
(the hot path); this model types them for GraphQL, OpenAPI and the test that they match
(tests/contract/test_catalogue_params.py)."""

from __future__ import annotations

from arbiter.engine.wire import Frozen

from .cost import RegionConquestCost


class RegionConquestDerived(Frozen):
    """A conquest's cost, tokens and die; empty for any other action."""

    conquest: RegionConquestCost | None = None

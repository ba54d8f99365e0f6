"""The model of an area_movement outcome's ``derived`` facts: how far the plan's steps
got. The judge builds plain dicts (the hot path); this model types them for GraphQL,
OpenAPI and the test that they match (tests/contract/test_catalogue_params.py)."""

from __future__ import annotations

from pydantic import Field

from arbiter.engine.wire import Frozen


class AreaMovementPlanFacts(Frozen):
    steps: int = Field(description="The steps of the action.")
    first_illegal_step: int | None = Field(description="The index of the first step that "
                                           "breaks a rule; null when every step is legal.")


class AreaMovementDerived(Frozen):
    plan: AreaMovementPlanFacts

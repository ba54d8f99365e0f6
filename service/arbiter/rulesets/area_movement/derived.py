"""The model of an area_movement outcome's ``derived`` facts: how far the plan's steps
got, how its violations are laid out, and whose turn it is before and once the plan is
applied. The judge builds plain dicts (the hot path); this model types them for GraphQL,
OpenAPI and the test that they match (tests/contract/test_catalogue_params.py)."""

from __future__ import annotations

from pydantic import Field

from arbiter.engine.wire import Frozen


class AreaMovementPlanFacts(Frozen):
    """How the plan's violations are laid out: the ones refusing the plan as a whole
    (out_of_turn, movement_already_ended: ``at.step`` null) come first, then every
    violation of the first illegal step (``at.step`` its index); later steps are not
    judged."""

    steps: int = Field(description="The steps of the action.")
    first_illegal_step: int | None = Field(description="The index of the first step that "
                                           "breaks a rule; null when every step is legal "
                                           "(the plan may still be refused as a whole).")
    whole_plan_violations: int = Field(
        description="How many violations, at the head of `violations`, refuse the plan as "
        "a whole whatever its steps (their `at.step` is null); the rest, from this index "
        "on, are the first illegal step's.")


class AreaMovementTurn(Frozen):
    """Whose turn it is, as the service computes it from the census order (highest census
    first, A.S.T. rank breaking ties) and the players' ``movement_ended`` flags."""

    moving: str | None = Field(description="The first player in census order who has not "
                               "declared the end of his movement; null once all have.")
    may_move: list[str] = Field(description="Every player who may move now, in census order: "
                                "the moving player alone, or with simultaneous movement every "
                                "player who has not declared his end.")
    simultaneous: bool = Field(description="Movement is simultaneous (the state's "
                               "simultaneous_movement option).")


class AreaMovementDerived(Frozen):
    plan: AreaMovementPlanFacts
    turn: AreaMovementTurn = Field(description="Whose turn it is in the state as sent.")
    turn_after: AreaMovementTurn = Field(
        description="Whose turn it is once this plan is applied: the census-order answer "
        "for the resulting state (the same as turn unless the plan declares the end of the "
        "movement; the same as turn too when the plan cannot be applied in any mode).")

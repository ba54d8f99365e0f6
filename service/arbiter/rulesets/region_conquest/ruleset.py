"""The ``region_conquest`` ruleset object the registry serves: its metadata (rules, codes,
events, models, catalogues, queries) and ``validate``, which compiles the state, sends the
action to the module that judges it and concludes the outcome the same way as every
ruleset (``arbiter.engine.judging.conclude``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbiter.engine.judging import conclude
from arbiter.engine.outcome import CodeRef, EventRef, Mode, Outcome, RuleRef, Verdict
from arbiter.engine.registry import Query

from .board import compile_board
from .catalogue import CATALOGUES, CODES, EVENTS, RULES, RULESET_ID, TITLE, VERSION
from .conquest import Judgement, judge_conquer, judge_final_conquest
from .derived import (
    RegionConquestCostRequest,
    RegionConquestCostResponse,
    RegionConquestLegalActionsRequest,
    RegionConquestLegalActionsResponse,
    run_conquest_cost,
    run_legal_actions,
)
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE
from .models import (
    RegionConquestAction,
    RegionConquestConquer,
    RegionConquestEndTurn,
    RegionConquestFinalConquest,
    RegionConquestOptions,
    RegionConquestRedeploy,
    RegionConquestState,
)
from .redeploy import judge_end_turn, judge_redeploy


class RegionConquestRuleset:
    id: str = RULESET_ID
    version: str = VERSION
    title: str = TITLE
    rules: Sequence[RuleRef] = RULES
    codes: Mapping[str, CodeRef] = CODES
    event_kinds: Mapping[str, EventRef] = EVENTS
    state_model = RegionConquestState
    action_model = RegionConquestAction
    options_model = RegionConquestOptions
    action_types: Sequence[str] = ("conquer", "final_conquest", "redeploy", "end_turn")
    catalogues: Mapping[str, Any] = CATALOGUES
    queries: Mapping[str, Query] = {
        "conquest-cost": Query(
            name="conquest-cost",
            summary="The cost of conquering each target region (every region when none is "
                    "named), broken down, with whether the player can pay it now or only "
                    "with the reinforcement die.",
            request=RegionConquestCostRequest, response=RegionConquestCostResponse,
            run=run_conquest_cost,
            examples=({"state": EXAMPLE_STATE, "player": "orcs"},)),
        "legal-actions": Query(
            name="legal-actions",
            summary="What the player may do now: each region they may conquer with its cost "
                    "(border regions on a first conquest), final conquests the die could win, "
                    "redeployment and the end of the turn.",
            request=RegionConquestLegalActionsRequest, response=RegionConquestLegalActionsResponse,
            run=run_legal_actions,
            examples=({"state": EXAMPLE_STATE, "player": "orcs", "limit": 100},)),
    }
    examples: Mapping[str, Any] = {"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION}

    def validate(self, state: Any, action: Any, mode: Mode = "strict") -> Outcome:
        if not isinstance(state, RegionConquestState):
            state = RegionConquestState.model_validate(state)
        if not isinstance(action, RegionConquestAction):
            action = RegionConquestAction.model_validate(action)
        board = compile_board(state)
        verdict = Verdict(CODES, EVENTS)
        move = action.root
        judgement: Judgement
        if isinstance(move, RegionConquestConquer):
            judgement = judge_conquer(board, move, verdict)
        elif isinstance(move, RegionConquestFinalConquest):
            judgement = judge_final_conquest(board, move, verdict)
        elif isinstance(move, RegionConquestRedeploy):
            judgement = judge_redeploy(board, move, verdict)
        else:
            assert isinstance(move, RegionConquestEndTurn)
            judgement = judge_end_turn(board, move, verdict)
        return conclude(ruleset_id=self.id, version=self.version, verdict=verdict, mode=mode,
                        apply=judgement.apply, derived=judgement.derived,
                        reversible=judgement.reversible)


RULESET = RegionConquestRuleset()

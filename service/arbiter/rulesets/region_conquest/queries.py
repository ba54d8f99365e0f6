"""The derived questions a frontend asks of a state, served at
``POST /v1/rulesets/region_conquest/<name>``:

- ``conquest-cost``: for each target region (every region when none is named), the cost
  broken down (base, each marker, each defending token), the total, whether the tokens in
  hand pay it, whether only the reinforcement die could (and with which results), and
  what else would refuse the conquest now;
- ``legal-actions``: what the player may do now: each region they may conquer with its
  cost (only border regions on a first conquest), each region a final conquest could
  take with the die, redeployment and the end of the turn; bounded by ``limit``.

``conquest-cost`` builds on the same checks as ``validate`` (``targets.py``, ``cost.py``);
``legal-actions`` lists the generator's actions (``candidates.py``) that ``judge`` finds
legal, so an action listed is one ``validate`` accepts, and the other way round.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.judging import legal
from arbiter.engine.wire import Frozen

from .board import Board, compile_board
from .candidates import candidates
from .cost import RegionConquestCost, cost_breakdown
from .judge import judge
from .models import (
    MAX_REGIONS,
    PlayerId,
    RegionConquestAnyAction,
    RegionConquestConquer,
    RegionConquestFinalConquest,
    RegionConquestState,
    RegionId,
)
from .targets import Reach, turn_refusals


class RegionConquestCostRequest(Frozen):
    state: RegionConquestState
    player: PlayerId
    targets: list[RegionId] | None = Field(
        default=None, max_length=MAX_REGIONS,
        description="The regions to price; every region of the map when omitted.")


class RegionConquestCostResponse(Frozen):
    player: str
    hand: int = Field(description="The player's tokens in hand.")
    first_conquest: bool = Field(description="The player's race has no active token on the "
                                 "map: its next conquest must be a border region.")
    reinforcement_available: bool = Field(
        description="It is the player's turn and the final conquest (reinforcement die) is "
        "still to be made.")
    costs: list[RegionConquestCost]


class RegionConquestLegalActionsRequest(Frozen):
    state: RegionConquestState
    player: PlayerId
    limit: int = Field(default=100, ge=1, le=MAX_REGIONS,
                       description="At most this many actions are listed.")


class RegionConquestLegalAction(Frozen):
    type: Literal["conquer", "final_conquest", "redeploy", "end_turn"]
    region: str | None = Field(default=None, description="The target of a conquest.")
    cost: int | None = Field(default=None, description="The tokens a conquest takes.")
    winning_die_results: list[int] = Field(
        default_factory=list, description="For a final conquest: the die results that win.")


class RegionConquestLegalActionsResponse(Frozen):
    player: str
    first_conquest: bool = Field(description="Conquests must enter by a border region.")
    actions: list[RegionConquestLegalAction] = Field(
        description="redeploy and end_turn first (when legal), then each conquest, then each "
        "final conquest, regions in map order.")
    total: int = Field(description="How many legal actions there are in all.")
    truncated: bool = Field(description="More than ``limit`` actions are legal.")


def _board_for(state: RegionConquestState, player: str) -> Board:
    board = compile_board(state)
    if player not in board.players:
        problems = Problems()
        problems.add(pointer("player"), f"unknown player {player}")
        problems.raise_if_any()
    return board


def run_conquest_cost(request: RegionConquestCostRequest) -> RegionConquestCostResponse:
    board = _board_for(request.state, request.player)
    if request.targets is None:
        targets = [r.id for r in request.state.regions]
    else:
        targets = request.targets
        problems = Problems()
        for i, region in enumerate(targets):
            if region not in board.regions:
                problems.add(pointer("targets", i), f"unknown region {region}")
        problems.raise_if_any()
    reach = Reach.of(board, request.player)
    turn_blockers = [x.code for x in turn_refusals(board, request.player)]
    turn = request.state.turn
    return RegionConquestCostResponse(
        player=request.player,
        hand=board.players[request.player].hand,
        first_conquest=reach.first_conquest,
        reinforcement_available=(turn.player == request.player and not turn.reinforcement_used
                                 and not turn.redeployed),
        costs=[cost_breakdown(board, reach, region, turn_blockers) for region in targets])


def listed(board: Board, action: RegionConquestAnyAction, reach: Reach
           ) -> RegionConquestLegalAction:
    """A legal action as ``legal-actions`` lists it: conquests with their cost, and for a
    final conquest the die results that would win."""
    if not isinstance(action, RegionConquestConquer | RegionConquestFinalConquest):
        return RegionConquestLegalAction(type=action.type)
    cost = cost_breakdown(board, reach, action.region, turn_blockers=[])
    if isinstance(action, RegionConquestConquer):
        return RegionConquestLegalAction(type="conquer", region=action.region, cost=cost.total)
    # A final conquest is open wherever the hand is short but not empty, even beyond the
    # die's reach (it then fails, legally); winning_die_results says which rolls would do.
    return RegionConquestLegalAction(type="final_conquest", region=action.region,
                                     cost=cost.total,
                                     winning_die_results=cost.winning_die_results)


def run_legal_actions(request: RegionConquestLegalActionsRequest
                      ) -> RegionConquestLegalActionsResponse:
    board = _board_for(request.state, request.player)
    reach = Reach.of(board, request.player)
    actions = [listed(board, action, reach)
               for action in legal(judge, board, candidates(board, request.player))]
    return RegionConquestLegalActionsResponse(
        player=request.player,
        first_conquest=not board.players[request.player].active,
        actions=actions[:request.limit],
        total=len(actions),
        truncated=len(actions) > request.limit)

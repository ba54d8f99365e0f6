"""The derived questions a frontend asks of a state, served at
``POST /v1/rulesets/region_conquest/<name>``:

- ``conquest-cost``: for each target region (every region when none is named), the cost
  broken down (base, each marker, each defending token), the total, whether the tokens in
  hand pay it, whether only the reinforcement die could (and with which results), and
  what else would refuse the conquest now;
- ``legal-actions``: what the player may do now, each action exactly as ``validate``
  takes it: redeployment, the end of the turn, each region they may conquer (only border
  regions on a first conquest), each region a final conquest could take with the die;
  beside them, the cost of each conquest listed; bounded by ``limit``.

``conquest-cost`` builds on the same checks as ``validate`` (``targets.py``, ``cost.py``);
``legal-actions`` lists the generator's actions (``candidates.py``) that ``judge`` finds
legal, so an action listed is one ``validate`` accepts, and the other way round.
"""

from __future__ import annotations

from typing import Annotated

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


class RegionConquestListedCost(Frozen):
    """What a listed conquest costs, beside the action (``actions[action]``) it prices."""

    action: int = Field(description="The index in ``actions`` of the conquest priced.")
    region: str
    cost: int = Field(description="The tokens the conquest takes.")
    winning_die_results: list[int] = Field(
        default_factory=list, description="For a final conquest: the die results that win.")


class RegionConquestLegalActionsResponse(Frozen):
    player: str
    first_conquest: bool = Field(description="Conquests must enter by a border region.")
    actions: list[Annotated[RegionConquestAnyAction, Field(discriminator="type")]] = Field(
        description="Each legal action exactly as validate takes it (send one back unchanged "
        "as the request's action): redeploy and end_turn first (when legal), then each "
        "conquest, then each final conquest, regions in map order.")
    costs: list[RegionConquestListedCost] = Field(
        description="The cost of each listed conquest and final conquest, in listing order.")
    count: int = Field(description="Actions listed (at most ``limit``).")
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


def priced(board: Board, index: int, action: RegionConquestAnyAction, reach: Reach
           ) -> RegionConquestListedCost | None:
    """The cost of a listed conquest (None for another action), and for a final conquest
    the die results that would win."""
    if not isinstance(action, RegionConquestConquer | RegionConquestFinalConquest):
        return None
    cost = cost_breakdown(board, reach, action.region, turn_blockers=[])
    # A final conquest is open wherever the hand is short but not empty, even beyond the
    # die's reach (it then fails, legally); winning_die_results says which rolls would do.
    winning = (cost.winning_die_results if isinstance(action, RegionConquestFinalConquest)
               else [])
    return RegionConquestListedCost(action=index, region=action.region, cost=cost.total,
                                    winning_die_results=winning)


def run_legal_actions(request: RegionConquestLegalActionsRequest
                      ) -> RegionConquestLegalActionsResponse:
    board = _board_for(request.state, request.player)
    reach = Reach.of(board, request.player)
    # Every legal action is counted (``total``): the generator is bounded by the map.
    found = list(legal(judge, board, candidates(board, request.player)))
    actions = found[:request.limit]
    costs = [c for i, a in enumerate(actions) if (c := priced(board, i, a, reach)) is not None]
    return RegionConquestLegalActionsResponse(
        player=request.player,
        first_conquest=not board.players[request.player].active,
        actions=actions, costs=costs, count=len(actions), total=len(found),
        truncated=len(found) > request.limit)

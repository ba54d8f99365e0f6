"""The derived questions a frontend asks of a state, served at
``POST /v1/rulesets/region_conquest/<name>``:

- ``conquest-cost``: for each target region (every region when none is named), the cost
  broken down (base, each marker, each defending token), the total, whether the tokens in
  hand pay it, whether only the reinforcement die could (and with which results), and
  what else would refuse the conquest now;
- and what the engine's ``legal-actions`` (``arbiter.engine.legal``) shows beside the
  actions it lists: whether conquests must enter by a border region, the cost of each
  conquest listed, and how many actions are legal in all (``listing_facts``).

Both build on the same checks as ``validate`` (``targets.py``, ``cost.py``), so the
answers can never disagree with it.
"""

from __future__ import annotations

from pydantic import Field

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.legal import Bounded, legal
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


class RegionConquestListedCost(Frozen):
    """What a listed conquest costs, beside the action (``actions[action]``) it prices."""

    action: int = Field(description="The index in ``actions`` of the conquest priced.")
    region: str
    cost: int = Field(description="The tokens the conquest takes.")
    winning_die_results: list[int] = Field(
        default_factory=list, description="For a final conquest: the die results that win.")


class RegionConquestListingFacts(Frozen):
    """What legal-actions shows beside the actions it lists."""

    first_conquest: bool = Field(description="Conquests must enter by a border region.")
    costs: list[RegionConquestListedCost] = Field(
        description="The cost of each listed conquest and final conquest, in listing order.")
    total: int = Field(description="How many legal actions there are in all.")


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


def listing_facts(board: Board, player: str, found: Bounded[RegionConquestAnyAction]
                  ) -> RegionConquestListingFacts:
    """Beside the listed actions: the cost of each conquest among them, and how many actions
    are legal in all (the generator is bounded by the map, so a listing cut short by its
    limit judges the rest to count them)."""
    reach = Reach.of(board, player)
    actions = found.actions
    costs = [c for i, a in enumerate(actions) if (c := priced(board, i, a, reach)) is not None]
    total = (sum(1 for _ in legal(judge, board, candidates(board, player))) if found.truncated
             else len(actions))
    return RegionConquestListingFacts(first_conquest=not board.players[player].active,
                                      costs=costs, total=total)

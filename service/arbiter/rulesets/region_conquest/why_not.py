"""Why a player cannot conquer a region (``POST /v1/rulesets/region_conquest/why-not``):
the ``conquer`` of it judged by ``judge``, with what would change the answer from the same
cost breakdown ``conquest-cost`` gives: the race tokens short, and the reinforcement die
results that would still make it on the final conquest.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.why_not import ACTION_FIELD, WhyNotAnswer, WhyNotChange, change, judged
from arbiter.engine.wire import Frozen

from .board import compile_board
from .cost import RegionConquestCost, cost_breakdown
from .judge import judge
from .models import (
    PlayerId,
    RegionConquestAction,
    RegionConquestAnyAction,
    RegionConquestState,
    RegionId,
)
from .targets import Reach


class RegionConquestWhyNotRequest(Frozen):
    state: RegionConquestState
    player: PlayerId
    region: RegionId = Field(description="The region the player asks about.")


class RegionConquestWhyNotResponse(WhyNotAnswer):
    # Optional outside the tagged union, so GraphQL makes it a nullable union.
    action: Annotated[RegionConquestAnyAction, Field(discriminator="type")] | None = Field(
        default=None, description=ACTION_FIELD)
    player: str
    region: str
    cost: RegionConquestCost = Field(description="The conquest's cost, as conquest-cost "
                                     "gives it.")


def run_why_not(request: RegionConquestWhyNotRequest) -> RegionConquestWhyNotResponse:
    board = compile_board(request.state)
    problems = Problems()
    if request.player not in board.players:
        problems.add(pointer("player"), f"unknown player {request.player}")
    if request.region not in board.regions:
        problems.add(pointer("region"), f"unknown region {request.region}")
    problems.raise_if_any()
    player, region = request.player, request.region
    cost = cost_breakdown(board, Reach.of(board, player), region)
    action = {"type": "conquer", "player": player, "region": region}
    written, violations = judged(judge, RegionConquestAction, board, action)
    changes: list[WhyNotChange] = []
    short = cost.total - cost.hand
    if short > 0:
        changes.append(change(
            "tokens_short", f"{short} more race token{'s' if short > 1 else ''}: the conquest "
            f"costs {cost.total}, the hand holds {cost.hand}", short=short, cost=cost.total,
            hand=cost.hand))
    if cost.winning_die_results:
        results = ", ".join(map(str, cost.winning_die_results))
        changes.append(change(
            "reinforcement_die", f"the final conquest would make it with a die result of "
            f"{results}", results=cost.winning_die_results))
    if {v.code for v in violations} & {"not_on_border", "not_adjacent"}:
        # Where the player could enter instead: the regions nothing but tokens refuses.
        reach = Reach.of(board, player)
        open_now = [r.id for r in request.state.regions
                    if not cost_breakdown(board, reach, r.id).blocked_by]
        changes.append(change(
            "regions_open", ("the regions open to a conquest now: " + ", ".join(open_now))
            if open_now else "no region is open to a conquest now", regions=open_now))
    return RegionConquestWhyNotResponse(
        possible=written is not None and not violations, action=written,
        violations=violations, changes=changes, player=player, region=region, cost=cost)

"""Why a player cannot take a territory (``POST /v1/rulesets/territory_conquest/why-not``):
the move into it with the fewest pawns that ``conquest-cost`` plans (or every pawn that
can reach it, when they are too few), judged by ``judge``, with what would change the
answer: the pawns and soldier tokens short, and whether a double move would reach it.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from arbiter.engine.errors import Problems
from arbiter.engine.index import check_ref
from arbiter.engine.why_not import ACTION_FIELD, WhyNotAnswer, WhyNotChange, change, judged
from arbiter.engine.wire import Frozen, Id

from .board import compile_board
from .judge import judge
from .models import TerritoryConquestAction, TerritoryConquestAnyAction, TerritoryConquestState
from .move import holds_double_move, reach
from .queries import TargetStatus, TerritoryConquestTargetCost, fewest_pawns, target_cost


class TerritoryConquestWhyNotRequest(Frozen):
    state: TerritoryConquestState
    player: Id
    territory: Id = Field(description="The territory the player asks about.")


class TerritoryConquestWhyNotResponse(WhyNotAnswer):
    # Optional outside the tagged union, so GraphQL makes it a nullable union.
    action: Annotated[TerritoryConquestAnyAction, Field(discriminator="type")] | None = Field(
        default=None, description=ACTION_FIELD)
    player: str
    territory: str
    cost: TerritoryConquestTargetCost = Field(description="What taking it needs, as "
                                              "conquest-cost gives it.")


def run_why_not(request: TerritoryConquestWhyNotRequest) -> TerritoryConquestWhyNotResponse:
    board = compile_board(request.state)
    problems = Problems()
    check_ref(request.player, board.players, ("player",), "player", problems)
    check_ref(request.territory, board.territories, ("territory",), "territory", problems)
    problems.raise_if_any()
    player, target = request.player, request.territory
    cost = target_cost(board, player, target)
    double = holds_double_move(board, player)
    route = cost.with_double_move if double else cost.without_double_move
    reaches = list(reach(board, player, target, double_move=double).values())
    available = sum(board.pawns(player, r.territory) for r in reaches)
    if not available and not double:
        # None next to it: the move from two away, which validate refuses without a
        # double move (and says so).
        reaches = list(reach(board, player, target, double_move=True).values())
        available = sum(board.pawns(player, r.territory) for r in reaches)
    changes: list[WhyNotChange] = []
    action = None
    count = min(max(cost.pawns_needed, 1), available)
    if count:
        sources = fewest_pawns(board, player, reaches, count)
        action = {"type": "move", "player": player, "destination": target,
                  "sources": [s.model_dump(mode="json") for s in sources]}
    elif cost.status in (TargetStatus.neutral, TargetStatus.enemy):
        changes.append(change(
            "no_source", f"no territory of {player}'s with pawns is next to {target}"
            + ("" if double else " (a double move would look two away)"), territory=target))
    if cost.status is TargetStatus.yours:
        changes.append(change("already_yours", f"{target} is {player}'s already: pawns may "
                              "move in from next to it, nothing is conquered", territory=target))
    if cost.status is TargetStatus.opponent_castle:
        changes.append(change("opponent_castle", f"{target} is the opponent's castle: it is "
                              "never taken", territory=target))
    elif cost.pawns_needed > available and available:
        changes.append(change(
            "pawns_short", f"{cost.pawns_needed - available} more pawn(s) next to {target}: "
            f"it takes {cost.pawns_needed}, {available} can reach it",
            needed=cost.pawns_needed, available=available))
    tokens = board.players[player].soldier_tokens
    if cost.soldier_tokens_needed > tokens:
        changes.append(change(
            "soldier_tokens_short", f"{cost.soldier_tokens_needed - tokens} more soldier "
            f"token(s): it takes {cost.soldier_tokens_needed}, {player} has {tokens}",
            needed=cost.soldier_tokens_needed, have=tokens))
    if not double and not route.feasible and cost.with_double_move.feasible:
        changes.append(change("double_move", f"a double move would take {target}",
                              territory=target))
    written, violations = judged(judge, TerritoryConquestAction, board, action)
    return TerritoryConquestWhyNotResponse(
        possible=written is not None and not violations, action=written,
        violations=violations, changes=changes, player=player, territory=target, cost=cost)

"""The conquest cost of a region for a player, broken down as the rulebook counts it, and
whether the player can pay it now: with the tokens in hand, or only with a lucky
reinforcement die (and which results would do).

Cost = base (2) + 1 per encampment, fortress, mountain and troll's lair marker + 1 per
Lost Tribe token or other player's race token, active or in decline, never below 1. The
player's own in-decline token is not "another player's" token: it adds nothing.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .board import Board
from .catalogue import COST_MARKERS, REINFORCEMENT_DIE, REINFORCEMENT_MAX
from .targets import Reach, region_refusals, turn_refusals


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RegionConquestDefender(_Frozen):
    """Tokens in the target region that each add 1 to the cost."""

    kind: Literal["lost_tribe", "active", "in_decline"]
    player: str | None = Field(default=None, description="The owner; null for the Lost Tribe.")
    tokens: int


class RegionConquestCost(_Frozen):
    region: str
    base: int
    markers: dict[str, int] = Field(description="Each defending marker present, with its "
                                    "count (1 token each).")
    defenders: list[RegionConquestDefender] = Field(description="The defending tokens (1 each).")
    own_in_decline: int = Field(description="The player's own in-decline token here: it adds "
                                "nothing, and is lost on conquest.")
    subtotal: int = Field(description="base + markers + defenders.")
    total: int = Field(description="The tokens the conquest takes: the subtotal, at least 1.")
    hand: int = Field(description="The player's tokens in hand now.")
    affordable: bool = Field(description="The tokens in hand pay the total.")
    reinforcement_only: bool = Field(
        description="Only the reinforcement die could make it: the player holds at least one "
        "token and is at most 3 short.")
    winning_die_results: list[int] = Field(
        description="The die results that would make it, when only the die could.")
    blocked_by: list[str] = Field(
        description="Violation codes that refuse a conquest of this region now, tokens aside "
        "(turn, water, own region, border or adjacency).")


def winning_die_results(hand: int, total: int) -> list[int]:
    """The die results with which ``hand`` tokens reach ``total`` when the hand alone does
    not: empty when the hand suffices, holds nothing, or even the highest face falls short."""
    if hand < 1 or hand >= total or total - hand > REINFORCEMENT_MAX:
        return []
    return sorted({d for d in REINFORCEMENT_DIE if hand + d >= total})


def cost_breakdown(board: Board, reach: Reach, region: str,
                   turn_blockers: list[str] | None = None) -> RegionConquestCost:
    """The whole answer for one region. ``turn_blockers`` (the codes of ``turn_refusals``)
    may be passed in when many regions are priced at once: they do not depend on the region."""
    player = reach.player
    r = board.regions[region]
    base = board.state.options.base_cost
    markers = {m: r.markers[m] for m in COST_MARKERS if r.markers.get(m, 0) > 0}
    defenders: list[RegionConquestDefender] = []
    own_in_decline = 0
    holder = board.holders.get(region)
    if holder is not None:
        if holder.player != player:
            defenders.append(RegionConquestDefender(kind=holder.kind, player=holder.player,
                                                    tokens=holder.tokens))
        elif holder.kind == "in_decline":
            own_in_decline = holder.tokens
    subtotal = base + sum(markers.values()) + sum(d.tokens for d in defenders)
    total = max(1, subtotal)
    hand = board.players[player].hand
    winning = winning_die_results(hand, total)
    if turn_blockers is None:
        turn_blockers = [x.code for x in turn_refusals(board, player)]
    # As ``validate`` does: out of turn, that is the one reason given.
    blocked = list(turn_blockers)
    if "not_your_turn" not in blocked:
        blocked += [x.code for x in region_refusals(board, reach, region)]
    return RegionConquestCost(
        region=region, base=base, markers=markers, defenders=defenders,
        own_in_decline=own_in_decline, subtotal=subtotal, total=total, hand=hand,
        affordable=hand >= total, reinforcement_only=bool(winning),
        winning_die_results=winning, blocked_by=blocked)

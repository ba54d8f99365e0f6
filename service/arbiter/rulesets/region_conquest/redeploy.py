"""The end of a turn: the ``redeploy`` and ``end_turn`` actions.

``redeploy`` is the last step of the conquests. The active player moves active tokens
between the regions they occupy, leaving at least one in each, and may put tokens still
in hand on those regions (those not placed stay in hand, as a failed final conquest leaves
them); then each defeated player puts all the tokens kept after their losses on regions
their race still occupies. A defeated player with no region left keeps those tokens in
hand for a first conquest on their next turn.

``end_turn`` scores 1 victory coin per region the player's race tokens occupy (active or
in decline) and passes the turn to the next player in the state's order. It needs no
``redeploy`` before it unless a defender's kept tokens wait to go back on the board.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from arbiter.engine.draft import Draft
from arbiter.engine.errors import Problems, pointer
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Verdict, location

from .board import Board
from .conquest import check_player
from .ledger import Ledger
from .models import RegionConquestEndTurn, RegionConquestRedeploy


def _check_redeploy(board: Board, action: RegionConquestRedeploy) -> None:
    problems = Problems()
    check_player(board, action.player, problems)
    for i, move in enumerate(action.moves):
        for end in ("from_region", "to_region"):
            region = getattr(move, end)
            if region not in board.regions:
                problems.add(pointer("action", "moves", i, end), f"unknown region {region}")
        if move.from_region == move.to_region:
            problems.add(pointer("action", "moves", i, "to_region"),
                         "a move goes to another region")
    for k, placement in enumerate(action.placements):
        if placement.player not in board.players:
            problems.add(pointer("action", "placements", k, "player"),
                         f"unknown player {placement.player}")
        if placement.region not in board.regions:
            problems.add(pointer("action", "placements", k, "region"),
                         f"unknown region {placement.region}")
    problems.raise_if_any()


def _refuse_other_turn(board: Board, player: str, verdict: Verdict) -> bool:
    turn_player = board.turn_player
    if player != turn_player:
        verdict.violate("not_your_turn", fatal=True, player=player, turn_player=turn_player)
        return True
    return False


def judge_redeploy(board: Board, action: RegionConquestRedeploy, verdict: Verdict) -> Judgement:
    _check_redeploy(board, action)
    if _refuse_other_turn(board, action.player, verdict):
        return Judgement(verdict)
    player = action.player
    if board.state.turn.redeployed:
        verdict.violate("already_redeployed")

    # The regions are those held when the conquests end: redeployment conquers nothing, so
    # a region emptied by one move may be refilled by a later one, but no new one joins.
    regions = board.players[player].active
    held = dict(regions)
    _judge_moves(action, regions, held, verdict)
    placed = _judge_placements(board, action, regions, held, verdict)
    _judge_placed_tokens(board, player, placed, verdict)
    for region in regions:
        if held[region] == 0:
            verdict.violate("region_left_empty", at=location(region=region), region=region)

    def apply() -> Draft:
        ledger = Ledger(board.state)
        for i, move in enumerate(action.moves):
            ledger.take(player, move.from_region, move.tokens)
            ledger.put(player, move.to_region, move.tokens)
            verdict.event("tokens_moved", at=location(step=i, region=move.to_region),
                          tokens=move.tokens, from_region=move.from_region,
                          to_region=move.to_region)
        for k, placement in enumerate(action.placements):
            at = location(step=len(action.moves) + k, region=placement.region)
            who = placement.player
            ledger.put(who, placement.region, placement.tokens)
            if who == player:
                ledger.players[who]["hand"] -= placement.tokens
                verdict.event("tokens_placed", at=at, player=who, tokens=placement.tokens,
                              region=placement.region)
            else:
                ledger.players[who]["awaiting_redeployment"] -= placement.tokens
                verdict.event("kept_tokens_redeployed", at=at, player=who,
                              tokens=placement.tokens, region=placement.region)
        settle_kept_tokens(ledger, verdict)
        ledger.turn["redeployed"] = True
        return ledger.draft

    return Judgement(verdict, apply)


def _judge_moves(action: RegionConquestRedeploy, regions: Mapping[str, int],
                 held: dict[str, int], verdict: Verdict) -> None:
    """The moves, in order, between the player's regions; ``held`` follows them."""
    for i, move in enumerate(action.moves):
        outside = [r for r in (move.from_region, move.to_region) if r not in regions]
        for region in outside:
            verdict.violate("redeploy_outside_your_regions", at=location(step=i, region=region),
                            fatal=True, region=region)
        if outside:
            continue
        available = held[move.from_region]
        if move.tokens > available:
            verdict.violate("move_exceeds_tokens", at=location(step=i, region=move.from_region),
                            fatal=True, step=i, tokens=move.tokens, region=move.from_region,
                            available=available)
            continue
        held[move.from_region] -= move.tokens
        held[move.to_region] += move.tokens


def _judge_placements(board: Board, action: RegionConquestRedeploy, regions: Mapping[str, int],
                      held: dict[str, int], verdict: Verdict) -> dict[str, int]:
    """Where each placement goes; the tokens each player places in all. Placements count
    as steps after the moves, so ``at.step`` names one of either."""
    placed: dict[str, int] = defaultdict(int)
    for k, placement in enumerate(action.placements):
        at = location(step=len(action.moves) + k, region=placement.region)
        who = placement.player
        if who == action.player:
            if placement.region not in regions:
                verdict.violate("redeploy_outside_your_regions", at=at, fatal=True,
                                region=placement.region)
            else:
                held[placement.region] += placement.tokens
        elif placement.region not in board.players[who].active:
            verdict.violate("defender_region_not_held", at=at, fatal=True, player=who,
                            region=placement.region)
        placed[who] += placement.tokens
    return placed


def _judge_placed_tokens(board: Board, player: str, placed: dict[str, int],
                         verdict: Verdict) -> None:
    """The tokens placed against what each player holds to place."""
    hand = board.players[player].hand
    if placed[player] > hand:
        verdict.violate("placement_exceeds_hand", fatal=True, player=player,
                        placed=placed[player], hand=hand)
    # Tokens the player does not place stay in hand (redeploy.2): the rules file says a
    # failed final conquest leaves them "in hand", where the published rules would deploy
    # them, and redeployment itself is a "may"; only defenders' kept tokens must go back.
    for other in board.state.players:
        if other.id == player:
            continue
        kept, put = other.awaiting_redeployment, placed[other.id]
        if put > kept:
            verdict.violate("placement_exceeds_kept", fatal=True, player=other.id, placed=put,
                            kept=kept)
        elif put < kept and other.active:
            # Where the kept tokens would go is the defender's choice: the service cannot
            # make it for them, so the action is incomplete rather than applied partly.
            verdict.violate("kept_tokens_not_redeployed", fatal=True, player=other.id,
                            kept=kept, placed=put)


def settle_kept_tokens(ledger: Ledger, verdict: Verdict) -> None:
    """Kept tokens not redeployed go back to their player's hand: those of a player with no
    region left are for a first conquest on their next turn."""
    for p in ledger.players.values():
        kept = p["awaiting_redeployment"]
        if not kept:
            continue
        p["hand"] += kept
        p["awaiting_redeployment"] = 0
        if not p["active"]:
            verdict.event("kept_for_first_conquest", player=p["id"], tokens=kept)
        # Otherwise only a hand-made state gets here (a turn marked redeployed with tokens
        # still kept): handing them back is the one move that loses no token.


def judge_end_turn(board: Board, action: RegionConquestEndTurn, verdict: Verdict) -> Judgement:
    problems = Problems()
    check_player(board, action.player, problems)
    problems.raise_if_any()
    if _refuse_other_turn(board, action.player, verdict):
        return Judgement(verdict)
    player = action.player
    if not board.state.turn.redeployed:
        for who, tokens, reason in pending_redeployments(board, player):
            verdict.violate("redeployment_pending", fatal=True, player=who, tokens=tokens,
                            reason=reason)

    def apply() -> Draft:
        ledger = Ledger(board.state)
        settle_kept_tokens(ledger, verdict)
        coins = board.occupied_by(player)
        ledger.players[player]["coins"] += coins
        verdict.event("coins_scored", player=player, coins=coins)
        order = [p.id for p in board.state.players]
        following = order[(order.index(player) + 1) % len(order)]
        ledger["turn"] = {"player": following, "conquered": [],
                          "reinforcement_used": False, "redeployed": False}
        verdict.event("turn_passed", player=following)
        return ledger.draft

    return Judgement(verdict, apply)


def pending_redeployments(board: Board, player: str) -> list[tuple[str, int, str]]:
    """What must be redeployed before ``player`` ends the turn (player, tokens, why): each
    defender's kept tokens while that defender holds a region ("as the final action of the
    current player's turn", losses.2). Kept tokens with no region to go to wait for a first
    conquest instead; the active player's own tokens in hand may simply stay there
    (redeploy.2)."""
    return [(p.id, p.awaiting_redeployment, "kept after losses") for p in board.state.players
            if p.id != player and p.awaiting_redeployment and p.active]

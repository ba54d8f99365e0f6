"""Conquering a region: the ``conquer`` and ``final_conquest`` actions.

Both check the same things (whose turn, whether conquests are over, water, own region,
border or adjacency: ``targets.py``; then the tokens in hand against the cost:
``cost.py``) and conquer the same way: the conqueror's tokens enter the region, the
defenders leave it. A Lost Tribe, a lone defending token and the player's own
in-decline token are discarded; a defending player with more takes them all back in
hand, discards one to the storage tray and keeps the rest to redeploy at the end of the
turn. Markers stay. ``final_conquest`` adds the reinforcement die, given by the client
(table mode) or rolled from the state's seed (digital mode), deploys every token left in
hand when it succeeds, and ends the conquests of the turn either way.
"""

from __future__ import annotations

from arbiter.engine.draft import Draft
from arbiter.engine.errors import Problems, pointer
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Verdict, location
from arbiter.engine.rng import SeededRng

from .board import Board
from .catalogue import REINFORCEMENT_DIE
from .cost import cost_breakdown
from .ledger import Ledger
from .models import RegionConquestAnyAction, RegionConquestConquer, RegionConquestFinalConquest
from .targets import Reach, off_turn, region_refusals, turn_refusals


def reported_draws(action: RegionConquestAnyAction) -> tuple[str, ...]:
    """The reinforcement die's result, when a final conquest reports it (table mode): a
    signed game with a seed rolls it instead (``Ruleset.reported_draws``)."""
    if isinstance(action, RegionConquestFinalConquest) and action.die is not None:
        return ("die",)
    return ()


def check_player(board: Board, player: str, problems: Problems) -> None:
    if player not in board.players:
        problems.add(pointer("action", "player"), f"unknown player {player}")


def _check_target(board: Board, action: RegionConquestConquer | RegionConquestFinalConquest
                  ) -> None:
    problems = Problems()
    check_player(board, action.player, problems)
    if action.region not in board.regions:
        problems.add(pointer("action", "region"), f"unknown region {action.region}")
    problems.raise_if_any()


def _refuse_target(board: Board, reach: Reach, region: str, verdict: Verdict) -> bool:
    """Report the refusals of the target, tokens aside; True when the player acts out of
    turn, and nothing more is to be judged."""
    at = location(region=region)
    refusals = turn_refusals(board, reach.player)
    out_of_turn = off_turn(refusals)
    if not out_of_turn:
        refusals += region_refusals(board, reach, region)
    for refusal in refusals:
        verdict.violate(refusal.code, at=at, fatal=refusal.fatal, **refusal.params)
    return out_of_turn


def judge_conquer(board: Board, action: RegionConquestConquer, verdict: Verdict) -> Judgement:
    _check_target(board, action)
    reach = Reach.of(board, action.player)
    region = action.region
    out_of_turn = _refuse_target(board, reach, region, verdict)
    cost = cost_breakdown(board, reach, region)
    if out_of_turn:
        return Judgement(verdict, derived={"conquest": cost.model_dump(mode="json")})
    at = location(region=region)
    # An empty hand breaks both hand rules (a conquest always takes at least 1 token), and
    # every reason is reported, not just the first.
    if cost.hand == 0:
        verdict.violate("no_token_to_start", at=at, fatal=True)
    if cost.hand < cost.total:
        verdict.violate("not_enough_tokens", at=at, fatal=True, region=region, cost=cost.total,
                        hand=cost.hand)

    def apply() -> Draft:
        ledger = Ledger(board.state)
        conquer_region(board, ledger, action.player, region, cost.total, verdict)
        return ledger.draft

    return Judgement(verdict, apply, derived={"conquest": cost.model_dump(mode="json")})


def judge_final_conquest(board: Board, action: RegionConquestFinalConquest,
                         verdict: Verdict) -> Judgement:
    _check_target(board, action)
    reach = Reach.of(board, action.player)
    region = action.region
    out_of_turn = _refuse_target(board, reach, region, verdict)
    cost = cost_breakdown(board, reach, region)
    if out_of_turn:
        return Judgement(verdict, derived={"conquest": cost.model_dump(mode="json")})
    hand, total = cost.hand, cost.total
    at = location(region=region)
    if hand == 0:
        verdict.violate("no_token_to_start", at=at, fatal=True)
    if hand >= total:
        # The die is for a player who lacks tokens; with enough, this is a plain conquest.
        verdict.violate("reinforcement_not_needed", at=at, region=region, cost=total, hand=hand)
    # No limit on how short the player may be: the rules file lets any player who lacks
    # tokens but holds one roll, and a roll that falls short is a legal, failed conquest
    # (the published rulebook's "3 or less Race tokens short" is not in it).

    seed: int | None = None
    if action.die is not None:
        # Table mode: the die was rolled at the table; the state's seed, if any, is left as
        # it is, since the service drew nothing.
        die = action.die
    elif board.state.rng is not None:
        rng = SeededRng(board.state.rng)
        die = rng.roll(REINFORCEMENT_DIE)
        seed = rng.state
        verdict.draw()
    else:
        verdict.violate("die_roll_missing", at=at, fatal=True)
        return Judgement(verdict, derived={"conquest": cost.model_dump(mode="json")})

    def apply() -> Draft:
        ledger = Ledger(board.state)
        if seed is not None:
            ledger["rng"] = seed
        ledger.turn["reinforcement_used"] = True
        verdict.event("reinforcement_die_rolled", at=at, die=die, hand=hand, cost=total)
        if hand + die >= total:
            # "the player deploys his remaining Race token(s) there"
            conquer_region(board, ledger, action.player, region, hand, verdict)
        else:
            verdict.event("final_conquest_failed", at=at, region=region, cost=total, hand=hand,
                          die=die)
        return ledger.draft

    # A die was rolled, at the table or by the service: undoing the step would let the
    # player roll again.
    return Judgement(verdict, apply, derived={"conquest": cost.model_dump(mode="json")},
                     reversible=False)


def conquer_region(board: Board, ledger: Ledger, player: str, region: str, tokens: int,
                   verdict: Verdict) -> None:
    """Move ``tokens`` from the player's hand into ``region`` and settle its defenders."""
    at = location(region=region)
    ledger.players[player]["hand"] -= tokens
    ledger.put(player, region, tokens)
    ledger.turn["conquered"].append(region)
    verdict.event("region_conquered", at=at, player=player, region=region, tokens=tokens)

    holder = board.holders.get(region)
    if holder is None:
        pass
    elif holder.kind == "lost_tribe":
        ledger.regions[region]["lost_tribe"] = 0
        verdict.event("lost_tribe_discarded", at=at, region=region, tokens=holder.tokens)
    elif holder.player == player:
        # Only the player's own in-decline token can be here (their own active region is
        # refused as fatal): they lose it.
        ledger.take(player, region, holder.tokens, holder.kind)
        ledger.players[player]["tray"] += holder.tokens
        verdict.event("own_decline_token_lost", at=at, player=player, region=region)
    else:
        owner = holder.player
        assert owner is not None
        ledger.take(owner, region, holder.tokens, holder.kind)
        ledger.players[owner]["tray"] += 1
        if holder.tokens == 1:
            race = "active" if holder.kind == "active" else "in-decline"
            verdict.event("lone_defender_discarded", at=at, owner=owner, race=race,
                          region=region)
        else:
            # Only an active race holds more than one token in a region (in-decline races
            # keep one), so the kept tokens always belong to the defender's active race.
            ledger.players[owner]["awaiting_redeployment"] += holder.tokens - 1
            verdict.event("defender_token_discarded", at=at, owner=owner, region=region,
                          tokens=holder.tokens)
            verdict.event("defender_tokens_kept", at=at, owner=owner, tokens=holder.tokens - 1)

    markers = {m: n for m, n in board.regions[region].markers.items() if n > 0}
    if markers:
        verdict.event("markers_stay", at=at, region=region, markers=markers, player=player)


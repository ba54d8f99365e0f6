"""``judge`` for hex_maneuver: a maneuver or an exploration judged against every rule, with
how to apply it and the derived facts a frontend shows beside the verdict (movement
points, cost, what is in range, each rotation of an explored tile).

Both actions move an army along a path, judged by ``maneuver`` (``plan_path``,
``judge_steps``) and ``ferry`` (no land units stranded at sea when it ends); an
exploration's last step enters the claimed hex, and its tile, relic and event card are
judged by ``explore``. The effect is written into the ledger, a draft of the state
(``moves.apply_maneuver``, ``explore.lay_exploration``).
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.draft import Draft
from arbiter.engine.hexgrid import Hex, as_dict
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Location, Verdict, location
from arbiter.engine.rng import SeededRng

from .board import Board
from .catalogue import CATALOGUE
from .explore import (
    Exploration,
    Placement,
    flipped_tile,
    hex_or_none,
    judge_event_card,
    judge_relic,
    judge_rotation,
    lay_exploration,
)
from .ferry import judge_stranding
from .ledger import Ledger
from .maneuver import PathPlan, carried_unpacked, judge_steps, plan_path
from .models import HexManeuverAnyAction, HexManeuverExplore, HexManeuverManeuver
from .moves import apply_maneuver
from .reach import attackers, in_range, movement_points


def judge(board: Board, action: HexManeuverAnyAction) -> Judgement:
    verdict = Verdict(CATALOGUE)
    if isinstance(action, HexManeuverManeuver):
        return judge_maneuver(board, action, verdict)
    return judge_explore(board, action, verdict)


def judge_maneuver(board: Board, action: HexManeuverManeuver, verdict: Verdict) -> Judgement:
    plan = _judge_army(board, action, verdict, explore=False)
    judge_stranding(board, plan, plan.army.owner, verdict)

    def derived() -> dict[str, Any]:
        # Made only for an answer: legal-actions judges many maneuvers and reads none.
        # trebuchet.1: packed trebuchets (those that moved, unless unpacked) attack nothing.
        return {**_movement_facts(board, plan, action), "unpacked": plan.unpacked,
                "in_range": _targets(board, plan.army.owner, plan.destination,
                                     attackers(board, plan.arriving, plan.unpacked))}

    def apply() -> Draft:
        ledger = Ledger(board)
        apply_maneuver(ledger, plan, plan.army.owner, _cubes(board, action.march), verdict,
                       board.packing_types)
        return ledger.draft

    return Judgement(verdict, apply, derived)


def judge_explore(board: Board, action: HexManeuverExplore, verdict: Verdict) -> Judgement:
    state = board.state
    plan = _judge_army(board, action, verdict, explore=True)
    claimed = plan.destination
    derived = _movement_facts(board, plan, action)
    at_claim = location(hex=claimed)
    if claimed not in board.unexplored:
        verdict.violate("claim_not_unexplored", at_claim, fatal=True, hex=as_dict(claimed))
        return Judgement(verdict, derived=derived)
    province = board.province[claimed]
    civilians = {u: c for u, c in plan.arriving.items() if not board.unit_types[u].military}
    if civilians:
        verdict.violate("explorer_not_military", at_claim, units=civilians)
    # event.1: the card flipped is the deck's top; whether there is one, a player sees.
    card = judge_event_card(state, action, verdict, at_claim)
    flip = flipped_tile(state, action, verdict, at_claim)
    if flip is None:
        return Judgement(verdict, derived=derived)
    # What follows reads the flipped tile (how it fits, its relic symbol, whether the
    # explorers land), which a sealed game keeps face down until the answer.
    verdict.draw()
    options, chosen = judge_rotation(board, plan, flip.tile, province, action.rotation,
                                     verdict, at_claim)
    derived["rotations"] = _rotation_facts(options)
    derived["rotation"] = chosen.rotation
    if not chosen.fits:
        return Judgement(verdict, derived=derived)

    if chosen.can_land:
        # ferry.1: the units a departing vessel leaves behind (the landing itself is
        # placement condition 2, and failing it is no violation: explore.5).
        judge_stranding(board, plan, plan.army.owner, verdict, arrival=False)
    rng = SeededRng(state.rng) if state.rng is not None else None
    relic = judge_relic(board, action, chosen, province, rng, verdict)
    derived["landed"] = chosen.can_land
    derived["relic"] = {"due": relic.due, "reason": relic.reason, "relic": relic.relic,
                        "hex": hex_or_none(chosen.relic_hex)}
    # trebuchet.1: explorers that land moved, so their trebuchets stand packed; those that
    # stay where they were stand as they stood.
    derived["in_range"] = _targets(
        board, plan.army.owner, claimed if chosen.can_land else plan.start,
        attackers(board, plan.arriving, 0 if chosen.can_land else carried_unpacked(board, plan)))
    exploration = Exploration(plan=plan, player=action.player, cubes=_cubes(board, action.march),
                              packers=board.packing_types, province=province, flip=flip,
                              placement=chosen, relic=relic, card=card, rng=rng)
    # Something was revealed (a tile, maybe a relic and a card): it cannot be taken back.
    return Judgement(verdict, lambda: lay_exploration(board, exploration, verdict), derived,
                     reversible=False)


def _judge_army(board: Board, action: HexManeuverManeuver | HexManeuverExplore,
                verdict: Verdict, *, explore: bool) -> PathPlan:
    plan = plan_path(board, action, verdict, explore=explore)
    army = plan.army
    if army.owner != action.player:
        verdict.violate("not_your_army", _at_army(plan), army=army.id, owner=army.owner,
                        player=action.player)
    if army.depletion > 0:
        verdict.violate("army_depleted", _at_army(plan), army=army.id,
                        depletion=army.depletion)
    # The path is judged from the army owner's side (whose enemies block it), even when
    # another player names the army: that is already refused as not_your_army.
    judge_steps(board, plan, army.owner, verdict, explore=explore, march=action.march)
    whole = plan.moving == {u: c for u, c in army.units.items() if c > 0}
    if not whole and plan.destination == plan.start:
        # split.1: the units split off form a new army on another hex; ending back on the
        # start would merge them into the remaining units and deplete those.
        verdict.violate("split_needs_a_move", _at_army(plan), army=army.id)
    return plan


def _at_army(plan: PathPlan) -> Location:
    return location(hex=plan.start, piece=plan.army.id)


def _movement_facts(board: Board, plan: PathPlan,
                    action: HexManeuverManeuver | HexManeuverExplore) -> dict[str, Any]:
    bonus = 1 if action.march else 0
    return {
        "movement_points": movement_points(board, plan.arriving) + bonus,
        "cost": plan.cost,
        "march": action.march,
        "ferried": plan.ferried,
        "destination": as_dict(plan.destination),
    }


def _targets(board: Board, player: str, h: Hex, units: dict[str, int]) -> list[dict[str, Any]]:
    return [{"kind": t.kind, "id": t.id, "owner": t.owner, "hex": as_dict(t.hex),
             "distance": t.distance, "units": t.units} for t in in_range(board, player, h, units)]


def _rotation_facts(options: list[Placement]) -> list[dict[str, Any]]:
    return [{"rotation": p.rotation, "fits": p.fits, "conditions": p.conditions(),
             "relic_hex": hex_or_none(p.relic_hex),
             "relic_symbol": p.relic_symbol.value if p.relic_symbol else None}
            for p in options]


def _cubes(board: Board, march: bool) -> int:
    return board.state.options.march_depletion if march else 1

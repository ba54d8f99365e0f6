"""``validate`` for hex_maneuver: a maneuver or an exploration judged against every rule,
with the resulting state, its events and the derived facts a frontend shows beside the
verdict (movement points, cost, what is in range, each rotation of an explored tile)."""

from __future__ import annotations

from typing import Any

from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.hexgrid import Hex, as_dict
from arbiter.engine.judging import conclude
from arbiter.engine.outcome import Mode, Outcome, Verdict, location
from arbiter.engine.rng import SeededRng

from .board import Board, compile_board, tile_problems
from .catalogue import CODES, EVENTS, RULESET_ID, VERSION
from .explore import Placement, add_event_card, draw_relic, lay_tile, placements, relic_due
from .maneuver import PathPlan, judge_steps, plan_path
from .models import (
    HexManeuverAction,
    HexManeuverExplore,
    HexManeuverManeuver,
    HexManeuverState,
)
from .moves import apply_maneuver
from .reach import in_range, movement_points
from .terrain import Column


def validate(state: HexManeuverState, action: HexManeuverAction, mode: Mode = "strict") -> Outcome:
    board = compile_board(state)
    act = action.root
    verdict = Verdict(CODES, EVENTS)
    if isinstance(act, HexManeuverManeuver):
        return _maneuver(board, act, verdict, mode)
    return _explore(board, act, verdict, mode)


def _judge_army(board: Board, act: HexManeuverManeuver | HexManeuverExplore, verdict: Verdict,
                *, explore: bool) -> PathPlan:
    plan = plan_path(board, act, verdict, explore=explore)
    army = plan.army
    where = location(hex=army.hex.key, piece=army.id)
    if army.owner != act.player:
        verdict.violate("not_your_army", where, army=army.id, owner=army.owner, player=act.player)
    if army.depletion > 0:
        verdict.violate("army_depleted", where, army=army.id, depletion=army.depletion)
    # The path is judged from the army owner's side (whose enemies block it), even when
    # another player names the army: that is already refused as not_your_army.
    judge_steps(board, plan, army.owner, verdict, explore=explore, march=act.march)
    whole = plan.moving == {u: c for u, c in army.units.items() if c > 0}
    if not whole and plan.destination == plan.start:
        # split.1: the units split off form a new army on another hex; ending back on the
        # start would merge them into the remaining units and deplete those.
        verdict.violate("split_needs_a_move", where, army=army.id)
    return plan


def _movement_facts(board: Board, plan: PathPlan, act: HexManeuverManeuver | HexManeuverExplore
                    ) -> dict[str, Any]:
    bonus = 1 if act.march else 0
    return {
        "movement_points": movement_points(board, plan.arriving) + bonus,
        "cost": plan.cost,
        "march": act.march,
        "ferried": plan.ferried,
        "destination": as_dict(plan.destination),
    }


def _targets(board: Board, player: str, h: Hex, units: dict[str, int]) -> list[dict[str, Any]]:
    return [{"kind": t.kind, "id": t.id, "owner": t.owner, "hex": as_dict(t.hex),
             "distance": t.distance, "units": t.units} for t in in_range(board, player, h, units)]


def _cubes(board: Board, march: bool) -> int:
    return board.state.options.march_depletion if march else 1


def _packers(board: Board) -> set[str]:
    return {u for u, t in board.unit_types.items() if t.packs}


def _maneuver(board: Board, act: HexManeuverManeuver, verdict: Verdict, mode: Mode) -> Outcome:
    plan = _judge_army(board, act, verdict, explore=False)
    derived = _movement_facts(board, plan, act)
    derived["in_range"] = _targets(board, plan.army.owner, plan.destination, plan.arriving)

    def apply() -> dict[str, Any]:
        # A maneuver moves pieces only: the map's JSON is reused, not dumped again.
        rest = board.state.model_dump(mode="json", exclude={"hexes"})
        new = {"options": rest.pop("options"),
               "hexes": board.hex_map.hexes_json(board.state.hexes), **rest}
        apply_maneuver(new, plan, plan.army.owner, _cubes(board, act.march), verdict,
                       _packers(board))
        return new

    return conclude(ruleset_id=RULESET_ID, version=VERSION, verdict=verdict, mode=mode,
                    apply=apply, derived=derived, state_model=HexManeuverState)


def _rotation_facts(options: list[Placement]) -> list[dict[str, Any]]:
    return [{"rotation": p.rotation, "fits": p.fits, "conditions": p.conditions(),
             "relic_hex": as_dict(p.relic_hex) if p.relic_hex else None,
             "relic_symbol": p.relic_symbol.value if p.relic_symbol else None}
            for p in options]


def _explore(board: Board, act: HexManeuverExplore, verdict: Verdict, mode: Mode) -> Outcome:
    state = board.state
    plan = _judge_army(board, act, verdict, explore=True)
    claimed = plan.destination
    derived = _movement_facts(board, plan, act)
    at_claim = location(hex=claimed)
    if claimed not in board.unexplored:
        verdict.violate("claim_not_unexplored", at_claim, fatal=True, hex=claimed)
        return conclude(ruleset_id=RULESET_ID, version=VERSION, verdict=verdict, mode=mode,
                        apply=None, derived=derived)
    province = board.province[claimed]
    civilians = {u: c for u, c in plan.arriving.items() if not board.unit_types[u].military}
    if civilians:
        verdict.violate("explorer_not_military", at_claim, units=civilians)

    # The stack, when the state keeps one, is what is flipped: its top tile. A tile named
    # in table mode must be that tile; with no stack the named tile is all there is.
    tile = act.tile
    from_stack = bool(state.tiles) and (tile is None or tile.id == state.tiles[0].id)
    if tile is not None:
        found = tile_problems(tile, ("action", "tile"))
        found.raise_if_any()
        if state.tiles and tile.id != state.tiles[0].id:
            verdict.violate("tile_not_on_top", at_claim, tile=tile.id, top=state.tiles[0].id)
    elif state.tiles:
        tile = state.tiles[0]
    else:
        verdict.violate("no_tile_to_flip", at_claim, fatal=True)
        return conclude(ruleset_id=RULESET_ID, version=VERSION, verdict=verdict, mode=mode,
                        apply=None, derived=derived)

    taken = {plan.army.id: plan.moving}
    ferry_zone = board.ferry_zone(board.vessel_hexes(plan.army.owner, taken))
    column = Column.of(board, plan.arriving)
    options = placements(board, tile, province, claimed, column, ferry_zone)
    required = max(p.level for p in options)
    best = next(p for p in options if p.level == required)
    chosen = options[act.rotation] if act.rotation is not None else best
    derived["rotations"] = _rotation_facts(options)
    derived["rotation"] = chosen.rotation
    if not chosen.fits:
        verdict.violate("tile_does_not_fit", at_claim, fatal=True, tile=tile.id,
                        rotation=chosen.rotation, province=province)
        return conclude(ruleset_id=RULESET_ID, version=VERSION, verdict=verdict, mode=mode,
                        apply=None, derived=derived)
    if chosen.level < required:
        verdict.violate("placement_priority_ignored", at_claim, rotation=chosen.rotation,
                        met=chosen.conditions() or ["no condition"], better=best.rotation,
                        required=best.conditions())

    due, reason = relic_due(board, chosen.relic_symbol, province)
    relics = state.relics
    relic: str | None = act.relic
    rng = SeededRng(state.rng) if state.rng is not None else None
    if act.relic is not None:
        if not due:
            verdict.violate("relic_not_due", location(hex=chosen.relic_hex), relic=act.relic,
                            reason=reason)
            relic = None
        elif relics is not None and relics.bag and act.relic not in relics.bag:
            raise InvalidInput([Problem("/action/relic", f"relic {act.relic} is not in the bag")])
    elif due:
        if rng is not None and relics is not None and relics.bag:
            relic = draw_relic(relics.bag, rng)
        else:
            verdict.violate("relic_draw_missing", location(hex=chosen.relic_hex), fatal=True,
                            hex=chosen.relic_hex)
    deck = state.events.deck
    card = act.event_card or (deck[0] if deck else None)
    card_from_deck = bool(deck) and card == deck[0]
    if act.event_card is not None and deck and act.event_card != deck[0]:
        verdict.violate("event_card_not_on_top", at_claim, card=act.event_card, top=deck[0])
    if card is None:
        verdict.violate("event_card_missing", at_claim)

    landed = chosen.can_land
    derived["landed"] = landed
    derived["relic"] = {"due": due, "reason": reason, "relic": relic,
                        "hex": as_dict(chosen.relic_hex) if chosen.relic_hex else None}
    derived["in_range"] = _targets(board, plan.army.owner, claimed if landed else plan.start,
                                   plan.arriving)

    def apply() -> dict[str, Any]:
        new = state.model_dump(mode="json")
        lay_tile(new, chosen, province)
        if from_stack:
            new["tiles"] = new["tiles"][1:]
        verdict.event("tile_placed", at_claim, tile=tile.id, province=province,
                      rotation=chosen.rotation)
        if relic is not None and chosen.relic_hex is not None and new["relics"] is not None:
            rel = new["relics"]
            rel["to_place"] -= 1
            if relic in rel["bag"]:
                rel["bag"].remove(relic)
            rel["placed"].append({"relic": relic, "hex": as_dict(chosen.relic_hex)})
            verdict.event("relic_placed", location(hex=chosen.relic_hex), relic=relic,
                          hex=chosen.relic_hex)
        if landed:
            apply_maneuver(new, plan, plan.army.owner, _cubes(board, act.march), verdict,
                           _packers(board))
        else:
            verdict.event("landing_failed", location(hex=claimed, piece=plan.army.id),
                          army=plan.army.id, hex=claimed, terrain=chosen.terrain[claimed].value)
            if state.options.deplete_when_landing_fails:
                army = next(a for a in new["armies"] if a["id"] == plan.army.id)
                army["depletion"] = max(army["depletion"], _cubes(board, act.march))
        if card is not None:
            if card_from_deck:
                new["events"]["deck"] = new["events"]["deck"][1:]
            player = next(p for p in new["players"] if p["id"] == act.player)
            cube = player["voting_cubes"] > 0
            row = add_event_card(new, card, act.player, cube)
            verdict.event("event_card_flipped", at_claim, card=card, row=row)
            if cube:
                player["voting_cubes"] -= 1
                verdict.event("voting_cube_placed", at_claim, player=act.player, card=card)
            else:
                verdict.event("no_voting_cube", at_claim, player=act.player, card=card)
        if rng is not None:
            new["rng"] = rng.state
        return new

    return conclude(ruleset_id=RULESET_ID, version=VERSION, verdict=verdict, mode=mode,
                    apply=apply, derived=derived, reversible=False,
                    state_model=HexManeuverState)


__all__ = ["validate"]

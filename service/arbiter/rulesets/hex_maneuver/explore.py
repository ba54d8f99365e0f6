"""Exploration: the tile flipped (the top of the stack, or the one named), fitting it with
a rotation, the two placement conditions and their priority (explore.3-4), landing on the
claimed hex or staying put (explore.5), relics by solid and outlined symbols (relic.1-3)
and the event card with the explorer's voting cube (event.1-2).

``judge`` (judge.py) judges the path before the claimed hex as a maneuver's; the checks
here fill the same verdict, and ``lay_exploration`` writes the judged exploration into the
ledger (``ledger.py``), a draft of the resulting state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.engine.draft import Draft
from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.hexgrid import Hex, as_dict, neighbours, rotate
from arbiter.engine.outcome import Location, Verdict, location
from arbiter.engine.rng import SeededRng

from .board import Board, tile_problems
from .ledger import Ledger
from .maneuver import PathPlan
from .models import (
    WATER,
    HexManeuverAnyAction,
    HexManeuverExplore,
    HexManeuverState,
    HexManeuverTile,
    RelicSymbol,
    Terrain,
)
from .moves import apply_maneuver
from .terrain import Column

ROTATIONS = range(6)
# What an exploration may report from the table: the tile flipped, the relic drawn, the
# event card flipped.
REPORTED = ("tile", "relic", "event_card")


def reported_draws(action: HexManeuverAnyAction) -> tuple[str, ...]:
    """The draws an exploration reports (table mode): a signed game with a seed makes them
    from its stack, bag and deck instead (``Ruleset.reported_draws``)."""
    if not isinstance(action, HexManeuverExplore):
        return ()
    return tuple(name for name in REPORTED if getattr(action, name) is not None)


@dataclass(frozen=True, slots=True)
class Placement:
    """The tile turned ``rotation`` sixths, laid on the province (or not fitting)."""

    rotation: int
    fits: bool
    terrain: dict[Hex, Terrain]
    relic_hex: Hex | None
    relic_symbol: RelicSymbol | None
    continues_water: bool   # condition 1
    can_land: bool          # condition 2

    @property
    def level(self) -> int:
        """explore.4's priority, as the Reading to implement settles it: a rotation meeting
        both conditions is required when one exists; otherwise one meeting condition 1;
        otherwise any (condition 2 alone ranks no higher than no condition)."""
        if not self.fits:
            return -1
        if self.continues_water and self.can_land:
            return 2
        return 1 if self.continues_water else 0

    def conditions(self) -> list[str]:
        met = []
        if self.continues_water:
            met.append("water_continues")
        if self.can_land:
            met.append("army_can_land")
        return met


def place(board: Board, tile: HexManeuverTile, province: str, rotation: int, claimed: Hex,
          column: Column, ferry_zone: set[Hex]) -> Placement:
    province_hexes = set(board.province_hexes[province])
    offsets = [(rotate((t.dq, t.dr), (0, 0), rotation), t) for t in tile.hexes]
    # The tile's centre goes on the province hex that makes the rotated tile cover the
    # province exactly; the first such hex in sorted order when several would.
    for center in sorted(province_hexes):
        cells = {(center[0] + o[0], center[1] + o[1]): t for o, t in offsets}
        if set(cells) == province_hexes:
            break
    else:
        return Placement(rotation, False, {}, None, None, False, False)
    terrain = {h: t.terrain for h, t in cells.items()}
    relic = next(((h, t.relic_symbol) for h, t in cells.items() if t.relic_symbol), None)
    water = [h for h, t in terrain.items() if t in WATER]
    continues = not water or any(
        n not in province_hexes and board.terrain.get(n) in WATER
        for h in water for n in neighbours(h))
    return Placement(rotation, True, terrain, relic[0] if relic else None,
                     relic[1] if relic else None, continues,
                     may_end_on(terrain[claimed], claimed, column, ferry_zone))


def may_end_on(terrain: Terrain, h: Hex, column: Column, ferry_zone: set[Hex]) -> bool:
    """Condition 2: the exploring column may stand on the claimed hex once it is revealed."""
    water = terrain in WATER
    if column.vessels:
        return water
    if not water:
        return True
    if h in ferry_zone:
        return True
    return terrain is Terrain.sea and column.waders_only


def placements(board: Board, tile: HexManeuverTile, province: str, claimed: Hex,
               column: Column, ferry_zone: set[Hex]) -> list[Placement]:
    return [place(board, tile, province, r, claimed, column, ferry_zone) for r in ROTATIONS]


@dataclass(frozen=True, slots=True)
class RelicDue:
    """Whether this tile receives a relic, why, and the rule that decides: relic.1 (a
    symbol, and relics left to place; a solid symbol needs no more) or relic.2 (an
    outlined symbol's count of relics against unexplored provinces)."""

    due: bool
    reason: str
    rule: str


def relic_due(board: Board, symbol: RelicSymbol | None, province: str) -> RelicDue:
    relics = board.state.relics
    if symbol is None:
        return RelicDue(False, "the tile shows no relic symbol", "relic.1")
    left = relics.to_place if relics is not None else 0
    if left <= 0:
        return RelicDue(False, "no relics remain to be placed", "relic.1")
    if symbol is RelicSymbol.solid:
        return RelicDue(True, "solid symbol", "relic.1")
    remaining = len(board.unexplored_provinces() - {province})
    if left > remaining:
        return RelicDue(True, f"outlined symbol: {left} relics left > {remaining} unexplored "
                        "provinces", "relic.2")
    return RelicDue(False, f"outlined symbol: {left} relics left <= {remaining} unexplored "
                    "provinces", "relic.2")


def draw_relic(bag: list[str], rng: SeededRng) -> str:
    return bag[rng.below(len(bag))]


# --- judging an exploration's tile, relic and event card ---------------------------------

@dataclass(frozen=True, slots=True)
class Flip:
    """The province tile flipped, and whether it is the top of the state's stack (which it
    then leaves)."""

    tile: HexManeuverTile
    from_stack: bool


def flipped_tile(state: HexManeuverState, action: HexManeuverExplore, verdict: Verdict,
                 at: Location) -> Flip | None:
    """explore.3: the stack, when the state keeps one, is what is flipped: its top tile. A
    tile named in table mode must be that tile; with no stack the named tile is all there
    is. None when there is no tile to flip (the exploration's effect is undefined)."""
    tile = action.tile
    from_stack = bool(state.tiles) and (tile is None or tile.id == state.tiles[0].id)
    if tile is not None:
        tile_problems(tile, ("action", "tile")).raise_if_any()
        if state.tiles and tile.id != state.tiles[0].id:
            verdict.violate("tile_not_on_top", at, tile=tile.id, top=state.tiles[0].id)
    elif state.tiles:
        tile = state.tiles[0]
    else:
        verdict.violate("no_tile_to_flip", at, fatal=True)
        return None
    return Flip(tile, from_stack)


def judge_rotation(board: Board, plan: PathPlan, tile: HexManeuverTile, province: str,
                   rotation: int | None, verdict: Verdict, at: Location
                   ) -> tuple[list[Placement], Placement]:
    """Every rotation of the tile on the province, and the one chosen (the first meeting
    the highest-priority conditions when none is named): it must fit (explore.3) and meet
    the conditions explore.4 requires."""
    taken = {plan.army.id: plan.moving}
    ferry_zone = board.ferry_zone(board.vessel_hexes(plan.army.owner, taken))
    column = Column.of(board, plan.arriving)
    options = placements(board, tile, province, plan.destination, column, ferry_zone)
    required = max(p.level for p in options)
    best = next(p for p in options if p.level == required)
    chosen = options[rotation] if rotation is not None else best
    if not chosen.fits:
        verdict.violate("tile_does_not_fit", at, fatal=True, tile=tile.id,
                        rotation=chosen.rotation, province=province)
    elif chosen.level < required:
        verdict.violate("placement_priority_ignored", at, rotation=chosen.rotation,
                        met=chosen.conditions() or ["no condition"], better=best.rotation,
                        required=best.conditions())
    return options, chosen


@dataclass(frozen=True, slots=True)
class RelicChoice:
    """Whether the tile receives a relic and why, and which relic (None: none is placed)."""

    due: bool
    reason: str
    relic: str | None


def judge_relic(board: Board, action: HexManeuverExplore, chosen: Placement, province: str,
                rng: SeededRng | None, verdict: Verdict) -> RelicChoice:
    """relic.1-3: the relic named in table mode, or drawn from the bag with the state's
    seed in digital mode (the draw advances ``rng``). A relic named where none is due is
    refused under the rule that decided it (relic.1 or relic.2)."""
    found = relic_due(board, chosen.relic_symbol, province)
    due, reason = found.due, found.reason
    relics = board.state.relics
    at = location(hex=chosen.relic_hex)
    if action.relic is not None:
        if not due:
            code = "relic_not_due" if found.rule == "relic.2" else "no_relic_to_place"
            verdict.violate(code, at, relic=action.relic, reason=reason)
            return RelicChoice(due, reason, None)
        if relics is not None and relics.bag and action.relic not in relics.bag:
            raise InvalidInput([Problem("/action/relic",
                                        f"relic {action.relic} is not in the bag")])
        return RelicChoice(due, reason, action.relic)
    if not due:
        return RelicChoice(due, reason, None)
    if relics is not None and not relics.bag:
        # No seed would help: there is nothing in the bag to draw (table mode may keep no
        # bag, and then names the relic).
        verdict.violate("relic_bag_empty", at, fatal=True, hex=hex_or_none(chosen.relic_hex))
        return RelicChoice(due, reason, None)
    if rng is not None and relics is not None:
        return RelicChoice(due, reason, draw_relic(relics.bag, rng))
    verdict.violate("relic_draw_missing", at, fatal=True, hex=hex_or_none(chosen.relic_hex))
    return RelicChoice(due, reason, None)


@dataclass(frozen=True, slots=True)
class CardFlip:
    """The event card flipped (None: none could be), and whether it is the deck's top."""

    card: str | None
    from_deck: bool


def judge_event_card(state: HexManeuverState, action: HexManeuverExplore, verdict: Verdict,
                     at: Location) -> CardFlip:
    """event.1: the top card of the deck, or the card named in table mode."""
    deck = state.events.deck
    card = action.event_card or (deck[0] if deck else None)
    if action.event_card is not None and deck and action.event_card != deck[0]:
        verdict.violate("event_card_not_on_top", at, card=action.event_card, top=deck[0])
    if card is None:
        verdict.violate("event_card_missing", at)
    return CardFlip(card, bool(deck) and card == deck[0])


def hex_or_none(h: Hex | None) -> dict[str, int] | None:
    return as_dict(h) if h is not None else None


# --- applying a judged exploration -------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Exploration:
    """Everything judged about an exploration that its effect needs."""

    plan: PathPlan
    player: str
    cubes: int                 # depletion cubes for the army that lands
    packers: frozenset[str]    # unit types that pack to move (trebuchet.1)
    province: str
    flip: Flip
    placement: Placement
    relic: RelicChoice
    card: CardFlip
    rng: SeededRng | None


def lay_exploration(board: Board, ex: Exploration, verdict: Verdict) -> Draft:
    """The tile laid (off the stack), the relic placed, the army landed or left where it
    was, the event card flipped with the explorer's voting cube, the advanced seed."""
    ledger = Ledger(board)
    plan, placement = ex.plan, ex.placement
    at_claim = location(hex=plan.destination)
    lay_tile(ledger, placement, ex.province)
    if ex.flip.from_stack:
        del ledger["tiles"][0]
    verdict.event("tile_placed", at_claim, tile=ex.flip.tile.id, province=ex.province,
                  rotation=placement.rotation)
    if ex.relic.relic is not None and placement.relic_hex is not None \
            and board.state.relics is not None:
        place_relic(ledger, ex.relic.relic, placement.relic_hex, verdict)
    if placement.can_land:
        apply_maneuver(ledger, plan, plan.army.owner, ex.cubes, verdict, ex.packers)
    else:
        _stay(board, ledger, ex, verdict)
    if ex.card.card is not None:
        flip_event_card(ledger, ex.card.card, ex.card.from_deck, ex.player, verdict, at_claim)
    if ex.rng is not None:
        ledger["rng"] = ex.rng.state
    return ledger.draft


def _stay(board: Board, ledger: Ledger, ex: Exploration, verdict: Verdict) -> None:
    """explore.5: the army cannot move onto the claimed hex and stays where it was."""
    plan = ex.plan
    claimed = plan.destination
    verdict.event("landing_failed", location(hex=claimed, piece=plan.army.id),
                  army=plan.army.id, hex=as_dict(claimed),
                  terrain=ex.placement.terrain[claimed].value)
    if board.state.options.deplete_when_landing_fails:
        army = ledger.armies[plan.army.id]
        army["depletion"] = max(army["depletion"], ex.cubes)


def place_relic(ledger: Ledger, relic: str, h: Hex, verdict: Verdict) -> None:
    """relic.3: the relic leaves the bag for its hex."""
    rel = ledger["relics"]
    rel["to_place"] -= 1
    if relic in rel["bag"]:
        rel["bag"].remove(relic)
    rel["placed"].append({"relic": relic, "hex": as_dict(h)})
    verdict.event("relic_placed", location(hex=h), relic=relic, hex=as_dict(h))


def flip_event_card(ledger: Ledger, card: str, from_deck: bool, player: str, verdict: Verdict,
                    at: Location) -> None:
    """event.1-2: the card (off the deck) joins the rows, with one of the player's voting
    cubes when the bank has one left."""
    if from_deck:
        del ledger["events"]["deck"][0]
    holder = ledger.players[player]
    cube = holder["voting_cubes"] > 0
    row = add_event_card(ledger, card, player, cube)
    verdict.event("event_card_flipped", at, card=card, row=row)
    if cube:
        holder["voting_cubes"] -= 1
        verdict.event("voting_cube_placed", at, player=player, card=card)
    else:
        verdict.event("no_voting_cube", at, player=player, card=card)


def lay_tile(ledger: Ledger, placement: Placement, province: str) -> None:
    """Reveal the province's hexes with the placed tile's terrain."""
    for hx in ledger["hexes"]:
        h = (hx["q"], hx["r"])
        if hx["province"] == province and h in placement.terrain:
            hx["terrain"] = placement.terrain[h].value
            hx["explored"] = True


def add_event_card(ledger: Ledger, card: str, player: str, cube: bool) -> int:
    """Put ``card`` in the last row of up to three (a full row starts another); returns the
    row's index."""
    rows: list[list[dict[str, Any]]] = ledger["events"]["rows"]
    if not rows or len(rows[-1]) >= 3:
        rows.append([])
    rows[-1].append({"card": card, "voting_cubes": [player] if cube else []})
    return len(rows) - 1

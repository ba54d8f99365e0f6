"""Why an army cannot end on a hex (``POST /v1/rulesets/hex_maneuver/why-not``): the
maneuver (or exploration) that would take it there along one cheapest path, judged by
``judge``, with what would change the answer: the movement points a path costs against
those the column has (and with a march), or the enemy armies that block every path.

The path comes from ``reach.destinations`` when the hex is reachable (so a hex
``reachable`` lists is possible here), else from the same search with no budget, else
(every path blocked) from the shortest line of map hexes, whose blockers ``judge`` names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.hexgrid import Axial, Hex, as_dict, fewest_steps, neighbours
from arbiter.engine.why_not import (
    ACTION_FIELD,
    REPORT_THE_DRAWS,
    WhyNotAnswer,
    WhyNotChange,
    change,
    judged,
)
from arbiter.engine.wire import Frozen, Id

from .board import Board, compile_board
from .judge import judge
from .models import (
    MAX_PATH,
    HexManeuverAction,
    HexManeuverAnyAction,
    HexManeuverArmy,
    HexManeuverState,
    UnitCounts,
)
from .queries import check_army
from .reach import destinations, unbounded

# The violations of an exploration that only name a draw made at the table (table mode):
# the action the client sends after the draw names it.
TABLE_DRAWS = frozenset({"no_tile_to_flip", "relic_draw_missing", "relic_bag_empty",
                         "event_card_missing"})


class HexManeuverWhyNotRequest(Frozen):
    state: HexManeuverState
    army: Id
    hex: Axial = Field(description="The hex the player asks about.")
    units: UnitCounts | None = Field(default=None, max_length=32,
                                     description="A subset of the army's units; all when "
                                     "omitted.")
    march: bool = Field(default=True, description="Allow a march (when the game's options "
                        "allow marching), as reachable does.")


class HexManeuverWhyNotResponse(WhyNotAnswer):
    # Optional outside the tagged union, so GraphQL makes it a nullable union.
    action: Annotated[HexManeuverAnyAction, Field(discriminator="type")] | None = Field(
        default=None, description=ACTION_FIELD)
    army: str
    hex: Axial
    movement_points: int = Field(description="What the column has to move with (after any "
                                 "packing), before a march.")
    cost: int | None = Field(description="The movement points of the path judged; null when "
                             "every path is blocked.")
    path: list[Axial] = Field(description="The path judged, start hex excluded.")


def _blockers(board: Board, player: str, met: frozenset[Hex]) -> list[Hex]:
    """The enemy-held hexes next to where the open search got: what stops every path."""
    enemies = board.enemy_hexes(player)
    return sorted({n for h in met for n in neighbours(h) if n in enemies},
                  key=lambda h: (h[1], h[0]))


@dataclass(slots=True)
class _Attempt:
    """The path judged, its cost (None: every path blocked), whether it marches, and what
    would change the answer."""

    path: list[Hex]
    cost: int | None
    march: bool
    changes: list[WhyNotChange]


def _unreached(board: Board, army: HexManeuverArmy, units: UnitCounts | None, target: Hex,
               points: int, marching: bool) -> _Attempt:
    """A hex the column cannot reach now: the cheapest path with no budget and what it
    costs, else the shortest line of map hexes and the enemy armies that block every path."""
    search = unbounded(board, army.owner, army.id, units, target)
    if search.cost is None:
        blockers = _blockers(board, army.owner, search.met)
        where = ", ".join(f"({q},{r})" for q, r in blockers)
        line = fewest_steps(army.hex.key, target, board.terrain) or []
        return _Attempt(line, None, False, [change(
            "no_open_path", ("enemy armies on " + where + " block every path") if blockers
            else "no open path leads there (impassable terrain, or no vessel to carry "
            "the column)", blockers=[as_dict(h) for h in blockers])])
    if army.depletion > 0:
        return _Attempt(search.path, search.cost, False, [])
    # The march's point is offered whether or not this question allowed it.
    can_march = board.state.options.march
    with_march = f"; with a march {points + 1}" if can_march else ""
    return _Attempt(search.path, search.cost, marching and search.cost == points + 1, [change(
        "path_too_costly", f"the cheapest path costs {search.cost} MP, the column has "
        f"{points}{with_march}", cost=search.cost, movement_points=points,
        with_march=points + 1 if can_march else None)])


def run_why_not(request: HexManeuverWhyNotRequest) -> HexManeuverWhyNotResponse:
    board = compile_board(request.state)
    check_army(board, request.army, request.units)
    target = request.hex.key
    if target not in board.terrain:
        problems = Problems()
        problems.add(pointer("hex"), f"no hex ({target[0]},{target[1]}) on the map")
        problems.raise_if_any()
    army = board.armies[request.army]
    points, found = destinations(board, army.owner, army.id, request.units, request.march)
    changes: list[WhyNotChange] = []
    if army.depletion > 0:
        found = []
        changes.append(change("army_depleted", f"army {army.id} is depleted: it cannot "
                              "maneuver before the depletion is removed", army=army.id))
    reached = next((d for d in found if d.hex == target), None)
    if reached is not None:
        attempt = _Attempt(reached.path, reached.cost, reached.march, [])
    else:
        attempt = _unreached(board, army, request.units, target, points,
                             request.march and board.state.options.march)
    changes += attempt.changes
    path = attempt.path
    action = None
    if (path and len(path) <= MAX_PATH) or target == army.hex.key:
        kind = "explore" if target in board.unexplored else "maneuver"
        action = {"type": kind, "player": army.owner, "army": army.id,
                  "path": [as_dict(h) for h in path], "march": attempt.march}
        if request.units is not None:
            action["units"] = dict(request.units)
    written, violations = judged(judge, HexManeuverAction, board, action)
    draws = sorted({v.code for v in violations} & TABLE_DRAWS)
    if draws:
        # Table mode: the tile, relic or event card is drawn at the table and named in the
        # action; the exploration is open once they are (reachable lists the hex).
        changes.append(change(REPORT_THE_DRAWS, "the exploration needs what is drawn at "
                              "the table named in the action (its tile, relic, event card)",
                              codes=draws))
    return HexManeuverWhyNotResponse(
        possible=reached is not None and not violations, action=written,
        violations=violations, changes=changes, army=army.id, hex=request.hex,
        movement_points=points, cost=attempt.cost,
        path=[Axial(q=q, r=r) for q, r in path])

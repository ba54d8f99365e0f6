"""What a ``hex_maneuver`` state looks like (``render``): the hex map coloured by terrain
(unexplored provinces grey), coordinates, terrain and province in each hex's tooltip;
armies (their unit count), structures and placed relics as pieces.

Overlays: ``reachable`` shades every hex an army (or some of its units) can end on by its
cost in movement points, as the ``reachable`` query answers it, and draws one cheapest
path (to ``to`` when given, else to the dearest hex); each shaded hex carries the
maneuver (or exploration) that goes there. Clicking an army asks for it. A proposed
maneuver or exploration is drawn as an arrow along its path.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from arbiter.engine.hexgrid import Axial, Hex
from arbiter.engine.wire import Frozen, Id
from arbiter.pictures.scene import (
    Arrow,
    Cell,
    Glyph,
    Picture,
    Piece,
    Place,
    Scene,
    Shade,
    within,
)

from .board import Board
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE
from .models import HexManeuverAnyAction, HexManeuverArmy, HexManeuverState, UnitCounts
from .queries import HexManeuverDestination, HexManeuverReachableRequest, run_reachable


class HexManeuverReachableOverlay(Frozen):
    army: Id
    units: UnitCounts | None = Field(default=None, max_length=32,
                                     description="A subset of the army's units; all when "
                                     "omitted.")
    march: bool = Field(default=True, description="Include hexes that need a march.")
    to: Axial | None = Field(default=None, description="Draw the cheapest path to this hex; "
                             "to the dearest reachable hex when omitted.")


class HexManeuverOverlay(Frozen):
    """What to draw over a hex_maneuver map."""

    reachable: HexManeuverReachableOverlay | None = Field(
        default=None, description="Shade the hexes an army can reach by cost, with one path.")


GLYPHS = (
    Glyph("army", "3", "an army, with its number of units"),
    Glyph("city", "C", "a city"),
    Glyph("castle", "C", "a castle"),
    Glyph("structure", "O", "another structure"),
    Glyph("relic", "R", "a relic lying on the map", neutral=True),
)


def scene(board: Board, overlay: HexManeuverOverlay | None,
          action: HexManeuverAnyAction | None) -> Scene:
    state = board.state
    caption = ""
    shades: tuple[Shade, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    if overlay is not None and overlay.reachable is not None:
        with within("reachable"):
            caption, shades, arrows = _reachable(board, overlay.reachable)
    if action is not None:
        arrows = (*arrows, *_action_arrows(board, action))
    return Scene(
        glyphs=GLYPHS,
        title=f"hex_maneuver: {len(state.hexes)} hexes, {len(state.armies)} armies",
        desc=f"A hex map; players {', '.join(p.id for p in state.players)}; armies, "
             "structures and relics as pieces.",
        players=tuple(p.id for p in state.players),
        cells=tuple(_cell(state, i) for i in range(len(state.hexes))),
        pieces=_pieces(state), shades=shades, arrows=arrows, caption=caption,
        shade_unit="movement points")


def _cell(state: HexManeuverState, i: int) -> Cell:
    h = state.hexes[i]
    known = h.terrain is not None and h.explored
    terrain = h.terrain.value if known and h.terrain is not None else "unexplored"
    return Cell(hex=(h.q, h.r), terrain=terrain,
                title=f"({h.q},{h.r}) {terrain}, province {h.province}")


def _units(army: HexManeuverArmy) -> str:
    units = ", ".join(f"{n} {u}" for u, n in army.units.items() if n)
    return units + (f"; {army.depletion} depletion" if army.depletion else "")


def _pieces(state: HexManeuverState) -> tuple[Piece, ...]:
    pieces = [Piece(id=a.id, at=a.hex.key, owner=a.owner, label=str(sum(a.units.values())),
                    title=f"army {a.id} ({a.owner}) at ({a.hex.q},{a.hex.r})",
                    desc=_units(a) or "no units", select={"reachable": {"army": a.id}})
              for a in state.armies]
    pieces += [Piece(id=s.id, at=s.hex.key, owner=s.owner, label=s.kind.value[0].upper(),
                     title=f"{s.kind.value} {s.id} ({s.owner})",
                     desc=f"a {s.kind.value} at ({s.hex.q},{s.hex.r})",
                     kind="structure" if s.kind.value == "other" else s.kind.value)
               for s in state.structures]
    if state.relics is not None:
        pieces += [Piece(id=f"relic-{r.relic}", at=r.hex.key, owner=None, label="R",
                         title=f"relic {r.relic}", desc=f"relic {r.relic} lies here",
                         kind="relic")
                   for r in state.relics.placed]
    return tuple(pieces)


def _reachable(board: Board, ask: HexManeuverReachableOverlay
               ) -> tuple[str, tuple[Shade, ...], tuple[Arrow, ...]]:
    answer = run_reachable(HexManeuverReachableRequest(
        state=board.state, army=ask.army, units=ask.units, march=ask.march))
    army = board.armies[ask.army]
    shades = tuple(Shade(at=d.hex.key, cost=d.cost, label=_flags(d),
                         action=_move(army, d, ask.units))
                   for d in answer.destinations)
    target = _path_end(answer.destinations, ask.to)
    arrows: tuple[Arrow, ...] = ()
    if target is not None:
        path: tuple[Place, ...] = (army.hex.key, *(h.key for h in target.path))
        arrows = (Arrow(path=path, owner=army.owner, kind="path",
                        label=f"one cheapest path to ({target.hex.q},{target.hex.r}): "
                              f"{target.cost} MP"),)
    why = " (depleted: it cannot maneuver)" if answer.depleted else ""
    caption = (f"reachable by {army.id} with {answer.movement_points} MP: "
               f"{len(shades)} hexes{why}")
    return caption, shades, arrows


def _flags(d: HexManeuverDestination) -> str:
    flags = [name for name, on in (("march", d.march), ("ferry", d.ferry),
                                   ("explore", d.explore)) if on]
    return f"{d.cost} MP" + (f" ({', '.join(flags)})" if flags else "")


def _move(army: HexManeuverArmy, d: HexManeuverDestination,
          units: dict[str, int] | None) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "explore" if d.explore else "maneuver",
                            "player": army.owner, "army": army.id}
    if units is not None:
        move["units"] = dict(units)
    move["path"] = [{"q": h.q, "r": h.r} for h in d.path]
    if d.march:
        move["march"] = True
    return move


def _path_end(found: list[HexManeuverDestination], to: Axial | None
              ) -> HexManeuverDestination | None:
    if to is not None:
        return next((d for d in found if d.hex == to), None)
    dearest = max((d.cost for d in found), default=None)
    return next((d for d in found if d.cost == dearest), None)


def _action_arrows(board: Board, action: HexManeuverAnyAction) -> tuple[Arrow, ...]:
    army = board.armies.get(action.army)
    if army is None:
        return ()
    path: list[Hex] = [army.hex.key, *(h.key for h in action.path)]
    if len(path) > 1 and path[1] == path[0]:
        path.pop(0)   # the army's own hex may lead the path
    return (Arrow(path=tuple(path), owner=action.player,
                  label=f"{action.player}: {action.type} {action.army} along "
                        f"{', '.join(f'({q},{r})' for q, r in path)}"),)


EXAMPLES: tuple[dict[str, Any], ...] = (
    {"state": EXAMPLE_STATE},
    {"state": EXAMPLE_STATE, "overlay": {"reachable": {"army": "red-1"}}},
    {"state": EXAMPLE_STATE, "overlay": {"action": EXAMPLE_ACTION}},
)

PICTURE: Picture[Board] = Picture(overlay=HexManeuverOverlay, scene=scene, examples=EXAMPLES)

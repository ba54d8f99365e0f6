"""What an ``area_movement`` state looks like (``render``): land areas and pure water areas
as a graph, laid out by the drawing, land borders solid and water routes dashed, each
area's population limit, city site and status in its tooltip; players' tokens, cities
(pirate cities neutral), barbarians and ships as pieces, each player's treasury off the
board.

Overlays: ``reachable`` (the ``reachable`` query) for a player shades the areas their
unmoved tokens can step to (from one area with ``from_area``), each with the one-token
``move_tokens`` plan that goes there; with ``ship``, the areas that ship reaches by its
number of water steps, each with the voyage that ends there, and one voyage drawn.
Clicking tokens or a ship asks for them. A proposed plan is drawn step by step, arrows
numbered by step.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from arbiter.engine.wire import Frozen, Id
from arbiter.pictures.scene import (
    Arrow,
    Edge,
    Glyph,
    Node,
    Picture,
    Piece,
    Scene,
    Shade,
    within,
)

from .board import Board
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE
from .models import (
    AreaMovementAnyAction,
    AreaMovementAnyStep,
    AreaMovementArea,
    AreaMovementBuildShip,
    AreaMovementDestroyShip,
    AreaMovementMaintainShip,
    AreaMovementMoveTokens,
    AreaMovementPlan,
    AreaMovementSail,
    AreaMovementSea,
)
from .queries import AreaMovementReachableRequest, run_reachable
from .reach import AreaMovementWaterReach


class AreaMovementReachableOverlay(Frozen):
    player: Id
    from_area: Id | None = Field(default=None, description="Only the tokens in this area.")
    ship: Id | None = Field(default=None, description="This ship's voyages instead of the "
                            "tokens' land steps.")
    to: Id | None = Field(default=None, description="With ship: draw the voyage to this "
                          "area; to the farthest when omitted.")


class AreaMovementOverlay(Frozen):
    """What to draw over an area_movement board."""

    reachable: AreaMovementReachableOverlay | None = Field(
        default=None, description="Shade where a player's tokens (or one ship) can go.")


GLYPHS = (
    Glyph("army", "3", "a player's tokens in an area, with how many"),
    Glyph("army", "2", "barbarian tokens, with how many", neutral=True),
    Glyph("city", "C", "a city"),
    Glyph("city", "C", "a pirate city", neutral=True),
    Glyph("ship", "", "a ship"),
)


def scene(board: Board, overlay: AreaMovementOverlay | None,
          action: AreaMovementAnyAction | None) -> Scene:
    state = board.state
    caption = ""
    shades: tuple[Shade, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    if overlay is not None and overlay.reachable is not None:
        with within("reachable"):
            caption, shades, arrows = _reachable(board, overlay.reachable)
    if isinstance(action, AreaMovementPlan):
        arrows = (*arrows, *_plan_arrows(board, action))
    return Scene(
        glyphs=GLYPHS,
        title=f"area_movement: {len(state.areas)} land areas, {len(state.seas)} seas",
        desc=f"Land and water areas; players in census order: {', '.join(board.order)}.",
        players=tuple(p.id for p in state.players),
        nodes=(*(_land(a) for a in state.areas), *(_sea(s) for s in state.seas)),
        edges=_edges(board), pieces=_pieces(board), shades=shades, arrows=arrows,
        caption=caption, shade_unit="steps")


def _land(a: AreaMovementArea) -> Node:
    kind = "out_of_play" if a.out_of_play else "coastal" if a.coastal else "land"
    facts = [f"population limit {a.population_limit}", *(["city site"] if a.city_site else []),
             *(["coastal"] if a.coastal else []), *(["out of play"] if a.out_of_play else [])]
    return Node(id=a.id, kind=kind, label=a.id, title=f"{a.id}: {', '.join(facts)}")


def _sea(s: AreaMovementSea) -> Node:
    kind = "open_sea" if s.open_sea else "sea"
    return Node(id=s.id, kind=kind, label=s.id, title=f"{s.id}: {kind.replace('_', ' ')}")


def _edges(board: Board) -> tuple[Edge, ...]:
    """Each pair once, in the state's order: a land border, else a water route."""
    order = {a: i for i, a in enumerate([*board.areas, *board.seas])}
    edges = []
    for a in order:
        land = board.land.get(a, frozenset())
        for b in sorted(land | board.water.get(a, frozenset())):
            if b in order and order[a] < order[b]:
                edges.append(Edge(a, b, "land" if b in land else "water"))
    return tuple(edges)


def _pieces(board: Board) -> tuple[Piece, ...]:
    state = board.state
    pieces = [Piece(id=f"city@{c.area}", at=c.area, owner=c.owner, label="C",
                    title=f"city in {c.area}" + (f" ({c.owner})" if c.owner else " (pirate)"),
                    desc="a city", kind="city")
              for c in state.cities]
    pieces += [Piece(id=f"barbarians@{area}", at=area, owner=None, label=str(n),
                     title=f"barbarians in {area}", desc=f"{n} barbarian token(s)")
               for area, n in state.barbarians.items()]
    for p in state.players:
        for area, n in p.tokens.items():
            moved = p.moved_by_land.get(area, 0) + p.moved_by_ship.get(area, 0)
            pieces.append(Piece(id=f"{p.id}@{area}", at=area, owner=p.id, label=str(n),
                                title=f"{p.id} in {area}",
                                desc=f"{n} token(s), {moved} moved this turn",
                                select={"reachable": {"player": p.id, "from_area": area}}))
        pieces.append(Piece(id=f"{p.id}-treasury", at=None, owner=p.id, label=str(p.treasury),
                            title=f"{p.id}: treasury {p.treasury}, census {p.census}",
                            desc="treasury tokens; click for where the tokens can go",
                            kind="tokens", select={"reachable": {"player": p.id}}))
    pieces += [Piece(id=s.id, at=s.area, owner=s.owner, label="", title=f"ship {s.id} "
                     f"({s.owner}) in {s.area}", desc=_ship_words(s.built_this_turn,
                                                                  s.sailed_this_turn),
                     kind="ship", select={"reachable": {"player": s.owner, "ship": s.id}})
               for s in state.ships]
    return tuple(pieces)


def _ship_words(built: bool, sailed: bool) -> str:
    return ("built this turn" if built else "built earlier") + ("; sailed" if sailed else "")


def _reachable(board: Board, ask: AreaMovementReachableOverlay
               ) -> tuple[str, tuple[Shade, ...], tuple[Arrow, ...]]:
    answer = run_reachable(AreaMovementReachableRequest(state=board.state, player=ask.player))
    if ask.ship is not None:
        ship = next((s for s in answer.ships if s.ship == ask.ship), None)
        if ship is None:
            return f"{ask.ship} is not a ship of {ask.player}", (), ()
        return _voyages(ask, ship.area, ship.reach)
    shades: dict[str, Shade] = {}
    for land in answer.land:
        if ask.from_area is not None and land.area != ask.from_area:
            continue
        for target in land.to:
            shades.setdefault(target, Shade(
                at=target, cost=1, label=f"1 step by land from {land.area}",
                action={"type": "movement", "player": ask.player, "steps": [
                    {"type": "move_tokens", "from_area": land.area, "to_area": target,
                     "count": 1}]}))
    where = f" from {ask.from_area}" if ask.from_area else ""
    wait = "" if answer.may_move_now else " (not their turn to move)"
    return (f"land steps of {ask.player}'s unmoved tokens{where}{wait}",
            tuple(shades.values()), ())


def _voyages(ask: AreaMovementReachableOverlay, start: str,
             reach: list[AreaMovementWaterReach]
             ) -> tuple[str, tuple[Shade, ...], tuple[Arrow, ...]]:
    shades = tuple(Shade(at=r.area, cost=r.steps, label=f"{r.steps} water step(s)",
                         action={"type": "movement", "player": ask.player, "steps": [
                             {"type": "sail", "ship": ask.ship,
                              "path": [{"area": a} for a in r.path]}]} if r.can_end else None)
                   for r in reach)
    end = next((r for r in reach if r.area == ask.to), None) if ask.to else (
        reach[-1] if reach else None)
    arrows = () if end is None else (
        Arrow(path=(start, *end.path), owner=ask.player, kind="path",
              label=f"one voyage to {end.area}: {end.steps} step(s)"),)
    return f"voyages of {ask.ship} from {start}", shades, arrows


def _plan_arrows(board: Board, plan: AreaMovementPlan) -> tuple[Arrow, ...]:
    """One arrow per step that moves something (a ring for a ship built, maintained or
    destroyed), following each ship from where the earlier steps left it."""
    ships = {s.id: s.area for s in board.state.ships}
    arrows = []
    for i, step in enumerate(plan.steps):
        path = _step_path(step, ships)
        if path:
            what = step.type.replace("_", " ")
            arrows.append(Arrow(path=path, owner=plan.player, step=i,
                                kind="sail" if isinstance(step, AreaMovementSail) else "move",
                                label=f"step {i}: {what} → {path[-1]}"))
    return tuple(arrows)


def _step_path(step: AreaMovementAnyStep, ships: dict[str, str]) -> tuple[str, ...]:
    if isinstance(step, AreaMovementMoveTokens):
        return (step.from_area, step.to_area)
    if isinstance(step, AreaMovementSail):
        if step.ship not in ships:
            return ()
        path = (ships[step.ship], *(s.area for s in step.path))
        ships[step.ship] = path[-1]
        return path
    if isinstance(step, AreaMovementBuildShip):
        ships[step.ship] = step.area
        return (step.area,)
    if isinstance(step, AreaMovementMaintainShip | AreaMovementDestroyShip):
        return (ships[step.ship],) if step.ship in ships else ()
    return ()


EXAMPLES: tuple[dict[str, Any], ...] = (
    {"state": EXAMPLE_STATE},
    {"state": EXAMPLE_STATE, "overlay": {"reachable": {"player": "red", "ship": "argo"}}},
    {"state": EXAMPLE_STATE, "overlay": {"action": EXAMPLE_ACTION}},
)

PICTURE: Picture[Board] = Picture(overlay=AreaMovementOverlay, scene=scene, examples=EXAMPLES)

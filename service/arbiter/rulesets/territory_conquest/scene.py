"""What a ``territory_conquest`` state looks like (``render``): the Conquest board as a graph
of its territories (castles, land, seas), laid out by the drawing, each territory's bonus
locations, production and victory points in its tooltip; each player's army pawns per
territory (the bonus locations they hold in the pawns' description) and their reserve off
the board.

Overlays: ``costs`` writes on each territory the pawns a player needs to take it (the
``conquest-cost`` query) and shades those they can take now, each with the ``move`` that
does it with the fewest pawns; clicking a player's pawns asks for it. A proposed move is
drawn as an arrow from each source territory; a recruit as a ring on the castle.
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
    Note,
    Picture,
    Piece,
    Scene,
    Shade,
    within,
)

from .board import Board
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE
from .models import (
    TerritoryConquestAnyAction,
    TerritoryConquestMove,
    TerritoryConquestRecruit,
    TerritoryConquestTerritory,
)
from .queries import (
    TargetStatus,
    TerritoryConquestConquestCostRequest,
    TerritoryConquestTargetCost,
    run_conquest_cost,
)


class TerritoryConquestCostsOverlay(Frozen):
    player: Id = Field(description="The conquering player.")


class TerritoryConquestOverlay(Frozen):
    """What to draw over a territory_conquest board."""

    costs: TerritoryConquestCostsOverlay | None = Field(
        default=None, description="Write the pawns needed on each territory and shade those "
        "the player can take now.")


GLYPHS = (
    Glyph("army", "3", "a player's army pawns in a territory, with how many"),
)


def scene(board: Board, overlay: TerritoryConquestOverlay | None,
          action: TerritoryConquestAnyAction | None) -> Scene:
    state = board.state
    caption = ""
    shades: tuple[Shade, ...] = ()
    notes: tuple[Note, ...] = ()
    if overlay is not None and overlay.costs is not None:
        with within("costs"):
            caption, shades, notes = _costs(board, overlay.costs.player)
    return Scene(
        glyphs=GLYPHS,
        title=f"territory_conquest: {len(state.territories)} territories",
        desc=f"The Conquest board; players {', '.join(p.id for p in state.players)}, "
             f"{state.round_first_player} first this round.",
        players=tuple(p.id for p in state.players),
        nodes=tuple(_node(board, t) for t in state.territories), edges=_edges(board),
        pieces=_pieces(board), shades=shades, notes=notes,
        arrows=_arrows(board, action) if action is not None else (),
        caption=caption, shade_unit="pawns needed")


def _node(board: Board, t: TerritoryConquestTerritory) -> Node:
    owner = board.castle_owner.get(t.id)
    facts = [f"castle of {owner}" if owner else t.kind.value]
    facts += [f"{b.id} ({b.effect.value})" for b in t.bonus_locations]
    facts += [f"produces {n} {r.value}" for r, n in t.production.items()]
    facts += [f"{n} VP for {p}" for p, n in t.victory_points.items()]
    return Node(id=t.id, kind="castle" if owner else t.kind.value, label=t.id,
                title=f"{t.id}: {', '.join(facts)}")


def _edges(board: Board) -> tuple[Edge, ...]:
    seen: set[tuple[str, str]] = set()
    edges = []
    for a, b in board.state.adjacent:
        key = (min(a, b), max(a, b))
        if key not in seen:
            seen.add(key)
            edges.append(Edge(a, b))
    return tuple(edges)


def _pieces(board: Board) -> tuple[Piece, ...]:
    pieces = []
    for p in board.state.players:
        select = {"costs": {"player": p.id}}
        for territory, pawns in board.armies[p.id].items():
            held = board.held_locations(p.id, territory)
            on = f"; on {', '.join(held)}" if held else ""
            pieces.append(Piece(id=f"{p.id}@{territory}", at=territory, owner=p.id,
                                label=str(pawns), title=f"{p.id} in {territory}",
                                desc=f"{pawns} army pawn(s){on}", select=select))
        reserve = board.reserve(p.id)
        pieces.append(Piece(id=f"{p.id}-reserve", at=None, owner=p.id, label=str(reserve),
                            title=f"{p.id}: {reserve} in reserve, "
                                  f"{p.soldier_tokens} soldier token(s)",
                            desc="army pawns beside the board; click for conquest costs",
                            select=select))
    return tuple(pieces)


def _costs(board: Board, player: str) -> tuple[str, tuple[Shade, ...], tuple[Note, ...]]:
    answer = run_conquest_cost(TerritoryConquestConquestCostRequest(state=board.state,
                                                                    player=player))
    shades = []
    notes = []
    for target in answer.targets:
        if target.status not in (TargetStatus.neutral, TargetStatus.enemy):
            continue
        notes.append(Note(at=target.territory, text=f"needs {target.pawns_needed}",
                          title=f"taking {target.territory} needs {target.pawns_needed} "
                                "pawn(s) and as many soldier tokens"))
        shade = _shade(player, target, answer.holds_double_move)
        if shade is not None:
            shades.append(shade)
    way = "with" if answer.holds_double_move else "without"
    caption = (f"pawns {player} needs per territory ({answer.soldier_tokens} soldier "
               f"token(s), {way} double move)")
    return caption, tuple(shades), tuple(notes)


def _shade(player: str, target: TerritoryConquestTargetCost, double_move: bool
           ) -> Shade | None:
    route = target.with_double_move if double_move else target.without_double_move
    if not route.feasible:
        return None
    move = {"type": "move", "player": player, "destination": target.territory,
            "sources": [s.model_dump(mode="json") for s in route.plan]}
    return Shade(at=target.territory, cost=target.pawns_needed,
                 label=f"take with {target.pawns_needed} pawn(s)", action=move)


def _arrows(board: Board, action: TerritoryConquestAnyAction) -> tuple[Arrow, ...]:
    if isinstance(action, TerritoryConquestMove):
        return tuple(Arrow(path=(s.territory, action.destination), owner=action.player,
                           label=f"{action.player}: {s.count} pawn(s) {s.territory} → "
                                 f"{action.destination}")
                     for s in action.sources)
    if isinstance(action, TerritoryConquestRecruit):
        castle = board.castle.get(action.player)
        if castle is None:
            return ()
        return (Arrow(path=(castle,), owner=action.player,
                      label=f"{action.player}: recruit {action.count} into {castle}"),)
    return ()


EXAMPLES: tuple[dict[str, Any], ...] = (
    {"state": EXAMPLE_STATE},
    {"state": EXAMPLE_STATE, "overlay": {"costs": {"player": "red"}}},
    {"state": EXAMPLE_STATE, "overlay": {"action": EXAMPLE_ACTION}},
)

PICTURE: Picture[Board] = Picture(overlay=TerritoryConquestOverlay, scene=scene,
                                  examples=EXAMPLES)

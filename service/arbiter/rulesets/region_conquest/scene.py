"""What a ``region_conquest`` state looks like (``render``): the regions as a graph of their
borders, laid out by the drawing (the state carries no geometry), each with its kind, edge
and markers in its tooltip; each race's tokens on their regions (active, in decline), the
Lost Tribe's, and each player's tokens in hand off the board.

Overlays: ``costs`` writes the conquest cost (the ``conquest-cost`` query's total) on every
region for a player and shades the regions they may conquer now, each with its
``conquer`` (or ``final_conquest``, when only the die could win) action; clicking a
player's tokens asks for it. A proposed action is drawn as arrows: a conquest from a
region the player holds next to it, a redeployment move by move.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from arbiter.engine.wire import Frozen
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
    PlayerId,
    RegionConquestAnyAction,
    RegionConquestConquer,
    RegionConquestFinalConquest,
    RegionConquestRedeploy,
)
from .queries import RegionConquestCostRequest, run_conquest_cost


class RegionConquestCostsOverlay(Frozen):
    player: PlayerId = Field(description="The conquering player.")


class RegionConquestOverlay(Frozen):
    """What to draw over a region_conquest board."""

    costs: RegionConquestCostsOverlay | None = Field(
        default=None, description="Write each region's conquest cost for the player and shade "
        "the regions they may conquer now.")


GLYPHS = (
    Glyph("army", "4", "a player's active tokens in a region, with how many"),
    Glyph("tokens", "2d", "a player's tokens in decline (d), with how many"),
    Glyph("tokens", "1", "Lost Tribe tokens, with how many", neutral=True),
)


def scene(board: Board, overlay: RegionConquestOverlay | None,
          action: RegionConquestAnyAction | None) -> Scene:
    state = board.state
    players = tuple(p.id for p in state.players)
    caption = ""
    shades: tuple[Shade, ...] = ()
    notes: tuple[Note, ...] = ()
    if overlay is not None and overlay.costs is not None:
        with within("costs"):
            caption, shades, notes = _costs(board, overlay.costs.player)
    hands = ", ".join(f"{p.id} {p.hand}" for p in state.players)
    return Scene(
        glyphs=GLYPHS,
        title=f"region_conquest: {len(state.regions)} regions, {state.turn.player} to play",
        desc=f"Regions and their borders; tokens in hand: {hands}. Turn: {state.turn.player}.",
        players=players, nodes=tuple(_node(board, r.id) for r in state.regions),
        edges=_edges(board), pieces=_pieces(board), shades=shades, notes=notes,
        arrows=_arrows(board, action) if action is not None else (),
        caption=caption, shade_unit="tokens")


def _node(board: Board, region: str) -> Node:
    r = board.regions[region]
    facts = [r.kind, *(["at the edge"] if r.edge else []),
             *(f"{m} {n}" for m, n in r.markers.items() if n)]
    kind = r.kind
    return Node(id=r.id, kind=kind, label=r.id, title=f"{r.id}: {', '.join(facts)}")


def _edges(board: Board) -> tuple[Edge, ...]:
    order = board.region_index
    return tuple(Edge(r.id, other) for r in board.state.regions
                 for other in board.graph.neighbours(r.id) if order[r.id] < order[other])


def _pieces(board: Board) -> tuple[Piece, ...]:
    pieces = [Piece(id=f"lost-tribe@{r.id}", at=r.id, owner=None, label=str(r.lost_tribe),
                    title=f"Lost Tribe in {r.id}", desc=f"{r.lost_tribe} Lost Tribe token(s)",
                    kind="tokens")
              for r in board.state.regions if r.lost_tribe]
    for p in board.state.players:
        select = {"costs": {"player": p.id}}
        pieces += [Piece(id=f"{p.id}@{rid}", at=rid, owner=p.id, label=str(n),
                         title=f"{p.id} in {rid}", desc=f"{n} active token(s) of {p.id}",
                         select=select)
                   for rid, n in p.active.items()]
        pieces += [Piece(id=f"{p.id}-in-decline@{rid}", at=rid, owner=p.id, label=f"{n}d",
                         title=f"{p.id} (in decline) in {rid}",
                         desc=f"{n} in-decline token of {p.id}", kind="tokens")
                   for rid, n in p.in_decline.items()]
        pieces.append(Piece(id=f"{p.id}-hand", at=None, owner=p.id, label=str(p.hand),
                            title=f"{p.id}: {p.hand} in hand",
                            desc=f"{p.hand} token(s) in hand; click for conquest costs",
                            kind="tokens", select=select))
    return tuple(pieces)


def _costs(board: Board, player: str) -> tuple[str, tuple[Shade, ...], tuple[Note, ...]]:
    answer = run_conquest_cost(RegionConquestCostRequest(state=board.state, player=player))
    shades = []
    notes = []
    for cost in answer.costs:
        if board.is_water(cost.region):
            continue
        notes.append(Note(at=cost.region, text=f"cost {cost.total}",
                          title=f"conquering {cost.region} takes {cost.total} token(s)"))
        if cost.blocked_by:
            continue
        if cost.affordable:
            shades.append(Shade(at=cost.region, cost=cost.total,
                                label=f"conquer for {cost.total} token(s)",
                                action={"type": "conquer", "player": player,
                                        "region": cost.region}))
        elif cost.reinforcement_only:
            dice = ", ".join(map(str, cost.winning_die_results))
            shades.append(Shade(at=cost.region, cost=cost.total,
                                label=f"final conquest: wins on a die of {dice}",
                                action={"type": "final_conquest", "player": player,
                                        "region": cost.region}))
    caption = f"conquest costs for {player} ({answer.hand} in hand)"
    return caption, tuple(shades), tuple(notes)


def _arrows(board: Board, action: RegionConquestAnyAction) -> tuple[Arrow, ...]:
    if isinstance(action, RegionConquestConquer | RegionConquestFinalConquest):
        if action.region not in board.regions:
            return ()
        held = board.players.get(action.player)
        start = next((n for n in board.graph.neighbours(action.region)
                      if held is not None and n in held.active), None)
        path = (action.region,) if start is None else (start, action.region)
        return (Arrow(path=path, owner=action.player,
                      label=f"{action.player}: {action.type.replace('_', ' ')} "
                            f"{action.region}"),)
    if isinstance(action, RegionConquestRedeploy):
        arrows = [Arrow(path=(m.from_region, m.to_region), owner=action.player, step=i,
                        label=f"step {i}: {m.tokens} token(s) {m.from_region} → "
                              f"{m.to_region}")
                  for i, m in enumerate(action.moves)]
        arrows += [Arrow(path=(p.region,), owner=p.player, step=len(action.moves) + k,
                         label=f"step {len(action.moves) + k}: {p.player} places "
                               f"{p.tokens} token(s) in {p.region}")
                   for k, p in enumerate(action.placements)]
        return tuple(arrows)
    return ()


EXAMPLES: tuple[dict[str, Any], ...] = (
    {"state": EXAMPLE_STATE},
    {"state": EXAMPLE_STATE, "overlay": {"costs": {"player": "orcs"}}},
    {"state": EXAMPLE_STATE, "overlay": {"action": EXAMPLE_ACTION}},
)

PICTURE: Picture[Board] = Picture(overlay=RegionConquestOverlay, scene=scene,
                                  examples=EXAMPLES)

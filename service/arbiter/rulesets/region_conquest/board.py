"""The state compiled for fast questions, and the consistency checks that make a state
malformed (422) rather than merely illegal to play on.

A state is malformed when it cannot be judged: two regions with one id, a border listed
from one end only or naming an unknown region, tokens in a region that does not exist,
a region holding the tokens of two races at once. ``compile_board`` finds every such
problem, raises them together as ``InvalidInput`` with JSON pointers into ``/state``, and
otherwise returns a ``Board``: regions and players by id, the land graph, who holds each
region and which regions are border regions. Built once per request, shared by every
question asked of it, never mutated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from arbiter.engine.areas import AreaGraph
from arbiter.engine.errors import Problems, pointer
from arbiter.engine.index import check_ref, index_by_id

from .catalogue import SEA, WATER_KINDS
from .models import RegionConquestPlayer, RegionConquestRegion, RegionConquestState

HolderKind = Literal["lost_tribe", "active", "in_decline"]


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a region's tokens: the Lost Tribe, or one player's active or in-decline
    race. A region holds the tokens of one race at most."""

    kind: HolderKind
    player: str | None
    tokens: int


@dataclass(frozen=True, slots=True)
class Board:
    state: RegionConquestState
    regions: dict[str, RegionConquestRegion]
    region_index: dict[str, int]
    graph: AreaGraph
    players: dict[str, RegionConquestPlayer]
    player_index: dict[str, int]
    holders: dict[str, Holder]
    border: frozenset[str]

    @property
    def turn_player(self) -> str:
        return self.state.turn.player

    def is_water(self, region: str) -> bool:
        return self.regions[region].kind in WATER_KINDS

    def occupied_by(self, player: str) -> int:
        """Regions the player's race tokens occupy, active or in decline (what scores)."""
        p = self.players[player]
        return len(p.active) + len(p.in_decline)


def border_regions(regions: dict[str, RegionConquestRegion], graph: AreaGraph) -> frozenset[str]:
    """Regions a race may enter the board by: those at the board's edge, and those whose
    shore lies on a sea at the edge, whoever occupies that sea (a lake does not count)."""
    edge_seas = {r.id for r in regions.values() if r.kind == SEA and r.edge}
    out = {r.id for r in regions.values() if r.edge}
    for sea in edge_seas:
        out.update(graph.neighbours(sea))
    return frozenset(out)


def compile_board(state: RegionConquestState) -> Board:
    """Check the state's consistency and index it. Raises InvalidInput (422)."""
    problems = Problems()
    region_index = index_by_id(state.regions, ("state", "regions"), "region", problems)
    regions = {rid: state.regions[i] for rid, i in region_index.items()}
    graph = _land_graph(regions, region_index, problems)
    player_index = index_by_id(state.players, ("state", "players"), "player", problems)
    players = {pid: state.players[i] for pid, i in player_index.items()}
    holders = _holders(regions, players, player_index, problems)
    _check_turn(state, regions, players, player_index, problems)
    problems.raise_if_any()
    return Board(state=state, regions=regions, region_index=region_index, graph=graph,
                 players=players, player_index=player_index, holders=holders,
                 border=border_regions(regions, graph))


def _land_graph(regions: dict[str, RegionConquestRegion], region_index: dict[str, int],
                problems: Problems) -> AreaGraph:
    """Borders as each region lists them; every border must be listed from both ends."""
    adjacent: dict[str, set[str]] = {r: set() for r in regions}
    for rid, i in region_index.items():
        for j, other in enumerate(regions[rid].adjacent):
            if other == rid:
                why = f"region {rid} cannot border itself"
            elif other not in regions:
                why = f"unknown region {other}"
            elif other in adjacent[rid]:
                why = f"{other} is listed twice"
            elif rid not in regions[other].adjacent:
                why = f"{rid} borders {other}, but {other} does not list {rid} back"
            else:
                adjacent[rid].add(other)
                continue
            problems.add(pointer("state", "regions", i, "adjacent", j), why)
    return AreaGraph({r: frozenset(n) for r, n in adjacent.items()})


def _holders(regions: dict[str, RegionConquestRegion], players: dict[str, RegionConquestPlayer],
             player_index: dict[str, int], problems: Problems) -> dict[str, Holder]:
    """Who holds each occupied region; a region holds the tokens of one race at most."""
    holders: dict[str, Holder] = {
        r.id: Holder("lost_tribe", None, r.lost_tribe) for r in regions.values() if r.lost_tribe
    }
    for pid, player in players.items():
        i = player_index[pid]
        for kind, tokens_by_region in (("active", player.active),
                                       ("in_decline", player.in_decline)):
            for rid, tokens in tokens_by_region.items():
                held = holders.get(rid)
                wrong = _holding_problem(rid, regions, held, kind, tokens)
                if wrong is not None:
                    problems.add(pointer("state", "players", i, kind, rid), wrong)
                if rid in regions and held is None:
                    holders[rid] = Holder("active" if kind == "active" else "in_decline",
                                          pid, tokens)
    return holders


def _holding_problem(rid: str, regions: dict[str, RegionConquestRegion], held: Holder | None,
                     kind: str, tokens: int) -> str | None:
    if rid not in regions:
        return f"unknown region {rid}"
    if held is not None:
        return (f"region {rid} already holds {_holder_words(held)}: a region holds the tokens "
                "of one race at most")
    if kind == "in_decline" and tokens != 1:
        return "an in-decline race keeps one token per region"
    return None


def _check_turn(state: RegionConquestState, regions: dict[str, RegionConquestRegion],
                players: dict[str, RegionConquestPlayer], player_index: dict[str, int],
                problems: Problems) -> None:
    turn = state.turn
    if not check_ref(turn.player, players, ("state", "turn", "player"), "player", problems):
        return
    if players[turn.player].awaiting_redeployment:
        problems.add(pointer("state", "players", player_index[turn.player],
                             "awaiting_redeployment"),
                     "the player whose turn it is cannot have tokens awaiting redeployment: "
                     "only defenders lose regions during a turn")
    # Only ids are checked: the list is the turn's history, and an advisory-mode
    # redeployment may since have emptied a region conquered earlier.
    for k, rid in enumerate(turn.conquered):
        check_ref(rid, regions, ("state", "turn", "conquered", k), "region", problems)


def _holder_words(held: Holder) -> str:
    if held.kind == "lost_tribe":
        return f"{held.tokens} Lost Tribe token(s)"
    race = "active" if held.kind == "active" else "in-decline"
    return f"{held.tokens} {race} token(s) of {held.player}"

"""The state compiled for questions: territories and their adjacency, bonus locations with
their territory and occupant, castles and their owners, each player's pawns per territory;
and every consistency check that makes a state malformed (422) rather than merely illegal
to act in — unknown territories, two pawns on one bonus location, a player with other than
12 pawns, both colours in one territory, token counts that do not match the trap and spy
locations held, negative counts. ``compile_board`` finds every such problem, raises them
together as ``InvalidInput`` with JSON pointers into ``/state``, and otherwise returns a
``Board``. Built once per request, shared by every question asked of it, never mutated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from arbiter.engine.areas import AreaGraph
from arbiter.engine.errors import InvalidInput, Problems, pointer
from arbiter.engine.index import check_ref, index_by_id

from .catalogue import ARMY_PAWNS
from .models import (
    BonusEffect,
    Resource,
    TerritoryConquestPlayer,
    TerritoryConquestState,
    TerritoryConquestTerritory,
)
from .order import opponent_of, turn_record_problems


@dataclass(frozen=True, slots=True)
class BonusLocation:
    id: str
    territory: str
    effect: BonusEffect
    icons: Mapping[Resource, int]


@dataclass(frozen=True, slots=True)
class Board:
    state: TerritoryConquestState
    graph: AreaGraph
    territories: dict[str, TerritoryConquestTerritory]
    locations: dict[str, BonusLocation]
    locations_in: dict[str, list[str]]  # territory -> its bonus locations, sorted
    players: dict[str, TerritoryConquestPlayer]
    castle: dict[str, str]              # player -> their castle territory
    castle_owner: dict[str, str]        # castle territory -> its player
    armies: dict[str, dict[str, int]]   # player -> territory -> pawns (positive only)
    occupant: dict[str, str]            # bonus location -> player whose pawn is on it
    held: dict[tuple[str, str], list[str]]  # (player, territory) -> its occupied locations
    controllers: dict[str, str]         # territory -> its controller (uncontrolled: absent)

    def opponent(self, player: str) -> str:
        return opponent_of(self.state, player)

    def pawns(self, player: str, territory: str) -> int:
        return self.armies[player].get(territory, 0)

    def controller(self, territory: str) -> str | None:
        """A castle is always its owner's; elsewhere, whoever has armies there."""
        return self.controllers.get(territory)

    def held_locations(self, player: str, territory: str) -> list[str]:
        """The bonus locations of ``territory`` holding one of ``player``'s pawns, sorted."""
        return list(self.held.get((player, territory), ()))

    def plain_pawns(self, player: str, territory: str) -> int:
        """Pawns standing in the territory off its bonus locations."""
        return self.pawns(player, territory) - len(self.held_locations(player, territory))

    def reserve(self, player: str) -> int:
        """Pawns in ``player``'s reserve: the state's count (checked to make 12 with those on
        the board), or, left out, 12 less those on the board."""
        return ARMY_PAWNS - sum(self.armies[player].values())

    def tokens(self, player: str, effect: BonusEffect) -> int:
        """Trap or spy tokens ``player`` has: one per such location held (the state's
        count, when given, was checked to agree)."""
        return sum(1 for loc, who in self.occupant.items()
                   if who == player and self.locations[loc].effect is effect)

    def holds(self, player: str, effect: BonusEffect) -> bool:
        return any(self.locations[loc].effect is effect
                   for loc, who in self.occupant.items() if who == player)


def compile_board(state: TerritoryConquestState) -> Board:
    """Check the state's consistency and index it. Raises InvalidInput (422)."""
    problems = Problems()
    territory_index = index_by_id(state.territories, ("state", "territories"), "territory",
                                  problems)
    territories = {tid: state.territories[i] for tid, i in territory_index.items()}
    _territory_problems(state, territory_index, problems)
    graph = _graph(state, territories, problems)
    locations = _locations(state, territory_index, problems)
    locations_in: dict[str, list[str]] = {t: [] for t in territories}
    for loc in sorted(locations.values(), key=lambda b: b.id):
        locations_in[loc.territory].append(loc.id)
    player_index = index_by_id(state.players, ("state", "players"), "player", problems)
    players = {pid: state.players[i] for pid, i in player_index.items()}
    _player_count_problems(state, player_index, problems)
    castle, castle_owner = _castles(state, territories, problems)
    _castle_territory_problems(state, territory_index, castle, castle_owner, problems)
    armies = _armies(state, territories, castle, problems)
    occupant = _occupants(state, locations, armies, problems)
    turn_record_problems(state, set(players), problems)
    problems.raise_if_any()
    held: dict[tuple[str, str], list[str]] = {}
    for territory, ids in locations_in.items():
        for loc_id in ids:
            if loc_id in occupant:
                held.setdefault((occupant[loc_id], territory), []).append(loc_id)
    # The board check guarantees one colour per territory and none in the other's castle.
    controllers = {t: p for p, mine in armies.items() for t in mine}
    controllers.update(castle_owner)
    return Board(state=state, graph=graph, territories=territories, locations=locations,
                 locations_in=locations_in, players=players, castle=castle,
                 castle_owner=castle_owner, armies=armies, occupant=occupant, held=held,
                 controllers=controllers)


def _negative(problems: Problems, value: int, *at: object) -> bool:
    if value < 0:
        problems.add(pointer(*at), f"a count cannot be negative ({value})")
        return True
    return False


def _graph(state: TerritoryConquestState, territories: Mapping[str, object],
           problems: Problems) -> AreaGraph:
    try:
        return AreaGraph.build(territories, ((a, b) for a, b in state.adjacent),
                               pairs_at=("state", "adjacent"))
    except InvalidInput as exc:
        # Keep collecting: the client sees every bad field at once.
        problems.items.extend(exc.problems)
        return AreaGraph({})


def _territory_problems(state: TerritoryConquestState, territory_index: Mapping[str, int],
                        problems: Problems) -> None:
    """Negative icons and points, and points in a colour no player has (each territory
    listed once; a repeated one is reported by its id alone)."""
    players = {p.id for p in state.players}
    for i in territory_index.values():
        t = state.territories[i]
        at = ("state", "territories", i)
        for resource, count in t.production.items():
            _negative(problems, count, *at, "production", resource.value)
        for colour, points in t.victory_points.items():
            check_ref(colour, players, (*at, "victory_points", colour), "player colour",
                      problems)
            _negative(problems, points, *at, "victory_points", colour)


def _locations(state: TerritoryConquestState, territory_index: Mapping[str, int],
               problems: Problems) -> dict[str, BonusLocation]:
    """Every bonus location by id. Ids are unique over the whole board, not only within a
    territory's list, so a repeated id is found here rather than by ``index_by_id``."""
    locations: dict[str, BonusLocation] = {}
    for i in sorted(territory_index.values()):
        t = state.territories[i]
        for j, b in enumerate(t.bonus_locations):
            at = ("state", "territories", i, "bonus_locations", j)
            if b.id in locations:
                problems.add(pointer(*at, "id"), f"bonus location {b.id} is listed twice")
                continue
            locations[b.id] = BonusLocation(b.id, t.id, b.effect, b.icons)
            if b.effect is BonusEffect.production and not b.icons:
                problems.add(pointer(*at, "icons"), "a production location shows its icons")
            if b.effect is not BonusEffect.production and b.icons:
                problems.add(pointer(*at, "icons"),
                             f"a {b.effect.value} location shows no production icons")
            for resource, count in b.icons.items():
                _negative(problems, count, *at, "icons", resource.value)
    return locations


def _player_count_problems(state: TerritoryConquestState, player_index: Mapping[str, int],
                           problems: Problems) -> None:
    for i in player_index.values():
        p = state.players[i]
        for field in ("reserve", "soldier_tokens", "trap_tokens", "spy_tokens"):
            value = getattr(p, field)
            if value is not None:
                _negative(problems, value, "state", "players", i, field)


def _castles(state: TerritoryConquestState,
             territories: Mapping[str, TerritoryConquestTerritory],
             problems: Problems) -> tuple[dict[str, str], dict[str, str]]:
    castle: dict[str, str] = {}
    castle_owner: dict[str, str] = {}
    for i, p in enumerate(state.players):
        at = ("state", "players", i, "castle")
        if not check_ref(p.castle, territories, at, "territory", problems):
            continue
        if p.castle in castle_owner:
            problems.add(pointer(*at), f"{p.castle} is already {castle_owner[p.castle]}'s castle")
            continue
        castle[p.id] = p.castle
        castle_owner[p.castle] = p.id
    return castle, castle_owner


def _castle_territory_problems(state: TerritoryConquestState,
                               territory_index: Mapping[str, int], castle: Mapping[str, str],
                               castle_owner: Mapping[str, str], problems: Problems) -> None:
    """Castles have no bonus locations; only castles print production icons."""
    if len(castle) != len(state.players):
        # Which territories are castles is unsettled; these checks would only echo it.
        return
    for i, t in enumerate(state.territories):
        if t.id in castle_owner and t.bonus_locations:
            problems.add(pointer("state", "territories", i, "bonus_locations"),
                         f"{t.id} is a castle: castles have no bonus locations")
        if t.id not in castle_owner and t.production and territory_index.get(t.id) == i:
            problems.add(pointer("state", "territories", i, "production"),
                         "only castle territories show production icons outside bonus "
                         "locations")


def _armies(state: TerritoryConquestState, territories: Mapping[str, object],
            castle: Mapping[str, str], problems: Problems) -> dict[str, dict[str, int]]:
    armies: dict[str, dict[str, int]] = {}
    holder: dict[str, str] = {}   # territory -> the player already seen with pawns there
    for i, p in enumerate(state.players):
        mine = _player_armies(i, p, territories, castle, holder, problems)
        armies[p.id] = mine
        _pawn_total_problems(i, p, sum(mine.values()), problems)
    return armies


def _player_armies(i: int, p: TerritoryConquestPlayer, territories: Mapping[str, object],
                   castle: Mapping[str, str], holder: dict[str, str],
                   problems: Problems) -> dict[str, int]:
    """The player's positive pawn counts by territory; ``holder`` notes who was seen where,
    so the second colour in a territory is reported."""
    mine: dict[str, int] = {}
    for territory, count in p.armies.items():
        where = ("state", "players", i, "armies", territory)
        if not check_ref(territory, territories, where, "territory", problems):
            continue
        if _negative(problems, count, *where) or count == 0:
            continue
        if any(t == territory and owner != p.id for owner, t in castle.items()):
            problems.add(pointer(*where),
                         f"{territory} is the opponent's castle: no pawn of yours can be there")
        elif territory in holder and holder[territory] != p.id:
            problems.add(pointer(*where), f"{territory} already holds {holder[territory]}'s"
                         " pawns: a territory is controlled by one player at a time")
        holder.setdefault(territory, p.id)
        mine[territory] = count
    return mine


def _pawn_total_problems(i: int, p: TerritoryConquestPlayer, on_board: int,
                         problems: Problems) -> None:
    at = ("state", "players", i)
    if on_board > ARMY_PAWNS:
        problems.add(pointer(*at, "armies"),
                     f"{on_board} pawns on the board: a player has {ARMY_PAWNS}")
    elif p.reserve is not None and p.reserve >= 0 and on_board + p.reserve != ARMY_PAWNS:
        problems.add(pointer(*at, "reserve"),
                     f"{p.reserve} in reserve and {on_board} on the board make "
                     f"{p.reserve + on_board}: a player has {ARMY_PAWNS} pawns")


def _occupants(state: TerritoryConquestState, locations: Mapping[str, BonusLocation],
               armies: Mapping[str, Mapping[str, int]], problems: Problems) -> dict[str, str]:
    occupant: dict[str, str] = {}
    for i, p in enumerate(state.players):
        at = ("state", "players", i)
        per_territory: Counter[str] = Counter()
        tokens: Counter[BonusEffect] = Counter()
        for j, loc_id in enumerate(p.on_bonus_locations):
            where = (*at, "on_bonus_locations", j)
            if not check_ref(loc_id, locations, where, "bonus location", problems):
                continue
            if loc_id in occupant:
                problems.add(pointer(*where), f"bonus location {loc_id} already holds "
                             f"{occupant[loc_id]}'s pawn: each bonus location holds a single "
                             "pawn")
                continue
            occupant[loc_id] = p.id
            loc = locations[loc_id]
            per_territory[loc.territory] += 1
            tokens[loc.effect] += 1
        for territory, on_locations in sorted(per_territory.items()):
            pawns = armies.get(p.id, {}).get(territory, 0)
            if on_locations > pawns:
                problems.add(pointer(*at, "armies", territory),
                             f"{on_locations} pawns stand on bonus locations of {territory} but "
                             f"the territory holds {pawns} of {p.id}'s pawns")
        _token_count_problems(i, p, tokens, problems)
    return occupant


def _token_count_problems(i: int, p: TerritoryConquestPlayer, tokens: Mapping[BonusEffect, int],
                          problems: Problems) -> None:
    # Trap and spy tokens come only with their locations ("Do not take any Trap tokens by
    # default"), one each; a count that disagrees would make discarding undefined.
    for field, effect in (("trap_tokens", BonusEffect.trap_token),
                          ("spy_tokens", BonusEffect.spy_token)):
        held = getattr(p, field)
        if held is not None and held >= 0 and held != tokens.get(effect, 0):
            problems.add(pointer("state", "players", i, field),
                         f"{held} held, but {p.id} holds {tokens.get(effect, 0)} "
                         f"{effect.value} bonus locations (one token each)")

"""The state compiled for questions: territories and their adjacency, bonus locations with
their territory and occupant, castles and their owners, each player's pawns per territory;
and every consistency check that makes a state malformed (422) rather than merely illegal
to act in — unknown territories, two pawns on one bonus location, a player with other than
12 pawns, both colours in one territory, token counts that do not match the trap and spy
locations held, negative counts. Built once per request."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from arbiter.engine.areas import AreaGraph
from arbiter.engine.errors import InvalidInput, Problems, pointer

from .models import (
    ARMY_PAWNS,
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


@dataclass(slots=True)
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
    territories = _territories(state, problems)
    try:
        graph = AreaGraph.build(territories, ((a, b) for a, b in state.adjacent))
    except InvalidInput as exc:
        # Keep collecting: the client sees every bad field at once.
        problems.items.extend(exc.problems)
        graph = AreaGraph({})
    locations = _locations(state, territories, problems)
    locations_in: dict[str, list[str]] = {t: [] for t in territories}
    for loc in sorted(locations.values(), key=lambda b: b.id):
        locations_in[loc.territory].append(loc.id)
    players = _players(state, problems)
    castle, castle_owner = _castles(state, territories, problems)
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


def _territories(state: TerritoryConquestState,
                 problems: Problems) -> dict[str, TerritoryConquestTerritory]:
    players = {p.id for p in state.players}
    territories: dict[str, TerritoryConquestTerritory] = {}
    for i, t in enumerate(state.territories):
        at = ("state", "territories", i)
        if t.id in territories:
            problems.add(pointer(*at, "id"), f"territory {t.id!r} is listed twice")
            continue
        territories[t.id] = t
        for resource, count in t.production.items():
            _negative(problems, count, *at, "production", resource.value)
        for colour, points in t.victory_points.items():
            if colour not in players:
                problems.add(pointer(*at, "victory_points", colour),
                             f"unknown player colour {colour!r}")
            _negative(problems, points, *at, "victory_points", colour)
    return territories


def _locations(state: TerritoryConquestState, territories: Mapping[str, object],
               problems: Problems) -> dict[str, BonusLocation]:
    locations: dict[str, BonusLocation] = {}
    for i, t in enumerate(state.territories):
        if territories.get(t.id) is not t:
            continue
        for j, b in enumerate(t.bonus_locations):
            at = ("state", "territories", i, "bonus_locations", j)
            if b.id in locations:
                problems.add(pointer(*at, "id"), f"bonus location {b.id!r} is listed twice")
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


def _players(state: TerritoryConquestState,
             problems: Problems) -> dict[str, TerritoryConquestPlayer]:
    players: dict[str, TerritoryConquestPlayer] = {}
    for i, p in enumerate(state.players):
        at = ("state", "players", i)
        if p.id in players:
            problems.add(pointer(*at, "id"), f"player {p.id!r} is listed twice")
            continue
        players[p.id] = p
        for field in ("reserve", "soldier_tokens", "trap_tokens", "spy_tokens"):
            if getattr(p, field) is not None:
                _negative(problems, getattr(p, field), *at, field)
    return players


def _castles(state: TerritoryConquestState,
             territories: Mapping[str, TerritoryConquestTerritory],
             problems: Problems) -> tuple[dict[str, str], dict[str, str]]:
    castle: dict[str, str] = {}
    castle_owner: dict[str, str] = {}
    for i, p in enumerate(state.players):
        at = pointer("state", "players", i, "castle")
        if p.castle not in territories:
            problems.add(at, f"unknown territory {p.castle!r}")
        elif p.castle in castle_owner:
            problems.add(at, f"{p.castle} is already {castle_owner[p.castle]}'s castle")
        else:
            castle[p.id] = p.castle
            castle_owner[p.castle] = p.id
    if len(castle) != len(state.players):
        # Which territories are castles is unsettled; the checks below would only echo it.
        return castle, castle_owner
    for i, t in enumerate(state.territories):
        if t.id in castle_owner and t.bonus_locations:
            problems.add(pointer("state", "territories", i, "bonus_locations"),
                         f"{t.id} is a castle: castles have no bonus locations")
        if t.id not in castle_owner and t.production and territories.get(t.id) is t:
            problems.add(pointer("state", "territories", i, "production"),
                         "only castle territories show production icons outside bonus "
                         "locations")
    return castle, castle_owner


def _armies(state: TerritoryConquestState, territories: Mapping[str, object],
            castle: Mapping[str, str], problems: Problems) -> dict[str, dict[str, int]]:
    armies: dict[str, dict[str, int]] = {}
    holder: dict[str, str] = {}   # territory -> the player already seen with pawns there
    for i, p in enumerate(state.players):
        at = ("state", "players", i)
        mine: dict[str, int] = {}
        for territory, count in p.armies.items():
            where = (*at, "armies", territory)
            if territory not in territories:
                problems.add(pointer(*where), f"unknown territory {territory!r}")
                continue
            if _negative(problems, count, *where) or count == 0:
                continue
            if any(t == territory and owner != p.id for owner, t in castle.items()):
                problems.add(pointer(*where),
                             f"{territory} is the opponent's castle: no pawn of yours can be "
                             "there")
            elif territory in holder and holder[territory] != p.id:
                problems.add(pointer(*where), f"{territory} already holds {holder[territory]}'s"
                             " pawns: a territory is controlled by one player at a time")
            holder.setdefault(territory, p.id)
            mine[territory] = count
        armies[p.id] = mine
        on_board = sum(mine.values())
        if on_board > ARMY_PAWNS:
            problems.add(pointer(*at, "armies"),
                         f"{on_board} pawns on the board: a player has {ARMY_PAWNS}")
        elif p.reserve is not None and p.reserve >= 0 and on_board + p.reserve != ARMY_PAWNS:
            problems.add(pointer(*at, "reserve"),
                         f"{p.reserve} in reserve and {on_board} on the board make "
                         f"{p.reserve + on_board}: a player has {ARMY_PAWNS} pawns")
    return armies


def _occupants(state: TerritoryConquestState, locations: Mapping[str, BonusLocation],
               armies: Mapping[str, Mapping[str, int]], problems: Problems) -> dict[str, str]:
    occupant: dict[str, str] = {}
    for i, p in enumerate(state.players):
        at = ("state", "players", i)
        per_territory: Counter[str] = Counter()
        tokens: Counter[BonusEffect] = Counter()
        for j, loc_id in enumerate(p.on_bonus_locations):
            where = pointer(*at, "on_bonus_locations", j)
            loc = locations.get(loc_id)
            if loc is None:
                problems.add(where, f"unknown bonus location {loc_id!r}")
                continue
            if loc_id in occupant:
                problems.add(where, f"bonus location {loc_id} already holds {occupant[loc_id]}'s"
                             " pawn: each bonus location holds a single pawn")
                continue
            occupant[loc_id] = p.id
            per_territory[loc.territory] += 1
            tokens[loc.effect] += 1
        for territory, on_locations in sorted(per_territory.items()):
            pawns = armies.get(p.id, {}).get(territory, 0)
            if on_locations > pawns:
                problems.add(pointer(*at, "armies", territory),
                             f"{on_locations} pawns stand on bonus locations of {territory} but "
                             f"the territory holds {pawns} of {p.id}'s pawns")
        # Trap and spy tokens come only with their locations ("Do not take any Trap tokens
        # by default"), one each; a count that disagrees would make discarding undefined.
        for field, effect in (("trap_tokens", BonusEffect.trap_token),
                              ("spy_tokens", BonusEffect.spy_token)):
            held = getattr(p, field)
            if held is not None and held >= 0 and held != tokens[effect]:
                problems.add(pointer(*at, field),
                             f"{held} held, but {p.id} holds {tokens[effect]} "
                             f"{effect.value} bonus locations (one token each)")
    return occupant

"""The state compiled for fast questions, and the consistency checks that make a state
malformed (422) rather than merely illegal to play on.

A state is malformed when it cannot be judged: two areas (land or water) with one id, a
neighbour listed from one end only or naming an unknown area, land adjacency to a pure
water area, water neighbours of an area that is not coastal, tokens, barbarians or a city
on water or on an 'out of play' area, two cities in one area, more tokens marked as moved
than the player has there, two players sharing an A.S.T. rank, a ship owned by nobody, on
an inland area or out of play. ``compile_board`` finds every such problem, raises them
together as ``InvalidInput`` with JSON pointers into ``/state``, and otherwise returns a
``Board``: areas, players and ships by id, both graphs, the cities by area, the tokens in
each area and the census order. Built once per request, never mutated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.index import check_ref, index_by_id

from .models import (
    AreaMovementArea,
    AreaMovementCity,
    AreaMovementPlayer,
    AreaMovementSea,
    AreaMovementShip,
    AreaMovementState,
)


@dataclass(frozen=True, slots=True)
class Board:
    state: AreaMovementState
    areas: dict[str, AreaMovementArea]
    seas: dict[str, AreaMovementSea]
    land: dict[str, frozenset[str]]
    water: dict[str, frozenset[str]]
    players: dict[str, AreaMovementPlayer]
    ships: dict[str, AreaMovementShip]
    cities: dict[str, AreaMovementCity]
    # Every player's tokens by area: area -> player -> tokens.
    occupants: dict[str, dict[str, int]]
    order: tuple[str, ...]

    def is_land(self, area: str) -> bool:
        return area in self.areas

    def in_play(self, area: str) -> bool:
        """A land area without an 'out of play' token (a pure water area is not land)."""
        found = self.areas.get(area)
        return found is not None and not found.out_of_play

    def open_sea(self, area: str) -> bool:
        sea = self.seas.get(area)
        return sea is not None and sea.open_sea


def census_order(players: Sequence[AreaMovementPlayer]) -> tuple[str, ...]:
    """Highest census first; the A.S.T. breaks ties, rank 1 first (order.1, order.2)."""
    return tuple(p.id for p in sorted(players, key=lambda p: (-p.census, p.ast_rank)))


def compile_board(state: AreaMovementState) -> Board:
    """Check the state's consistency and index it. Raises InvalidInput (422)."""
    problems = Problems()
    area_index = index_by_id(state.areas, ("state", "areas"), "area", problems)
    sea_index = index_by_id(state.seas, ("state", "seas"), "area", problems)
    for sid, i in sea_index.items():
        if sid in area_index:
            problems.add(pointer("state", "seas", i, "id"), f"area {sid} is listed twice")
    areas = {aid: state.areas[i] for aid, i in area_index.items()}
    seas = {sid: state.seas[i] for sid, i in sea_index.items() if sid not in areas}
    land = _land_graph(areas, seas, area_index, problems)
    water = _water_graph(areas, seas, area_index, sea_index, problems)
    player_index = index_by_id(state.players, ("state", "players"), "player", problems)
    players = {pid: state.players[i] for pid, i in player_index.items()}
    _check_ranks(state.players, problems)
    for pid, i in player_index.items():
        _check_tokens(players[pid], i, areas, seas, problems)
    _check_places(state.barbarians, ("state", "barbarians"), "barbarian tokens", areas, seas,
                  problems)
    cities = _cities(state.cities, areas, seas, players, problems)
    ships = _ships(state.ships, areas, seas, players, problems)
    problems.raise_if_any()
    occupants: dict[str, dict[str, int]] = {}
    for p in state.players:
        for area, n in p.tokens.items():
            occupants.setdefault(area, {})[p.id] = n
    return Board(state=state, areas=areas, seas=seas, land=land, water=water, players=players,
                 ships=ships, cities=cities, occupants=occupants,
                 order=census_order(state.players))


def _land_graph(areas: dict[str, AreaMovementArea], seas: Mapping[str, AreaMovementSea],
                area_index: dict[str, int], problems: Problems) -> dict[str, frozenset[str]]:
    """Land neighbours as each area lists them; every pair listed from both ends."""
    adjacent: dict[str, set[str]] = {a: set() for a in areas}
    for aid, i in area_index.items():
        for j, other in enumerate(areas[aid].land):
            if other == aid:
                why = f"area {aid} cannot border itself"
            elif other in seas:
                why = f"{other} is a pure water area: it has no land neighbours"
            elif other not in areas:
                why = f"unknown area {other}"
            elif other in adjacent[aid]:
                why = f"{other} is listed twice"
            elif aid not in areas[other].land:
                why = f"{aid} lists {other} by land, but {other} does not list {aid} back"
            else:
                adjacent[aid].add(other)
                continue
            problems.add(pointer("state", "areas", i, "land", j), why)
    return {a: frozenset(n) for a, n in adjacent.items()}


def _water_graph(areas: dict[str, AreaMovementArea], seas: dict[str, AreaMovementSea],
                 area_index: dict[str, int], sea_index: dict[str, int],
                 problems: Problems) -> dict[str, frozenset[str]]:
    """Water neighbours of land and water areas alike; every pair listed from both ends, and
    only coastal land areas have any."""
    lists: dict[str, tuple[tuple[object, ...], list[str]]] = {}
    for aid, i in area_index.items():
        lists[aid] = (("state", "areas", i, "water"), areas[aid].water)
        if areas[aid].water and not areas[aid].coastal:
            problems.add(pointer("state", "areas", i, "water"),
                         f"area {aid} is not coastal: only a coastal area has water neighbours")
    for sid, i in sea_index.items():
        if sid in seas:
            lists[sid] = (("state", "seas", i, "water"), seas[sid].water)
    adjacent: dict[str, set[str]] = {a: set() for a in lists}
    for aid, (at, listed) in lists.items():
        for j, other in enumerate(listed):
            if other == aid:
                why = f"area {aid} cannot border itself"
            elif other not in lists:
                why = f"unknown area {other}"
            elif other in adjacent[aid]:
                why = f"{other} is listed twice"
            elif aid not in lists[other][1]:
                why = f"{aid} lists {other} by water, but {other} does not list {aid} back"
            else:
                adjacent[aid].add(other)
                continue
            problems.add(pointer(*at, j), why)
    return {a: frozenset(n) for a, n in adjacent.items()}


def place_problem(area: str, areas: Mapping[str, AreaMovementArea],
                  seas: Mapping[str, AreaMovementSea], what: str) -> str | None:
    """Why ``what`` cannot stand in ``area``: only land areas in play hold tokens and cities."""
    if area in seas:
        return f"{area} is a pure water area: {what} stand only on land"
    if area not in areas:
        return f"unknown area {area}"
    if areas[area].out_of_play:
        return f"{area} is out of play: no {what} stand there"
    return None


def _check_places(tokens: Mapping[str, int], at: tuple[object, ...], what: str,
                  areas: Mapping[str, AreaMovementArea], seas: Mapping[str, AreaMovementSea],
                  problems: Problems) -> None:
    for area in tokens:
        why = place_problem(area, areas, seas, what)
        if why is not None:
            problems.add(pointer(*at, area), why)


def _check_ranks(players: Sequence[AreaMovementPlayer], problems: Problems) -> None:
    """Census ties are broken by A.S.T. rank, so no two players share one."""
    seen: dict[int, str] = {}
    for i, p in enumerate(players):
        if p.ast_rank in seen and seen[p.ast_rank] != p.id:
            problems.add(pointer("state", "players", i, "ast_rank"),
                         f"A.S.T. rank {p.ast_rank} is already {seen[p.ast_rank]}'s")
        seen.setdefault(p.ast_rank, p.id)


def _check_tokens(player: AreaMovementPlayer, i: int, areas: Mapping[str, AreaMovementArea],
                  seas: Mapping[str, AreaMovementSea], problems: Problems) -> None:
    at = ("state", "players", i)
    _check_places(player.tokens, (*at, "tokens"), "tokens", areas, seas, problems)
    for field in ("moved_by_land", "moved_by_ship"):
        for area in getattr(player, field):
            if area not in player.tokens:
                problems.add(pointer(*at, field, area),
                             f"{player.id} has no token in {area} to be marked as moved")
    for area, n in player.tokens.items():
        moved = player.moved_by_land.get(area, 0) + player.moved_by_ship.get(area, 0)
        if moved > n:
            problems.add(pointer(*at, "moved_by_land", area),
                         f"{moved} tokens marked as moved in {area}, where {player.id} has {n}")


def _cities(cities: Sequence[AreaMovementCity], areas: Mapping[str, AreaMovementArea],
            seas: Mapping[str, AreaMovementSea], players: Mapping[str, AreaMovementPlayer],
            problems: Problems) -> dict[str, AreaMovementCity]:
    out: dict[str, AreaMovementCity] = {}
    for i, city in enumerate(cities):
        why = place_problem(city.area, areas, seas, "cities")
        if why is None and city.area in out:
            why = f"{city.area} already holds a city"
        if why is not None:
            problems.add(pointer("state", "cities", i, "area"), why)
        else:
            out[city.area] = city
        if city.owner is not None:
            check_ref(city.owner, players, ("state", "cities", i, "owner"), "player", problems)
    return out


def _ships(ships: Sequence[AreaMovementShip], areas: Mapping[str, AreaMovementArea],
           seas: Mapping[str, AreaMovementSea], players: Mapping[str, AreaMovementPlayer],
           problems: Problems) -> dict[str, AreaMovementShip]:
    index = index_by_id(ships, ("state", "ships"), "ship", problems)
    for i, ship in enumerate(ships):
        check_ref(ship.owner, players, ("state", "ships", i, "owner"), "player", problems)
        if ship.area in seas:
            continue
        if ship.area not in areas:
            why = f"unknown area {ship.area}"
        elif not areas[ship.area].coastal:
            why = f"{ship.area} is not coastal: a ship stands on a coast or at sea"
        elif areas[ship.area].out_of_play:
            why = f"{ship.area} is out of play: no ship stands there"
        else:
            continue
        problems.add(pointer("state", "ships", i, "area"), why)
    return {sid: ships[i] for sid, i in index.items()}

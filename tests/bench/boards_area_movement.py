"""Realistic, deterministic request bodies for benchmarking ``area_movement``.

``movement_state(n)`` builds a map of ``n`` areas: four fifths land, a grid 10 areas wide
whose outer ring is the coast (each coastal area adjacent by water to the next along the
coast and to the sea beside it), and one fifth pure water, a ring of seas around it, every
fifth one open sea. Population limits and city sites follow fixed strides; two inland
areas are out of play. Four players: p0, first in census order, holds the top four rows
with 4 tokens in each, 10 treasury tokens and three ships built in an earlier turn on the
north coast; p1 holds the next two rows, p2 and p3 the bottom; barbarians here and there.

``movement_plan(n, steps)`` is a legal plan of p0 of ``steps`` steps (at least 10): three
ships maintained and two built, each ship sailing 4 areas along the coast with 3 tokens
that land at the end, then single tokens stepping south row by row, the last row of them
into p1's land (conflicts). ``validate_request`` and ``conflicts_request`` wrap them as
request bodies. No randomness: the same arguments always give the same body.
"""

from __future__ import annotations

from typing import Any

WIDTH = 10
PLAYERS = ("p0", "p1", "p2", "p3")
OUT_OF_PLAY = ((4, 5), (5, 6))
SHIP_STEPS = 10


def _cell(x: int, y: int) -> str:
    return f"a{y * WIDTH + x}"


def _ring(height: int) -> list[tuple[int, int]]:
    """The coastal cells, clockwise from the north-west corner."""
    top = [(x, 0) for x in range(WIDTH)]
    right = [(WIDTH - 1, y) for y in range(1, height)]
    bottom = [(x, height - 1) for x in range(WIDTH - 2, -1, -1)]
    left = [(0, y) for y in range(height - 2, 0, -1)]
    return top + right + bottom + left


def _shape(n_areas: int) -> tuple[int, int]:
    if n_areas < 50:
        raise ValueError("the benchmark map needs at least 50 areas")
    height = (n_areas * 4 // 5) // WIDTH
    return height, n_areas - height * WIDTH


def _land(height: int, ring: list[tuple[int, int]], n_seas: int) -> list[dict[str, Any]]:
    position = {c: i for i, c in enumerate(ring)}
    sea_of = {j: f"s{k}" for k in range(n_seas)
              for j in range(k * len(ring) // n_seas, (k + 1) * len(ring) // n_seas)}
    areas = []
    for y in range(height):
        for x in range(WIDTH):
            land = [_cell(a, b) for a, b in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1))
                    if 0 <= a < WIDTH and 0 <= b < height]
            area: dict[str, Any] = {"id": _cell(x, y), "land": land,
                                    "population_limit": (x * 3 + y * 5) % 6,
                                    "city_site": (x + 2 * y) % 4 == 1}
            j = position.get((x, y))
            if j is not None:
                area["coastal"] = True
                area["water"] = [_cell(*ring[j - 1]), _cell(*ring[(j + 1) % len(ring)]),
                                 sea_of[j]]
            if (x, y) in OUT_OF_PLAY:
                area["out_of_play"] = True
            areas.append(area)
    return areas


def _seas(ring: list[tuple[int, int]], n_seas: int) -> list[dict[str, Any]]:
    seas = []
    for k in range(n_seas):
        shore = [_cell(*ring[j]) for j in range(k * len(ring) // n_seas,
                                                 (k + 1) * len(ring) // n_seas)]
        seas.append({"id": f"s{k}", "open_sea": k % 5 == 2,
                     "water": [f"s{(k - 1) % n_seas}", f"s{(k + 1) % n_seas}", *shore]})
    return seas


def _owner(x: int, y: int, height: int) -> tuple[str, int] | None:
    if (x, y) in OUT_OF_PLAY:
        return None
    if y < 4:
        return "p0", 4
    if y < min(6, height - 2):
        return "p1", 2
    return ("p2" if x < WIDTH // 2 else "p3"), 1 + (x + y) % 3


def movement_state(n_areas: int) -> dict[str, Any]:
    height, n_seas = _shape(n_areas)
    ring = _ring(height)
    tokens: dict[str, dict[str, int]] = {p: {} for p in PLAYERS}
    for y in range(height):
        for x in range(WIDTH):
            owned = _owner(x, y, height)
            if owned is not None:
                tokens[owned[0]][_cell(x, y)] = owned[1]
    players = [{"id": p, "tokens": tokens[p], "treasury": 10 if k == 0 else k,
                "census": sum(tokens[p].values()) + (1000 if k == 0 else 0),
                "ast_rank": k + 1} for k, p in enumerate(PLAYERS)]
    ships = [{"id": f"p0-s{k}", "owner": "p0", "area": _cell(*ring[2 * k])} for k in range(3)]
    ships.append({"id": "p1-s0", "owner": "p1", "area": _cell(*ring[len(ring) // 2])})
    barbarians = {_cell(2, 5): 2, _cell(7, 4): 1} if height > 5 else {}
    return {"areas": _land(height, ring, n_seas), "seas": _seas(ring, n_seas),
            "cities": [{"area": _cell(3, 4), "owner": "p1"}, {"area": _cell(8, 5)}],
            "barbarians": barbarians, "players": players, "ships": ships}


def _voyages(ring: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Maintain or build each of five ships along the north coast, and sail it 4 areas east
    with 3 tokens aboard."""
    steps: list[dict[str, Any]] = []
    for k in range(5):
        ship = f"p0-s{k}" if k < 3 else f"p0-n{k - 3}"
        start = 2 * k
        if k < 3:
            steps.append({"type": "maintain_ship", "ship": ship, "pay": "treasury"})
        else:
            steps.append({"type": "build_ship", "ship": ship, "area": _cell(*ring[start]),
                          "pay": "treasury"})
        steps.append({"type": "sail", "ship": ship, "embark": 3,
                      "path": [{"area": _cell(*ring[start + d])} for d in range(1, 5)]})
    return steps


def movement_plan(n_areas: int, n_steps: int) -> list[dict[str, Any]]:
    height, _ = _shape(n_areas)
    moves = [{"type": "move_tokens", "from_area": _cell(x, y), "to_area": _cell(x, y + 1),
              "count": 1} for y in range(1, 4) for x in range(WIDTH)]
    if not SHIP_STEPS <= n_steps <= SHIP_STEPS + len(moves):
        raise ValueError(f"the benchmark plan has {SHIP_STEPS} to "
                         f"{SHIP_STEPS + len(moves)} steps")
    return _voyages(_ring(height)) + moves[:n_steps - SHIP_STEPS]


def validate_request(n_areas: int = 100, n_steps: int = 40) -> dict[str, Any]:
    """The body of ``POST /v1/rulesets/area_movement/validate``: p0's plan."""
    return {"state": movement_state(n_areas),
            "action": {"type": "movement", "player": "p0",
                       "steps": movement_plan(n_areas, n_steps)}}


def conflicts_request(n_areas: int = 100, n_steps: int = 40) -> dict[str, Any]:
    """The body of ``POST /v1/rulesets/area_movement/conflicts``: the situations after p0's
    plan."""
    return {"state": movement_state(n_areas),
            "plans": [{"player": "p0", "steps": movement_plan(n_areas, n_steps)}]}

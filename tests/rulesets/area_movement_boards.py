"""Random ``area_movement`` positions and plans for the property tests: small maps of land
areas and seas with random land and water neighbours (always listed from both ends),
coasts, limits, city sites and areas out of play; players with tokens, moved marks,
treasury, census and distinct A.S.T. ranks; cities, barbarians and ships where they may
stand; random options. Every position is a state the ruleset accepts."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


def _pairs(draw: st.DrawFn, ids: list[str], chance: float) -> set[tuple[str, str]]:
    out = set()
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if draw(st.floats(0, 1)) < chance:
                out.add((a, b))
    return out


def _neighbours(pairs: set[tuple[str, str]], area: str) -> list[str]:
    return sorted({b if a == area else a for a, b in pairs if area in (a, b)})


@st.composite
def maps(draw: st.DrawFn) -> dict[str, Any]:
    land = [f"L{i}" for i in range(draw(st.integers(3, 8)))]
    seas = [f"S{i}" for i in range(draw(st.integers(0, 3)))]
    coastal = [a for a in land if draw(st.booleans())] or land[:1]
    land_pairs = _pairs(draw, land, 0.45)
    water_pairs = _pairs(draw, coastal + seas, 0.5)
    areas = []
    for a in land:
        area: dict[str, Any] = {"id": a, "land": _neighbours(land_pairs, a),
                                "population_limit": draw(st.integers(0, 4)),
                                "city_site": draw(st.booleans()),
                                "out_of_play": draw(st.integers(0, 5)) == 0}
        if a in coastal:
            area |= {"coastal": True, "water": _neighbours(water_pairs, a)}
        areas.append(area)
    return {"areas": areas,
            "seas": [{"id": s, "water": _neighbours(water_pairs, s),
                      "open_sea": draw(st.booleans())} for s in seas]}


def _in_play(board: dict[str, Any]) -> list[str]:
    return [a["id"] for a in board["areas"] if not a["out_of_play"]]


@st.composite
def players(draw: st.DrawFn, places: list[str]) -> list[dict[str, Any]]:
    count = draw(st.integers(1, 3))
    ranks = draw(st.permutations(list(range(1, count + 1))))
    out = []
    for k in range(count):
        tokens = {a: draw(st.integers(1, 6)) for a in places if draw(st.booleans())}
        by_land = {a: m for a, n in tokens.items() if (m := draw(st.integers(0, n // 2)))}
        by_ship = {a: m for a, n in tokens.items()
                   if (m := draw(st.integers(0, (n - by_land.get(a, 0)) // 2)))}
        out.append({"id": f"p{k}", "tokens": tokens, "moved_by_land": by_land,
                    "moved_by_ship": by_ship, "treasury": draw(st.integers(0, 4)),
                    "census": draw(st.integers(0, 12)), "ast_rank": ranks[k],
                    "movement_ended": draw(st.integers(0, 3)) == 0})
    return out


@st.composite
def ships(draw: st.DrawFn, board: dict[str, Any], owners: list[str]) -> list[dict[str, Any]]:
    docks = [a["id"] for a in board["areas"] if a.get("coastal") and not a["out_of_play"]]
    docks += [s["id"] for s in board["seas"]]
    out = []
    for k in range(draw(st.integers(0, 4)) if docks else 0):
        built = draw(st.booleans())
        out.append({"id": f"ship{k}", "owner": draw(st.sampled_from(owners)),
                    "area": draw(st.sampled_from(docks)), "built_this_turn": built,
                    "maintained_this_turn": not built and draw(st.booleans()),
                    "sailed_this_turn": draw(st.integers(0, 3)) == 0})
    return out


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    board = draw(maps())
    places = _in_play(board) or []
    if not places:
        board["areas"][0]["out_of_play"] = False
        places = [board["areas"][0]["id"]]
    people = draw(players(places))
    owners = [p["id"] for p in people]
    cities = [{"area": a, "owner": draw(st.sampled_from([*owners, None]))}
              for a in places if draw(st.integers(0, 3)) == 0]
    barbarians = {a: draw(st.integers(1, 3)) for a in places if draw(st.integers(0, 4)) == 0}
    options = {"open_sea_travel": draw(st.booleans()),
               "ship_capacity": draw(st.integers(1, 6)),
               "simultaneous_movement": draw(st.booleans())}
    return board | {"options": options, "cities": cities, "barbarians": barbarians,
                    "players": people, "ships": draw(ships(board, owners))}


def board_tokens(state: dict[str, Any], player: str) -> int:
    p = next(p for p in state["players"] if p["id"] == player)
    return sum(p["tokens"].values())


def treasury(state: dict[str, Any], player: str) -> int:
    p: dict[str, Any] = next(p for p in state["players"] if p["id"] == player)
    return int(p["treasury"])


@st.composite
def steps(draw: st.DrawFn, state: dict[str, Any], player: str) -> dict[str, Any]:
    """One step of ``player``, legal or not, mostly well formed: counts within the tokens
    the player has where they come from, ships of his, land areas where land is meant."""
    areas = [a["id"] for a in state["areas"]]
    tokens = next(p for p in state["players"] if p["id"] == player)["tokens"]
    held = list(tokens) or areas
    docks = {s["id"]: s["area"] for s in state["ships"] if s["owner"] == player}
    kinds = ["move", "move", "build", "end"] + (["sail", "sail", "maintain", "destroy"]
                                                 if docks else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "move":
        source = draw(st.sampled_from(held))
        return {"type": "move_tokens", "from_area": source,
                "to_area": draw(st.sampled_from([a for a in areas if a != source])),
                "count": draw(st.integers(1, max(1, tokens.get(source, 1))))}
    if kind == "sail":
        return _sail(draw, state, tokens, docks)
    if kind == "build":
        pay = draw(st.sampled_from(["treasury", "treasury_and_token", "tokens"]))
        named = ([{"area": draw(st.sampled_from(held)), "count": draw(st.integers(1, 2))}
                  for _ in range(draw(st.integers(1, 2)))] if pay == "tokens" else [])
        return {"type": "build_ship", "ship": f"new{draw(st.integers(0, 99))}",
                "area": draw(st.sampled_from(held)), "pay": pay, "tokens": named}
    if kind == "maintain":
        ship = draw(st.sampled_from(sorted(docks)))
        if draw(st.booleans()):
            return {"type": "maintain_ship", "ship": ship, "pay": "treasury"}
        area = draw(st.sampled_from(held))
        if draw(st.booleans()):
            return {"type": "maintain_ship", "ship": ship, "pay": "token",
                    "tokens": [{"area": area, "count": 1}]}
        # The deprecated spelling (ruleset version 1.0.0), still read the same way.
        return {"type": "maintain_ship", "ship": ship, "pay": "token", "area": area}
    if kind == "destroy":
        return {"type": "destroy_ship", "ship": draw(st.sampled_from(sorted(docks)))}
    return {"type": "end_movement"}


def _sail(draw: st.DrawFn, state: dict[str, Any], tokens: dict[str, int],
          docks: dict[str, str]) -> dict[str, Any]:
    """A voyage of one of the player's ships, mostly to water neighbours, never landing more
    tokens than it took aboard nor taking aboard more than the player has there."""
    water = {a["id"]: a.get("water", []) for a in state["areas"]}
    water |= {s["id"]: s["water"] for s in state["seas"]}
    ship = draw(st.sampled_from(sorted(docks)))
    here = docks[ship]
    aboard = draw(st.integers(0, min(3, tokens.get(here, 0))))
    step: dict[str, Any] = {"type": "sail", "ship": ship, "embark": aboard, "path": []}
    for _ in range(draw(st.integers(1, 5))):
        choices = water[here] if water[here] and draw(st.integers(0, 4)) else list(water)
        here = draw(st.sampled_from(choices))
        disembark = draw(st.integers(0, aboard))
        embark = draw(st.integers(0, min(1, tokens.get(here, 0))))
        aboard += embark - disembark
        step["path"].append({"area": here, "disembark": disembark, "embark": embark})
    return step

"""Boards and states for the ``region_conquest`` tests: the standard Small World maps
converted from ``tests/data/small_world_maps.json`` into the ruleset's state format,
and hypothesis strategies for random maps, random positions on them and the legal moves
a player could make there."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

# Shipped with the checkout (tests/data/README.md): the tests read nothing outside it.
SMALL_WORLD_MAPS = Path(__file__).resolve().parents[1] / "data" / "small_world_maps.json"
COST_MARKERS = ("encampment", "fortress", "mountain", "troll_lair")
LAND = ("farmland", "forest", "hill", "swamp", "mountain")


@cache
def _small_world_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SMALL_WORLD_MAPS.read_text())
    return data


def small_world_map_names() -> list[str]:
    return sorted(k for k in _small_world_data() if not k.startswith("_"))


def small_world_regions(name: str) -> list[dict[str, Any]]:
    """One standard map as the ``regions`` of a state: kind, edge, both ends of every
    border, the markers present and the Lost Tribe tokens at setup."""
    setup = _small_world_data()[name]["setup"]
    adjacent: dict[str, list[str]] = {rid: [] for rid in setup["regions"]}
    for a, b in setup["adjacent"]:
        adjacent[a].append(b)
        adjacent[b].append(a)
    regions = []
    for rid, region in setup["regions"].items():
        regions.append({
            "id": rid, "kind": region["kind"], "edge": region["edge"],
            "adjacent": sorted(adjacent[rid], key=lambda r: int(r[1:])),
            "markers": {m: n for m, n in region["markers"].items() if n},
            "lost_tribe": region["lost_tribe"],
        })
    return regions


def small_world_state(name: str, players: list[dict[str, Any]] | None = None,
                      **extra: Any) -> dict[str, Any]:
    """A standard map at setup, with players who have just picked their races."""
    players = players or [{"id": f"p{i}", "hand": 10}
                          for i in range(_small_world_data()[name]["n_players"])]
    return {"regions": small_world_regions(name), "players": players,
            "turn": {"player": players[0]["id"]}, **extra}


# --- random maps and positions ---------------------------------------------------------------

@st.composite
def random_regions(draw: st.DrawFn, min_regions: int = 3, max_regions: int = 12
                   ) -> list[dict[str, Any]]:
    n = draw(st.integers(min_regions, max_regions))
    ids = [f"r{i}" for i in range(n)]
    adjacent: dict[str, set[str]] = {r: set() for r in ids}
    for i in range(n):
        # A chain keeps the map in one piece; extra borders make it a graph.
        if i + 1 < n:
            adjacent[ids[i]].add(ids[i + 1])
            adjacent[ids[i + 1]].add(ids[i])
        for j in draw(st.lists(st.integers(0, n - 1), max_size=2)):
            if j != i:
                adjacent[ids[i]].add(ids[j])
                adjacent[ids[j]].add(ids[i])
    regions = []
    for rid in ids:
        kind = draw(st.sampled_from((*LAND, *LAND, "sea", "lake")))
        markers = {} if kind in ("sea", "lake") else draw(st.dictionaries(
            st.sampled_from((*COST_MARKERS, "hole_in_the_ground")), st.integers(0, 2), max_size=2))
        regions.append({"id": rid, "kind": kind, "edge": draw(st.booleans()),
                        "adjacent": sorted(adjacent[rid]), "markers": markers})
    return regions


@st.composite
def positions(draw: st.DrawFn, small_world: bool = True) -> dict[str, Any]:
    """A state at the start of a turn: random or Small World map, 2 to 4 players holding
    active and in-decline regions, Lost Tribes in some of the rest."""
    names = small_world_map_names() if small_world else []
    if names and draw(st.booleans()):
        regions = small_world_regions(draw(st.sampled_from(names)))
    else:
        regions = draw(random_regions())
    n_players = draw(st.integers(2, 4))
    players: list[dict[str, Any]] = [
        {"id": f"p{k}", "hand": draw(st.integers(0, 12)), "active": {}, "in_decline": {},
         "tray": draw(st.integers(0, 3)), "coins": draw(st.integers(0, 20))}
        for k in range(n_players)]
    for region in regions:
        region.pop("lost_tribe", None)
        holder = draw(st.integers(-2, 2 * n_players - 1))
        if holder == -1 and region["kind"] not in ("sea", "lake"):
            region["lost_tribe"] = draw(st.integers(1, 2))
        elif holder >= 0:
            player = players[holder // 2]
            if holder % 2 == 0:
                player["active"][region["id"]] = draw(st.integers(1, 5))
            else:
                player["in_decline"][region["id"]] = 1
    for player in players[1:]:
        # Defenders may carry tokens kept from losses earlier in this turn.
        player["awaiting_redeployment"] = draw(st.integers(0, 2))
    return {"options": {"base_cost": draw(st.sampled_from((2, 2, 2, 0, 1, 3)))},
            "regions": regions, "players": players, "turn": {"player": "p0"},
            "rng": draw(st.none() | st.integers(0, 2**64 - 1))}


def tokens_of(state: dict[str, Any], player: str) -> int:
    """Hand + kept in hand + board (active and in decline) + storage tray."""
    p = next(p for p in state["players"] if p["id"] == player)
    return (p.get("hand", 0) + p.get("awaiting_redeployment", 0)
            + sum(p.get("active", {}).values()) + sum(p.get("in_decline", {}).values())
            + p.get("tray", 0))


def restated_cost(state: dict[str, Any], player: str, region_id: str) -> int:
    """The rulebook's sentence, restated without the ruleset: 2 (or the house base) + 1 per
    encampment, fortress, mountain or troll's lair + 1 per Lost Tribe token and per token of
    another player, never below 1."""
    region = next(r for r in state["regions"] if r["id"] == region_id)
    total = state.get("options", {}).get("base_cost", 2)
    total += sum(n for m, n in region.get("markers", {}).items() if m in COST_MARKERS)
    total += region.get("lost_tribe", 0)
    for p in state["players"]:
        if p["id"] != player:
            total += p.get("active", {}).get(region_id, 0)
            total += p.get("in_decline", {}).get(region_id, 0)
    return max(1, total)


def legal_redeploy(state: dict[str, Any], pick: int) -> dict[str, Any]:
    """A redeployment the rules allow, varied by ``pick``: some tokens moved between the
    active player's regions (never the last one of a region), every token in hand placed,
    every defender's kept tokens put back where their race still stands."""
    player = state["turn"]["player"]
    me = next(p for p in state["players"] if p["id"] == player)
    regions = list(me["active"])
    moves, placements = [], []
    if len(regions) >= 2:
        source = regions[pick % len(regions)]
        target = regions[(pick // 7 + 1 + regions.index(source)) % len(regions)]
        spare = me["active"][source] - 1
        if spare and target != source:
            moves.append({"from_region": source, "to_region": target,
                          "tokens": 1 + pick % spare})
    if regions and me["hand"]:
        placements.append({"player": player, "region": regions[pick % len(regions)],
                           "tokens": me["hand"]})
    for other in state["players"]:
        if other["id"] != player and other["awaiting_redeployment"] and other["active"]:
            theirs = list(other["active"])
            placements.append({"player": other["id"], "region": theirs[pick % len(theirs)],
                               "tokens": other["awaiting_redeployment"]})
    return {"type": "redeploy", "player": player, "moves": moves, "placements": placements}

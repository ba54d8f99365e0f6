"""Colours: owners take the Okabe–Ito palette (told apart with the common colour-vision
deficiencies) in the order the state lists its players, so a player keeps a colour from
one picture of a game to the next; terrains and area kinds have fixed fills, and an
unknown kind a muted grey; shades go from light (cheap) to dark (dear)."""

from __future__ import annotations

OWNERS: tuple[str, ...] = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00",
                           "#56B4E9", "#F0E442", "#000000")
NEUTRAL = "#6b6b6b"
MARK = "#c00000"

KINDS: dict[str, str] = {
    # hex terrains
    "plains": "#e8f0c0", "forest": "#8fbf7f", "hills": "#d8c38f", "mountains": "#b0a090",
    "swamp": "#a8c0a8", "sea": "#9cc8e8", "ocean": "#6fa8d8", "unexplored": "#d0d0d0",
    "open": "#eef2d8", "road": "#ddb27a",
    # region and area kinds
    "farmland": "#f0e6a0", "hill": "#d8c38f", "mountain": "#b0a090", "lake": "#a8d0f0",
    "land": "#e8e4c8", "coastal": "#dde8c0", "out_of_play": "#c8c8c8", "castle": "#e8d0c8",
    "square": "#f4f4f4", "open_sea": "#7fb0dd",
}
OTHER_KIND = "#e0e0e0"


def owner_colour(owner: str | None, players: tuple[str, ...]) -> str:
    if owner is None or owner not in players:
        return NEUTRAL
    return OWNERS[players.index(owner) % len(OWNERS)]


def kind_colour(kind: str) -> str:
    return KINDS.get(kind, OTHER_KIND)


def shade_opacity(cost: int, highest: int) -> float:
    """0.15 for the cheapest place up to 0.55 for the dearest: the terrain shows through."""
    if highest <= 0:
        return 0.25
    return 0.15 + 0.4 * min(cost, highest) / highest

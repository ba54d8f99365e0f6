"""Colours: owners take the Okabe–Ito palette (told apart with the common colour-vision
deficiencies). A player whose id names a colour ("red", "green", "blue") is drawn in that
colour's shade of the palette, so player "green" is green in every picture; the other
players take the palette's remaining colours in the order the state lists them, so a
player keeps a colour from one picture of a game to the next. Terrains and area kinds
have fixed fills (an unknown kind a muted grey; out of play is hatched, so it is never
mistaken for a neutral piece's grey); shades go from light (cheap) to dark (dear)."""

from __future__ import annotations

from functools import lru_cache

OWNERS: tuple[str, ...] = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00",
                           "#56B4E9", "#F0E442", "#000000")
# A player id naming a colour takes its Okabe–Ito shade (or, off the palette, a plain one).
NAMED: dict[str, str] = {
    "red": "#D55E00", "vermillion": "#D55E00", "blue": "#0072B2", "green": "#009E73",
    "purple": "#CC79A7", "pink": "#CC79A7", "magenta": "#CC79A7", "orange": "#E69F00",
    "cyan": "#56B4E9", "sky": "#56B4E9", "yellow": "#F0E442", "black": "#000000",
    "white": "#FFFFFF", "brown": "#8C5A2B", "grey": "#A0A0A0", "gray": "#A0A0A0",
}
# Fills light enough that a label on them is written in black (and their outline dark).
LIGHT = frozenset({"#E69F00", "#56B4E9", "#F0E442", "#FFFFFF", "#A0A0A0"})
NEUTRAL = "#6b6b6b"
MARK = "#c00000"
OUT_OF_PLAY = "url(#out-of-play)"   # the hatch pattern ``draw`` defines

KINDS: dict[str, str] = {
    # hex terrains
    "plains": "#e8f0c0", "forest": "#8fbf7f", "hills": "#d8c38f", "mountains": "#b0a090",
    "swamp": "#a8c0a8", "sea": "#9cc8e8", "ocean": "#6fa8d8", "unexplored": "#d0d0d0",
    "open": "#eef2d8", "road": "#ddb27a",
    # region and area kinds: coastal is sea-green and land sand, told apart at a glance
    "farmland": "#f0e6a0", "hill": "#d8c38f", "mountain": "#b0a090", "lake": "#a8d0f0",
    "land": "#efe2b8", "coastal": "#b8e0d0", "out_of_play": OUT_OF_PLAY, "castle": "#e8d0c8",
    "square": "#f4f4f4", "open_sea": "#7fb0dd",
}
OTHER_KIND = "#e0e0e0"


@lru_cache(maxsize=256)
def owner_colours(players: tuple[str, ...]) -> dict[str, str]:
    """Each player's colour: named ones first (the first to claim a colour has it), then
    the others in order from the colours left (round again when all are taken)."""
    colours: dict[str, str] = {}
    for player in players:
        named = NAMED.get(player.lower())
        if named is not None and named not in colours.values():
            colours[player] = named
    free = [c for c in OWNERS if c not in colours.values()] or list(OWNERS)
    others = [p for p in players if p not in colours]
    for k, player in enumerate(others):
        colours[player] = free[k % len(free)]
    return colours


def owner_colour(owner: str | None, players: tuple[str, ...]) -> str:
    if owner is None or owner not in players:
        return NEUTRAL
    return owner_colours(players)[owner]


def ink(fill: str) -> str:
    """The colour of a label written on ``fill``."""
    return "#000000" if fill in LIGHT else "#ffffff"


def kind_colour(kind: str) -> str:
    return KINDS.get(kind, OTHER_KIND)


def shade_opacity(cost: int, highest: int) -> float:
    """0.15 for the cheapest place up to 0.55 for the dearest: the terrain shows through."""
    if highest <= 0:
        return 0.25
    return 0.15 + 0.4 * min(cost, highest) / highest

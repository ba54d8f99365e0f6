"""Random positions for the contract tests: one hypothesis strategy of JSON states per
ruleset id, each drawing states that compile (a strategy that draws a malformed one fails
the contract tests, which is how a drifted strategy shows itself).

A ruleset with an entry in ``SUBJECTS`` is checked on the positions its strategy draws;
one without is checked on positions played on from its example and golden states
(``under_test.golden_positions``), which reach only as far as its cases do. The
strategies use JSON only and import no ruleset, so a ruleset that fails to import fails
its own tests and no one else's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from rulesets import area_movement_boards as area
from rulesets import phased_orders_boards as phased
from rulesets import territory_conquest_boards as territory
from rulesets.region_conquest_boards import positions

State = dict[str, Any]


def every_player(state: State) -> list[str]:
    """The ids in the state's ``players`` list, in order."""
    return [p["id"] for p in state["players"]]


@dataclass(frozen=True, slots=True)
class Subject:
    """How the contract tests draw positions of one ruleset: ``states`` draws whole JSON
    states; ``players`` names whom to ask for legal actions in one of them (all of its
    players by default: the ruleset says, through ``judge``, whose turn it is)."""

    states: st.SearchStrategy[State]
    players: Callable[[State], list[str]] = every_player


# --- tic_tac_toe (tests/toy) --------------------------------------------------------------

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
         (2, 4, 6))


def _three_in_a_row(cells: list[str | None]) -> bool:
    return any(cells[a] is not None and cells[a] == cells[b] == cells[c] for a, b, c in LINES)


@st.composite
def tic_tac_toe_states(draw: st.DrawFn) -> State:
    """A game played from the empty grid: marks alternate from X on random cells until
    the drawn length or three in a row; sometimes the player to move has resigned."""
    x_player = draw(st.sampled_from(("alice", "bob")))
    o_player = "bob" if x_player == "alice" else "alice"
    cells: list[str | None] = [None] * 9
    placed = 0
    for cell in draw(st.permutations(range(9)))[:draw(st.integers(0, 9))]:
        cells[cell] = "X" if placed % 2 == 0 else "O"
        placed += 1
        if _three_in_a_row(cells):
            break
    turn = x_player if placed % 2 == 0 else o_player
    over = _three_in_a_row(cells) or None not in cells
    resigned = turn if not over and draw(st.integers(0, 5)) == 0 else None
    return {"options": {"misere": draw(st.booleans())},
            "players": [{"id": "alice", "mark": "X" if x_player == "alice" else "O"},
                        {"id": "bob", "mark": "X" if x_player == "bob" else "O"}],
            "board": cells, "turn": turn, "resigned": resigned}


# --- territory_conquest -------------------------------------------------------------------

@st.composite
def territory_conquest_states(draw: st.DrawFn) -> State:
    """The set-up board with any soldier tokens and first player, or one of the later
    positions of tests/rulesets/territory_conquest_boards.py with any soldier tokens."""
    kind = draw(st.sampled_from(("setup", "example", "mid")))
    if kind == "setup":
        return territory.setup_state(draw(st.integers(0, 9)), draw(st.integers(0, 9)),
                                     draw(st.sampled_from((territory.RED, territory.BLUE))))
    start = (territory.worked_example_state() if kind == "example"
             else territory.mid_phase_state())
    for player in start["players"]:
        player["soldier_tokens"] = draw(st.integers(0, 12))
    return start


# --- hex_maneuver -------------------------------------------------------------------------

LAND = ("plains", "plains", "plains", "forest", "hills", "mountains", "swamp")
WATER = ("sea", "sea", "ocean")
# The default unit catalogue (service/arbiter/rulesets/hex_maneuver/catalogue.py).
LAND_UNITS = ("peasants", "spearmen", "swordsmen", "archers", "cavalrymen", "catapult",
              "trebuchet")
HEX_PLAYERS = ("red", "blue")


def hex_disc(radius: int) -> list[tuple[int, int]]:
    """The axial hexes within ``radius`` of (0, 0), in (q, r) order."""
    return [(q, r) for q in range(-radius, radius + 1)
            for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)]


@st.composite
def _hex_army(draw: st.DrawFn, index: int, at: tuple[int, int], water: bool) -> State:
    if water:
        units = {"galley": draw(st.integers(1, 2))}
    else:
        units = draw(st.dictionaries(st.sampled_from(LAND_UNITS), st.integers(1, 3),
                                     min_size=1, max_size=3))
    army: State = {"id": f"a{index}", "owner": draw(st.sampled_from(HEX_PLAYERS)),
                   "hex": {"q": at[0], "r": at[1]}, "units": units,
                   "depletion": draw(st.sampled_from((0, 0, 0, 1)))}
    if "trebuchet" in units:
        army["unpacked"] = draw(st.integers(0, units["trebuchet"]))
    return army


@st.composite
def hex_maneuver_states(draw: st.DrawFn) -> State:
    """A small explored hex map (radius 2 to 4, land of several terrains and some sea and
    ocean, two provinces), 1 to 4 armies of two players with the default unit types on
    their own hexes (galleys on water, land units on land), and a city or castle or two."""
    disc = hex_disc(draw(st.integers(2, 4)))
    terrain = {h: draw(st.sampled_from(LAND + WATER)) for h in disc}
    hexes = [{"q": q, "r": r, "terrain": terrain[(q, r)],
              "province": "north" if r < 0 else "south"} for q, r in disc]
    spots = draw(st.lists(st.sampled_from(disc), min_size=1, max_size=6, unique=True))
    n_armies = draw(st.integers(1, min(4, len(spots))))
    armies = [draw(_hex_army(i, h, terrain[h] in WATER)) for i, h in enumerate(spots[:n_armies])]
    structures = [{"id": f"s{i}", "kind": draw(st.sampled_from(("city", "castle"))),
                   "owner": draw(st.sampled_from(HEX_PLAYERS)), "hex": {"q": q, "r": r}}
                  for i, (q, r) in enumerate(spots[n_armies:]) if terrain[(q, r)] not in WATER]
    return {"options": {"march": draw(st.booleans())}, "hexes": hexes,
            "players": [{"id": p} for p in HEX_PLAYERS], "armies": armies,
            "structures": structures}


SUBJECTS: dict[str, Subject] = {
    "area_movement": Subject(area.positions()),
    "hex_maneuver": Subject(hex_maneuver_states()),
    "phased_orders": Subject(phased.positions()),
    "region_conquest": Subject(positions()),
    "territory_conquest": Subject(territory_conquest_states()),
    "tic_tac_toe": Subject(tic_tac_toe_states()),
}

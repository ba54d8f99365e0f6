"""The rule ids of ``tic_tac_toe`` with their paraphrases, every violation code with the
rule it enforces and its message template, every event kind, and the game's fixed data:
the eight lines of three.

Rule ids are ``tic_tac_toe/<section>.<n>``; a code or an event names the section it cites
and ``build_catalogue`` refuses one that cites a rule not listed here.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.catalogue import Entry, build_catalogue

# The three rows, the three columns and the two diagonals, by cell number.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)
FIRST_MARK = "X"

RULES: list[tuple[str, str]] = [
    ("turn.1", "X moves first; the players then take turns, one mark each."),
    ("place.1", "A player puts their mark on an empty cell of the 3x3 grid."),
    ("win.1", "Three of one mark in a row, a column or a diagonal win the game."),
    ("win.2", "Misère (option): the player who completes three in a row loses instead."),
    ("draw.1", "A full grid without three in a row is a draw."),
    ("resign.1", "On their turn, a player may resign: the other player wins."),
    ("over.1", "Once the game is won, drawn or resigned, nobody moves any more."),
]

CODES: list[Entry] = [
    ("not_your_turn", "turn.1", "it is the turn of {turn_player}, not of {player}"),
    ("cell_taken", "place.1", "cell {cell} already holds {mark}"),
    ("game_over", "over.1", "the game has ended in a {ending}: nobody moves any more"),
]

EVENTS: list[Entry] = [
    ("mark_placed", "place.1", "{player} puts {mark} on cell {cell}"),
    ("game_won", "win.1", "{winner} wins: {mark} has three in a row on cells {line}"),
    ("game_drawn", "draw.1", "the grid is full without three in a row: a draw"),
    ("player_resigned", "resign.1", "{player} resigns: {winner} wins"),
]

# The type of each word a template fills (an entry may declare its own, and facts beside).
PARAM_TYPES: dict[str, Any] = {
    "cell": int,
    "ending": str,
    "line": list[int],
    "mark": str,
    "player": str,
    "turn_player": str,
    "winner": str,
}


CATALOGUE = build_catalogue(
    "tic_tac_toe", "1.0.0", "Tic-tac-toe: the toy ruleset that shows the shape",
    rules=RULES, codes=CODES, events=EVENTS, param_types=PARAM_TYPES,
    data={"lines": [list(line) for line in LINES], "first_mark": FIRST_MARK})

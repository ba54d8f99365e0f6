"""The state compiled for fast questions, and the consistency checks that make a state
malformed (422) rather than merely a position where an action is illegal.

A state is malformed when no game of tic-tac-toe reaches it: a player listed twice, two
players with one mark, a turn or a resignation naming nobody, marks that do not
alternate from X, a turn that does not follow from the marks, a game that went on after
three in a row. ``compile_board`` finds every such problem, raises them together as
``InvalidInput`` with their JSON pointers into ``/state``, and otherwise returns a
``Board``: players by id and by mark, and the completed line if any.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.index import check_ref, index_by_id

from .catalogue import FIRST_MARK
from .lines import Line, completed, full
from .models import Mark, TicTacToePlayer, TicTacToeState

Ending = Literal["win", "draw", "resignation"]


@dataclass(frozen=True, slots=True)
class Board:
    state: TicTacToeState
    players: dict[str, TicTacToePlayer]
    by_mark: dict[Mark, str]
    line: tuple[Mark, Line] | None

    @property
    def cells(self) -> list[Mark | None]:
        return self.state.board

    @property
    def ending(self) -> Ending | None:
        """How the game ended, or None while it goes on."""
        if self.state.resigned is not None:
            return "resignation"
        if self.line is not None:
            return "win"
        return "draw" if full(self.cells) else None

    def mark_of(self, player: str) -> Mark:
        return self.players[player].mark

    def opponent(self, player: str) -> str:
        return self.by_mark["O" if self.mark_of(player) == "X" else "X"]

    def winner(self, mark: Mark) -> str:
        """Who wins when ``mark`` has three in a row (its owner, or the other in misère)."""
        owner = self.by_mark[mark]
        return self.opponent(owner) if self.state.options.misere else owner


def compile_board(state: TicTacToeState) -> Board:
    """Check the state's consistency and index it. Raises InvalidInput (422)."""
    problems = Problems()
    index = index_by_id(state.players, ("state", "players"), "player", problems)
    players = {pid: state.players[i] for pid, i in index.items()}
    by_mark = _marks(state, problems)
    check_ref(state.turn, players, ("state", "turn"), "player", problems)
    if state.resigned is not None:
        check_ref(state.resigned, players, ("state", "resigned"), "player", problems)
    lines = completed(state.board)
    _check_marks(state, lines, problems)
    _check_turn(state, by_mark, problems)
    problems.raise_if_any()
    return Board(state=state, players=players, by_mark=by_mark,
                 line=lines[0] if lines else None)


def _marks(state: TicTacToeState, problems: Problems) -> dict[Mark, str]:
    by_mark: dict[Mark, str] = {}
    for i, player in enumerate(state.players):
        if player.mark in by_mark:
            problems.add(pointer("state", "players", i, "mark"),
                         f"mark {player.mark} is already {by_mark[player.mark]}'s")
            continue
        by_mark[player.mark] = player.id
    return by_mark


def _check_marks(state: TicTacToeState, lines: list[tuple[Mark, Line]],
                 problems: Problems) -> None:
    """The marks alternate from X, and nothing happens after the game has ended."""
    x, o = state.board.count("X"), state.board.count("O")
    if x - o not in (0, 1):
        problems.add(pointer("state", "board"),
                     f"{x} X and {o} O: {FIRST_MARK} moves first and the players take turns")
        return
    last: Mark = "X" if x > o else "O"
    winners = {mark for mark, _ in lines}
    if len(winners) > 1:
        problems.add(pointer("state", "board"), "both X and O have three in a row")
    elif winners and last not in winners:
        problems.add(pointer("state", "board"),
                     f"{last} played on after {lines[0][0]} had three in a row")
    if state.resigned is not None and (lines or full(state.board)):
        problems.add(pointer("state", "resigned"),
                     "the game had already ended on the grid: nobody resigns after that")


def _check_turn(state: TicTacToeState, by_mark: dict[Mark, str], problems: Problems) -> None:
    """The turn follows from the marks: X's when both have as many, O's otherwise."""
    x, o = state.board.count("X"), state.board.count("O")
    to_move: Mark = "X" if x == o else "O"
    player = by_mark.get(to_move)
    # An unknown turn player is reported once, by check_ref; marks that do not alternate
    # name no turn at all.
    known = state.turn in by_mark.values()
    if x - o in (0, 1) and known and player is not None and state.turn != player:
        problems.add(pointer("state", "turn"),
                     f"with {x} X and {o} O on the grid it is the turn of {player} ({to_move})")


def check_player(board: Board, player: str, at: tuple[object, ...] = ("action", "player")
                 ) -> None:
    """A player an action or a query names must be one of the state's (422 otherwise)."""
    problems = Problems()
    check_ref(player, board.players, at, "player", problems)
    problems.raise_if_any()

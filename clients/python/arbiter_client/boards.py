"""Boards by reference, on the client's side: a board's id computed offline exactly as the
service does (engine/boards.py: ``"sha256:"`` and the hex SHA-256 of the JSON object of the
board fields, keys sorted at every level, no whitespace, UTF-8 with only the escapes JSON
requires), and the book of boards this client has sent, so a state can go with
``"board": "sha256:..."`` in place of its board and, when the service answers
board-not-found (it may drop a board at any time), once more with its board inline."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping, Sequence
from typing import Any


def board_id(board: Mapping[str, Any]) -> str:
    """The id of a board (the object of its board fields)."""
    text = json.dumps(board, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def board_of(state: Mapping[str, Any], fields: Sequence[str]) -> dict[str, Any] | None:
    """The board a whole state carries (None if it lacks a board field)."""
    if not fields or any(f not in state or state[f] is None for f in fields):
        return None
    return {f: state[f] for f in fields}


class BoardBook:
    """The boards this client knows, by ruleset and id, and which it has sent."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._boards: dict[tuple[str, str], dict[str, Any]] = {}
        self._sent: set[tuple[str, str]] = set()

    def remember(self, ruleset: str, board: Mapping[str, Any]) -> str:
        ident = board_id(board)
        with self._lock:
            self._boards[(ruleset, ident)] = dict(board)
        return ident

    def sent(self, ruleset: str, ident: str) -> None:
        with self._lock:
            self._sent.add((ruleset, ident))

    def by_reference(self, ruleset: str, fields: Sequence[str],
                     state: Mapping[str, Any]) -> dict[str, Any]:
        """``state`` with ``"board": id`` in place of its board fields (remembered)."""
        board = board_of(state, fields)
        if board is None:
            return dict(state)
        ident = self.remember(ruleset, board)
        lean = {k: v for k, v in state.items() if k not in fields}
        lean["board"] = ident
        return lean

    def outgoing(self, ruleset: str, fields: Sequence[str],
                 state: Mapping[str, Any]) -> dict[str, Any]:
        """How a whole state goes when boards go by reference: the first time with its
        board and its id (which stores it), after that by reference."""
        board = board_of(state, fields)
        if board is None:
            return dict(state)
        ident = self.remember(ruleset, board)
        with self._lock:
            known = (ruleset, ident) in self._sent
            self._sent.add((ruleset, ident))
        lean = {k: v for k, v in state.items() if k not in fields}
        return {**lean, "board": ident} if known else {**state, "board": ident}

    def inline(self, ruleset: str, state: Mapping[str, Any]) -> dict[str, Any] | None:
        """A state by reference with its board inline too (to store it once more); None
        when this client does not know the board."""
        ident = state.get("board")
        with self._lock:
            board = self._boards.get((ruleset, ident)) if isinstance(ident, str) else None
        if board is None:
            return None
        return {**state, **board}

"""A game a reader can paste: Alice (X) and Bob (O) have played once each, Alice to move.
Used in the OpenAPI examples and in ``GET`` metadata."""

from __future__ import annotations

from typing import Any

from arbiter.engine.ruleset import Examples

EXAMPLE_STATE: dict[str, Any] = {
    "players": [{"id": "alice", "mark": "X"}, {"id": "bob", "mark": "O"}],
    "board": ["X", None, None,
              None, "O", None,
              None, None, None],
    "turn": "alice",
}

EXAMPLE_ACTION: dict[str, Any] = {"type": "place", "player": "alice", "cell": 8}

EXAMPLES = Examples(state=EXAMPLE_STATE, action=EXAMPLE_ACTION)

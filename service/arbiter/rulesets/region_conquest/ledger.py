"""The working copy an action's effect is written into: a ``Draft`` of the state with its
regions and players indexed by id as they are touched, and the few token moves the rules
make (into a region, out of a region). The request's models are never touched; the
pipeline checks the result against the state model.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.draft import Draft

from .models import RegionConquestState


class Ledger:
    __slots__ = ("_players", "_regions", "draft")

    def __init__(self, state: RegionConquestState) -> None:
        self.draft = Draft(state)
        self._regions: dict[str, dict[str, Any]] | None = None
        self._players: dict[str, dict[str, Any]] | None = None

    @property
    def regions(self) -> dict[str, dict[str, Any]]:
        if self._regions is None:
            self._regions = {r["id"]: r for r in self.draft["regions"]}
        return self._regions

    @property
    def players(self) -> dict[str, dict[str, Any]]:
        if self._players is None:
            self._players = {p["id"]: p for p in self.draft["players"]}
        return self._players

    @property
    def turn(self) -> dict[str, Any]:
        turn: dict[str, Any] = self.draft["turn"]
        return turn

    def put(self, player: str, region: str, tokens: int, race: str = "active") -> None:
        held = self.players[player][race]
        held[region] = held.get(region, 0) + tokens

    def take(self, player: str, region: str, tokens: int, race: str = "active") -> None:
        """Remove tokens from a region; a region left with none is no longer listed."""
        held = self.players[player][race]
        left = held.get(region, 0) - tokens
        if left > 0:
            held[region] = left
        else:
            held.pop(region, None)

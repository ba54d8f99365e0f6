"""The working copy an action's effect is written into: a plain-dict copy of the state
(``model_dump``) with its regions and players indexed by id, and the few token moves the
rules make (into a region, out of a region, into the storage tray). The input models are
never touched; ``result`` validates the copy back into a state model.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from arbiter.engine.errors import InvalidInput, Problem, pointer

from .models import RegionConquestState


class Ledger:
    __slots__ = ("data", "players", "regions", "turn")

    def __init__(self, state: RegionConquestState) -> None:
        self.data: dict[str, Any] = state.model_dump()
        self.regions: dict[str, dict[str, Any]] = {r["id"]: r for r in self.data["regions"]}
        self.players: dict[str, dict[str, Any]] = {p["id"]: p for p in self.data["players"]}
        self.turn: dict[str, Any] = self.data["turn"]

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

    def result(self) -> RegionConquestState:
        try:
            return RegionConquestState.model_validate(self.data)
        except ValidationError as exc:
            # Only an absurd state gets here (a count pushed past its bound by a legal
            # action): answer 422 on the fields that overflowed, never a 5xx.
            raise InvalidInput([
                Problem(pointer("state", *e["loc"]), f"the action would make this {e['msg']}")
                for e in exc.errors()
            ]) from None

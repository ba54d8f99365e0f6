"""City eligibility, derived (city.1 to city.5): no city is built during movement, but a
player who has at least 6 tokens in an area with a city site, or 12 in a wilderness area
(no city site) whose population limit is above 0, may build one there in the City
Construction phase, if he still has them after the conflicts. An area already holding a
city, or out of play, takes no new one (reading)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from arbiter.engine.wire import Frozen

from .board import Board
from .catalogue import CITY_SITE_TOKENS, WILDERNESS_TOKENS
from .conflicts import causes

Reason = Literal["city_site", "wilderness", "population_limit_zero", "city_present",
                 "out_of_play"]


class AreaMovementEligibility(Frozen):
    area: str
    player: str
    tokens: int = Field(description="The player's tokens in the area now.")
    kind: Reason = Field(description="city_site (6 tokens) or wilderness (12); otherwise why "
                         "no city may be built: population_limit_zero, city_present, "
                         "out_of_play.")
    required: int | None = Field(description="The tokens a city takes here; null where none "
                                 "may be built.")
    eligible: bool
    short_by: int | None = Field(description="How many tokens the player lacks; null where "
                                 "no city may be built.")
    conflict_pending: bool = Field(description="The area is in a conflict situation: the "
                                   "tokens left after the Conflict phase decide (city.3).")


def _kind(board: Board, area: str) -> tuple[Reason, int | None]:
    found = board.areas[area]
    if found.out_of_play:
        return "out_of_play", None
    if area in board.cities:
        return "city_present", None
    if found.city_site:
        return "city_site", CITY_SITE_TOKENS
    if found.population_limit == 0:
        return "population_limit_zero", None
    return "wilderness", WILDERNESS_TOKENS


def eligibility(board: Board, players: list[str], areas: list[str]
                ) -> list[AreaMovementEligibility]:
    """Each area (in the order given) for each player (in the order given)."""
    out = []
    for area in areas:
        kind, required = _kind(board, area)
        here = board.occupants.get(area, {})
        pending = bool(causes(board, area, here))
        for player in players:
            tokens = here.get(player, 0)
            short = None if required is None else max(0, required - tokens)
            out.append(AreaMovementEligibility(
                area=area, player=player, tokens=tokens, kind=kind, required=required,
                eligible=short == 0, short_by=short, conflict_pending=pending))
    return out

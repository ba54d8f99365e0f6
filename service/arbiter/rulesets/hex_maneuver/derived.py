"""The model of a hex_maneuver outcome's ``derived`` facts (``judge``): what a frontend
shows beside the verdict. The judge builds them as plain dicts (the hot path); this model
types them for GraphQL, OpenAPI and the test that they match (tests/contract/
test_catalogue_params.py)."""

from __future__ import annotations

from pydantic import Field

from arbiter.engine.hexgrid import Axial
from arbiter.engine.wire import Frozen

from .queries import HexManeuverTarget


class HexManeuverRotationFacts(Frozen):
    """One rotation of an explored tile (explore.3, explore.4)."""

    rotation: int = Field(description="Sixths of a turn.")
    fits: bool = Field(description="The tile covers the province exactly so turned.")
    conditions: list[str] = Field(description="The placement conditions it meets.")
    relic_hex: Axial | None = Field(description="Where its relic symbol falls, if any.")
    relic_symbol: str | None = Field(description="solid or outlined; null: no symbol.")


class HexManeuverRelicFacts(Frozen):
    """Whether the explored tile gets a relic (relic.1 to relic.3), and why."""

    due: bool
    reason: str
    relic: str | None = Field(description="The relic placed, when one is.")
    hex: Axial | None = Field(description="Where it is placed.")


class HexManeuverDerived(Frozen):
    """The movement facts of every maneuver and exploration; a maneuver adds what its
    army has in range at its destination; an exploration whose tile was flipped adds its
    rotations, and once the tile fits, the landing, the relic and what is in range."""

    movement_points: int = Field(description="The slowest moved unit's MP (march included).")
    cost: int = Field(description="The MP the path costs.")
    march: bool
    ferried: bool = Field(description="The path uses ferrying.")
    destination: Axial
    unpacked: int | None = Field(default=None, description="A maneuver: the trebuchets "
                                 "unpacked at its end.")
    in_range: list[HexManeuverTarget] | None = Field(
        default=None, description="Enemy objects the army can attack where it ends.")
    rotations: list[HexManeuverRotationFacts] | None = None
    rotation: int | None = Field(default=None, description="The rotation the tile is placed in.")
    landed: bool | None = Field(default=None, description="The army moved onto the claimed hex.")
    relic: HexManeuverRelicFacts | None = None

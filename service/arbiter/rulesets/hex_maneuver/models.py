"""The wire shapes of ``hex_maneuver``: the state (map, players, unit catalogue, armies,
structures, relics, province tiles, events, rng) and the two actions, ``maneuver`` and
``explore``. Pure data with bounds, on the engine's wire primitives; the consistency of a
state (ids that must match, hexes on the map) is checked in ``board.py`` and the rules
live in the other modules."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, RootModel

from arbiter.engine.hexgrid import Axial
from arbiter.engine.wire import Count, Frozen, Id, Seed

# Unit type names are free (a state may add its own types), so not ``Word``: the catalogue
# has always accepted any name of 1 to 32 characters.
UnitCounts = dict[Annotated[str, Field(min_length=1, max_length=32)], Count]

MAX_HEXES = 40_000
MAX_PIECES = 2_000
MAX_PATH = 64


class Terrain(StrEnum):
    plains = "plains"
    forest = "forest"
    hills = "hills"
    mountains = "mountains"
    swamp = "swamp"
    sea = "sea"
    ocean = "ocean"


WATER = frozenset({Terrain.sea, Terrain.ocean})


class UnitClass(StrEnum):
    infantry = "infantry"
    cavalry = "cavalry"
    siege_engine = "siege_engine"
    vessel = "vessel"


class AttackKind(StrEnum):
    none = "none"
    melee = "melee"
    ranged = "ranged"
    projectile = "projectile"


class HexManeuverUnitType(Frozen):
    """One line of the unit catalogue. A unit is military when it has an attack."""

    unit_class: UnitClass
    movement: Annotated[int, Field(ge=0, le=20)]
    attack: AttackKind = AttackKind.none
    range_min: Annotated[int, Field(ge=0, le=20)] = 0
    range_max: Annotated[int, Field(ge=0, le=20)] = 0
    packs: bool = Field(default=False, description="Moves only when packed and attacks only "
                        "when unpacked; packing and unpacking each cost 1 MP (the trebuchet).")
    enters_sea: bool = Field(default=False, description="May enter a sea hex (not ocean) for "
                             "2 MP without ferrying (peasants).")

    @property
    def military(self) -> bool:
        return self.attack is not AttackKind.none

    @property
    def vessel(self) -> bool:
        return self.unit_class is UnitClass.vessel


class HexManeuverHex(Frozen):
    q: int = Field(ge=-10_000, le=10_000)
    r: int = Field(ge=-10_000, le=10_000)
    terrain: Terrain | None = Field(
        default=None, description="Required on explored hexes; unknown (null) on the hexes of an "
        "unexplored province.")
    province: Id
    explored: bool = True


class HexManeuverPlayer(Frozen):
    id: Id
    relics: list[Id] = Field(default_factory=list, max_length=64)
    voting_cubes: Count = Field(default=0, description="Voting cubes left in the bank.")


class HexManeuverArmy(Frozen):
    id: Id
    owner: Id
    hex: Axial
    units: UnitCounts = Field(max_length=32, description="Unit counts by type. Vessels stand "
                              "only on sea or ocean: a vessel on a land hex is malformed "
                              "(422 at /state/armies/<i>/units/<type>).")
    depletion: Count = Field(default=0,
                             description="Depletion cubes; an army with any is depleted.")
    unpacked: Count = Field(default=0, description="How many of its packing units (trebuchets) "
                            "stand unpacked.")


class StructureKind(StrEnum):
    city = "city"
    castle = "castle"
    other = "other"


class HexManeuverStructure(Frozen):
    id: Id
    kind: StructureKind
    owner: Id
    hex: Axial


class RelicSymbol(StrEnum):
    solid = "solid"
    outlined = "outlined"


class HexManeuverTileHex(Frozen):
    """A hex of a province tile, as an offset from the tile's centre before rotation."""

    dq: int = Field(ge=-8, le=8)
    dr: int = Field(ge=-8, le=8)
    terrain: Terrain
    relic_symbol: RelicSymbol | None = Field(default=None, description="Set on the one hex that "
                                             "shows the tile's relic symbol.")


class HexManeuverTile(Frozen):
    id: Id
    hexes: list[HexManeuverTileHex] = Field(min_length=1, max_length=61)


class HexManeuverPlacedRelic(Frozen):
    relic: Id
    hex: Axial


class HexManeuverRelics(Frozen):
    total: Count = Field(description="Relics this game uses: exactly players + 1.")
    to_place: Count = Field(description="Relics still to be placed in this game.")
    bag: list[Id] = Field(default_factory=list, max_length=64,
                          description="Unused relics, drawn at random when one is placed.")
    placed: list[HexManeuverPlacedRelic] = Field(default_factory=list, max_length=64)


class HexManeuverEventCard(Frozen):
    card: Id
    voting_cubes: list[Id] = Field(default_factory=list, max_length=64,
                                   description="One player id per cube on the card.")


class HexManeuverEvents(Frozen):
    deck: list[Id] = Field(default_factory=list, max_length=512,
                           description="Digital mode: the event deck, top card first.")
    rows: list[list[HexManeuverEventCard]] = Field(default_factory=list, max_length=256)


class HexManeuverOptions(Frozen):
    """Variants and house rules."""

    march: bool = Field(default=True, description="An army may take 1 extra MP and then "
                        "receives 2 depletion cubes.")
    march_depletion: Annotated[int, Field(ge=1, le=5)] = 2
    free_own_structure_entries: Annotated[int, Field(ge=0, le=10)] = Field(
        default=1, description="How many entries into an own city or castle cost 0 MP per "
        "maneuver.")
    deplete_when_landing_fails: bool = Field(
        default=False, description="House rule: an explorer that cannot land on its claimed "
        "hex is depleted anyway.")


class HexManeuverState(Frozen):
    options: HexManeuverOptions = Field(default_factory=HexManeuverOptions)
    hexes: list[HexManeuverHex] = Field(min_length=1, max_length=MAX_HEXES)
    players: list[HexManeuverPlayer] = Field(min_length=1, max_length=16)
    unit_types: dict[Annotated[str, Field(min_length=1, max_length=32)], HexManeuverUnitType] = (
        Field(default_factory=dict, max_length=32,
              description="Overrides and additions to the default unit catalogue."))
    armies: list[HexManeuverArmy] = Field(default_factory=list, max_length=MAX_PIECES)
    structures: list[HexManeuverStructure] = Field(default_factory=list, max_length=MAX_PIECES)
    relics: HexManeuverRelics | None = None
    tiles: list[HexManeuverTile] = Field(default_factory=list, max_length=256,
                                         description="Digital mode: the province tile stack, "
                                         "top first.")
    events: HexManeuverEvents = Field(default_factory=HexManeuverEvents)
    rng: Seed | None = Field(
        default=None, description="Digital mode: the seed of the service's draws; the "
        "advanced seed comes back in the new state.")


class HexManeuverDrop(Frozen):
    """Units left behind at a hex along the path (a hex already entered)."""

    hex: Axial
    units: UnitCounts = Field(min_length=1, max_length=32)


class HexManeuverPickup(Frozen):
    """Units taken from one of the player's own undepleted armies on the path."""

    army: Id
    units: UnitCounts = Field(min_length=1, max_length=32)


class HexManeuverManeuver(Frozen):
    type: Literal["maneuver"]
    player: Id
    army: Id
    units: UnitCounts | None = Field(default=None, max_length=32,
                                     description="The units that move; all when omitted. "
                                     "Fewer than all is a split.")
    path: list[Axial] = Field(default_factory=list, max_length=MAX_PATH,
                              description="The hexes entered, in order (the army's own hex "
                              "may lead and is then ignored). Empty: stay and deplete.")
    drops: list[HexManeuverDrop] = Field(default_factory=list, max_length=MAX_PATH)
    pickups: list[HexManeuverPickup] = Field(default_factory=list, max_length=MAX_PATH)
    march: bool = False
    unpack: bool = Field(default=False, description="Unpack the arriving packing units "
                         "(trebuchets) at the destination, for 1 MP that the army must still "
                         "have (trebuchet.1). Without it, those that moved end packed and "
                         "attack nothing; those that stayed stand as they stood. Asking with "
                         "no packing unit arriving is malformed (422 at /action/unpack).")


class HexManeuverExplore(Frozen):
    type: Literal["explore"]
    player: Id
    army: Id
    units: UnitCounts | None = Field(default=None, max_length=32, description="The units "
                                     "that explore; all when omitted. Their trebuchets land "
                                     "packed.")
    path: list[Axial] = Field(min_length=1, max_length=MAX_PATH,
                              description="Ends at the claimed hex inside the unexplored "
                              "province.")
    march: bool = False
    tile: HexManeuverTile | None = Field(default=None, description="Table mode: the flipped "
                                         "tile. Digital mode: omit; the top of the stack is used.")
    rotation: Annotated[int, Field(ge=0, le=5)] | None = Field(
        default=None, description="Sixths of a turn counter-clockwise. Omitted: the first "
        "rotation meeting the highest-priority placement conditions.")
    relic: Id | None = Field(default=None, description="Table mode: the relic drawn from the "
                             "bag, when one is placed.")
    event_card: Id | None = Field(default=None, description="Table mode: the event card flipped.")


HexManeuverAnyAction = HexManeuverManeuver | HexManeuverExplore


class HexManeuverAction(RootModel[Annotated[HexManeuverAnyAction, Field(discriminator="type")]]):
    pass

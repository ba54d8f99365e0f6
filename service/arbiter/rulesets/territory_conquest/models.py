"""The wire shapes of ``territory_conquest``: the Conquest board as data (territories,
adjacency, bonus locations, castles, victory points), both players' pieces (army pawns in
reserve or on the board, soldier, trap and spy tokens), the Conquest phase's turn record,
and the three actions ``recruit``, ``move`` and ``stop``. Pure data with size bounds; every
count may arrive negative here so that the board check (board.py) can name the bad field
with a JSON pointer; the rules live in the other modules."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, RootModel

from arbiter.engine.wire import Frozen, Id

# Signed, unlike the engine's ``Count``: counts are range-bounded against hostile input but
# not sign-checked here, so that a negative count is reported by the board check with its
# pointer (``board.py``), like every other inconsistency, rather than as a schema error.
Count = Annotated[int, Field(ge=-10_000, le=10_000)]

MAX_TERRITORIES = 64
MAX_BONUS_LOCATIONS = 16


class TerritoryKind(StrEnum):
    """Seas work just like land territories; the kind is only what the board shows."""

    land = "land"
    sea = "sea"


class Resource(StrEnum):
    """The production icons of *It's a Wonderful Kingdom*."""

    materials = "materials"
    energy = "energy"
    science = "science"
    gold = "gold"
    exploration = "exploration"


class BonusEffect(StrEnum):
    """What a pawn on a bonus location gives (the source's Bonus Effects list, plus the
    production icons printed on a location)."""

    trap_token = "trap_token"
    spy_token = "spy_token"
    card_destruction = "card_destruction"
    double_move = "double_move"
    krystallium_production = "krystallium_production"
    production = "production"


class TerritoryConquestBonusLocation(Frozen):
    id: Id = Field(description="Unique on the whole board.")
    effect: BonusEffect
    icons: dict[Resource, Count] = Field(
        default_factory=dict, max_length=5,
        description="The production icons of a 'production' location (e.g. {\"gold\": 1}); "
        "empty for every other effect.")


class TerritoryConquestTerritory(Frozen):
    id: Id
    kind: TerritoryKind = TerritoryKind.land
    bonus_locations: list[TerritoryConquestBonusLocation] = Field(
        default_factory=list, max_length=MAX_BONUS_LOCATIONS,
        description="None at the castles; one or more elsewhere.")
    production: dict[Resource, Count] = Field(
        default_factory=dict, max_length=5,
        description="Icons printed in a castle territory (produced by its owner every "
        "Production phase). Only castles have them: elsewhere icons sit on bonus locations.")
    victory_points: dict[Id, Count] = Field(
        default_factory=dict, max_length=2,
        description="Gross victory points per player colour, earned at the end of the game "
        "by the player who controls the territory; a missing colour earns 0.")


class TerritoryConquestPlayer(Frozen):
    id: Id = Field(description="The player's colour, e.g. 'red'.")
    castle: Id = Field(description="The castle territory of the player's colour.")
    reserve: Count | None = Field(
        default=None, description="Army pawns beside the board. Reserve plus the pawns on the "
        "board make exactly 12; left out, it is 12 less the pawns on the board.")
    armies: dict[Id, Count] = Field(
        default_factory=dict, max_length=MAX_TERRITORIES,
        description="Army pawns per territory, those on bonus locations included.")
    on_bonus_locations: list[Id] = Field(
        default_factory=list, max_length=MAX_TERRITORIES * MAX_BONUS_LOCATIONS,
        description="The bonus locations holding one of this player's pawns (each pawn is "
        "counted in its territory's armies too).")
    soldier_tokens: Count = 0
    trap_tokens: Count | None = Field(
        default=None, description="Exactly one per trap bonus location the player holds; "
        "left out, it is counted from those locations.")
    spy_tokens: Count | None = Field(
        default=None, description="Exactly one per spy bonus location the player holds; "
        "left out, it is counted from those locations.")


ActionType = Literal["recruit", "move", "stop"]


class TerritoryConquestPastAction(Frozen):
    player: Id
    type: ActionType


class TerritoryConquestTurnRecord(Frozen):
    """Where the Conquest phase stands. A fresh phase is the default (nobody has acted)."""

    to_act: Id | None = Field(
        default=None, description="Whose action it is; null before the phase's first action "
        "(then the player with more soldier tokens, on a tie the round's first player) and "
        "after the phase has ended.")
    last_actions: list[TerritoryConquestPastAction] = Field(
        default_factory=list, max_length=64,
        description="The phase's most recent actions, oldest first. Only the last two are "
        "read (alternation and two stops in a row); a resulting state keeps two.")
    stopped: list[Id] = Field(
        default_factory=list, max_length=2,
        description="Players who have stopped their conquest and not been brought back by an "
        "opponent's recruit or move, in the order they stopped.")
    ended: bool = Field(default=False, description="Both players stopped one right after the "
                        "other: the Conquest phase is over.")


class TerritoryConquestOptions(Frozen):
    """Variants and house rules."""

    double_move_via_neutral: bool = Field(
        default=True,
        description="A double move may pass through a territory nobody controls (the source "
        "only forbids enemy territories). False: only through the mover's own territories.")


class TerritoryConquestState(Frozen):
    options: TerritoryConquestOptions = Field(default_factory=TerritoryConquestOptions)
    territories: list[TerritoryConquestTerritory] = Field(min_length=2,
                                                          max_length=MAX_TERRITORIES)
    adjacent: list[Annotated[list[Id], Field(min_length=2, max_length=2)]] = Field(
        default_factory=list, max_length=MAX_TERRITORIES * 16,
        description="Pairs of territories sharing a border (a shore, for a sea).")
    players: list[TerritoryConquestPlayer] = Field(min_length=2, max_length=2)
    round_first_player: Id = Field(description="The 1st player of the round: acts first in "
                                   "the Conquest phase when soldier tokens tie.")
    conquest: TerritoryConquestTurnRecord = Field(default_factory=TerritoryConquestTurnRecord)


class TerritoryConquestRecruit(Frozen):
    type: Literal["recruit"]
    player: Id
    count: Count = Field(description="Army pawns to take from the reserve into the castle "
                         "territory, paying 1 soldier token each.")


class TerritoryConquestSource(Frozen):
    """Pawns leaving one starting territory."""

    territory: Id
    count: Count
    from_bonus_locations: list[Id] = Field(
        default_factory=list, max_length=MAX_BONUS_LOCATIONS,
        description="The bonus locations of this territory that some of the leaving pawns "
        "stand on (their bonuses are lost); the rest leave from off the bonus locations.")


class TerritoryConquestMove(Frozen):
    type: Literal["move"]
    player: Id
    destination: Id
    sources: list[TerritoryConquestSource] = Field(max_length=MAX_TERRITORIES)
    placement: list[Id] = Field(
        default_factory=list, max_length=MAX_BONUS_LOCATIONS,
        description="Bonus locations of the destination on which surviving pawns are placed, "
        "one pawn each; the other survivors stand in the territory without a bonus.")


class TerritoryConquestStop(Frozen):
    type: Literal["stop"]
    player: Id


# One action of the union, as ``judge`` takes it.
TerritoryConquestAnyAction = (TerritoryConquestRecruit | TerritoryConquestMove
                              | TerritoryConquestStop)


class TerritoryConquestAction(RootModel[Annotated[TerritoryConquestAnyAction,
                                                  Field(discriminator="type")]]):
    pass

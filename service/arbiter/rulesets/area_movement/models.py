"""The wire shapes of ``area_movement``: the state (land areas with their land and water
neighbours, pure water areas, cities, barbarian tokens, the players with their tokens,
treasury, census and A.S.T. rank, the ships, the options) and the actions: a player's
movement plan, an ordered list of steps (``build_ship``, ``maintain_ship``,
``move_tokens``, ``sail``, ``destroy_ship``, ``end_movement``), and ``end_movement`` on
its own. Pure data with bounds; the consistency of a state (ids that must match, tokens
only on land in play) is checked in ``board.py`` and the rules live in the other modules.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, RootModel

from arbiter.engine.wire import Count, Frozen, Id

MAX_AREAS = 10_000
MAX_PLAYERS = 16
MAX_SHIPS = 1_000
MAX_NEIGHBOURS = 256
MAX_STEPS = 1_000
# A path longer than the 4 areas a ship may sail is a violation (voyage.1), not malformed;
# this bound only keeps a request small.
MAX_PATH = 64

AreaId = Id
PlayerId = Id
ShipId = Id
# An area a player occupies holds at least one token; an empty area is left out of the map,
# so every state has exactly one spelling.
Tokens = Annotated[int, Field(ge=1, le=10_000)]
TokenMap = Annotated[dict[AreaId, Tokens], Field(max_length=MAX_AREAS)]
Capacity = Annotated[int, Field(ge=1, le=100)]
Rank = Annotated[int, Field(ge=1, le=1_000)]


class AreaMovementOptions(Frozen):
    """Variants and house rules."""

    open_sea_travel: bool = Field(
        default=False, description="Ships may move through open sea areas (by default they "
        "cannot).")
    ship_capacity: Capacity = Field(
        default=5, description="The most tokens a ship carries at the same time (5 by default).")
    simultaneous_movement: bool = Field(
        default=False, description="Players move as soon as they like instead of waiting for "
        "their turn in census order.")


class AreaMovementArea(Frozen):
    """A land area. Tokens, cities and barbarians stand only on land areas."""

    id: AreaId
    land: list[AreaId] = Field(
        default_factory=list, max_length=MAX_NEIGHBOURS,
        description="The land areas adjacent by land; every pair is listed from both ends.")
    water: list[AreaId] = Field(
        default_factory=list, max_length=MAX_NEIGHBOURS,
        description="The areas (land or pure water) a ship passes to by water from here; every "
        "pair is listed from both ends. Only a coastal area has any.")
    coastal: bool = Field(default=False, description="The area touches the sea: ships may be "
                          "built and stand here.")
    population_limit: Annotated[int, Field(ge=0, le=100)] = Field(
        description="The most tokens the area supports; more tokens of several parties is a "
        "conflict.")
    city_site: bool = Field(default=False, description="The area holds a city site.")
    out_of_play: bool = Field(
        default=False, description="The area holds an 'out of play' token: ships may pass "
        "through it, but no voyage ends there, no token disembarks there and (a reading) no "
        "token steps into it by land.")


class AreaMovementSea(Frozen):
    """A pure water area ships may pass through."""

    id: AreaId
    water: list[AreaId] = Field(
        default_factory=list, max_length=MAX_NEIGHBOURS,
        description="The areas adjacent by water; every pair is listed from both ends.")
    open_sea: bool = Field(default=False, description="Open sea: ships pass through only when "
                           "the options allow open-sea travel.")


class AreaMovementCity(Frozen):
    area: AreaId
    owner: PlayerId | None = Field(default=None, description="The player whose city it is; "
                                   "null (or left out) for a pirate city.")


class AreaMovementPlayer(Frozen):
    id: PlayerId
    tokens: TokenMap = Field(default_factory=dict, description="The player's tokens on the "
                             "board, by land area.")
    moved_by_land: TokenMap = Field(
        default_factory=dict, description="Of those, the tokens that moved this turn by land, "
        "by the area they stand in now: they do not move again this turn.")
    moved_by_ship: TokenMap = Field(
        default_factory=dict, description="Of those, the tokens that moved this turn by ship, by "
        "the area they landed in: they do not move again this turn.")
    treasury: Count = Field(default=0, description="Treasury tokens.")
    census: Count = Field(description="The census: the player's value on the census track "
                          "for this phase, which sets the order of movement. It is taken as "
                          "sent, not recounted from the tokens on the board (which change as "
                          "the players move).")
    ast_rank: Rank = Field(description="The player's place on the A.S.T.; 1 is the top: among "
                           "players with equal census, the lower rank moves first.")
    movement_ended: bool = Field(default=False, description="The player has declared the end "
                                 "of their movement this turn.")


class AreaMovementShip(Frozen):
    id: ShipId
    owner: PlayerId
    area: AreaId = Field(description="A coastal land area or a pure water area.")
    built_this_turn: bool = False
    maintained_this_turn: bool = False
    sailed_this_turn: bool = Field(default=False, description="The ship has made its voyage "
                                   "this turn: a ship makes one voyage per turn (a reading "
                                   "of '4 areas by water per turn'), so it does not sail "
                                   "again.")


class AreaMovementState(Frozen):
    """The board at a moment of the movement phase. Each player's ``census`` is the census
    track's value for the phase, as sent: it orders the movement and is not recounted from
    the tokens on the board. ``moved_by_land``, ``moved_by_ship`` and the ships' flags are
    the moved marks of the turn so far."""

    options: AreaMovementOptions = Field(default_factory=AreaMovementOptions)
    areas: list[AreaMovementArea] = Field(min_length=1, max_length=MAX_AREAS,
                                          description="The land areas.")
    seas: list[AreaMovementSea] = Field(default_factory=list, max_length=MAX_AREAS,
                                        description="The pure water areas.")
    cities: list[AreaMovementCity] = Field(default_factory=list, max_length=MAX_AREAS)
    barbarians: TokenMap = Field(default_factory=dict, description="Barbarian tokens by land "
                                 "area. They do not move.")
    players: list[AreaMovementPlayer] = Field(min_length=1, max_length=MAX_PLAYERS)
    ships: list[AreaMovementShip] = Field(default_factory=list, max_length=MAX_SHIPS)


# -- the steps of a movement plan -----------------------------------------------------------

class AreaMovementTokenSource(Frozen):
    """Tokens of the player in one area, named by a payment that destroys them."""

    area: AreaId
    count: Tokens


# The one spelling of "destroy my tokens in these areas" on a build and a maintenance
# alike: ``tokens``, a list of areas and counts. A maintenance's ``area`` is the spelling of
# API version 1.0 (ruleset version 1.0.0), still read, as one token in that area, through
# every 1.x version of the ruleset and removed in 2.0.0.
DEPRECATED_AREA = ("Use `tokens: [{area, count: 1}]`, as a build names the tokens it "
                   "destroys; `area` is read as that until ruleset version 2.0.0.")


def destroyed_tokens(max_length: int, way: str) -> list[AreaMovementTokenSource]:
    described: list[AreaMovementTokenSource] = Field(
        default_factory=list, max_length=max_length,
        description=f"For the {way} way only: the player's tokens destroyed to pay, by area "
        "(the one spelling of a payment that destroys tokens the player chooses, on a build "
        "and a maintenance alike).")
    return described


class AreaMovementBuildShip(Frozen):
    """Build a ship in a coastal area holding one of the player's tokens, paid one of three
    ways: ``treasury`` (2 treasury tokens), ``treasury_and_token`` (1 treasury token and 1 of
    the player's tokens destroyed in the ship's area, which the rules choose, so it is not
    named), ``tokens`` (2 of the player's tokens destroyed from the board, named in
    ``tokens``, at least 1 from the ship's area)."""

    type: Literal["build_ship"]
    ship: ShipId = Field(description="The new ship's id.")
    area: AreaId
    pay: Literal["treasury", "treasury_and_token", "tokens"]
    tokens: list[AreaMovementTokenSource] = destroyed_tokens(MAX_NEIGHBOURS, "``tokens``")


class AreaMovementMaintainShip(Frozen):
    """Maintain a ship built in an earlier turn: pay 1 treasury token (``treasury``), or
    destroy one of the player's tokens anywhere on the board (``token``), named in
    ``tokens`` as a build names the tokens it destroys: ``[{"area": ..., "count": 1}]``.
    The deprecated ``area`` (ruleset version 1.0.0) is still read as ``tokens: [{area,
    count: 1}]``; the service never writes it (null in its answers)."""

    type: Literal["maintain_ship"]
    ship: ShipId
    pay: Literal["treasury", "token"]
    tokens: list[AreaMovementTokenSource] = destroyed_tokens(MAX_NEIGHBOURS, "``token``")
    area: AreaId | None = Field(
        default=None, deprecated=DEPRECATED_AREA,
        description="Deprecated: the spelling of ruleset version 1.0.0 for `tokens: [{area, "
        "count: 1}]`, read as that until version 2.0.0; never with `tokens`.")

    @property
    def legacy_area(self) -> str | None:
        """The deprecated ``area`` as sent, read without the warning reading the field
        gives (the service reads it on purpose, to honour the old spelling)."""
        area: str | None = self.__dict__["area"]
        return area

    def destroys(self) -> list[AreaMovementTokenSource]:
        """The tokens the maintenance destroys, in the one spelling (``tokens``)."""
        legacy = self.legacy_area
        if legacy is not None and not self.tokens:
            return [AreaMovementTokenSource(area=legacy, count=1)]
        return list(self.tokens)


class AreaMovementMoveTokens(Frozen):
    """Tokens step by land to an adjacent area in play (a reading: never into an area out of
    play). More than the player holds in ``from_area`` at this moment of the plan is the
    verdict ``not_enough_tokens``; of those held, only tokens that have not moved this turn
    may move."""

    type: Literal["move_tokens"]
    from_area: AreaId
    to_area: AreaId
    count: Tokens


class AreaMovementStop(Frozen):
    """One area of a voyage: tokens disembark there, then tokens embark."""

    area: AreaId
    disembark: Count = 0
    embark: Count = 0


class AreaMovementSail(Frozen):
    """A ship's voyage: tokens embark in its area, then it moves area by area along ``path``
    (up to 4 areas by water); whoever is still aboard after the last area lands there."""

    type: Literal["sail"]
    ship: ShipId
    embark: Count = Field(default=0, description="Tokens embarking in the ship's area before "
                          "it leaves.")
    path: list[AreaMovementStop] = Field(min_length=1, max_length=MAX_PATH)


class AreaMovementDestroyShip(Frozen):
    type: Literal["destroy_ship"]
    ship: ShipId


class AreaMovementEndStep(Frozen):
    """The declaration that the player's movement has ended: the last step of a plan."""

    type: Literal["end_movement"]


AreaMovementAnyStep = (AreaMovementBuildShip | AreaMovementMaintainShip | AreaMovementMoveTokens
                       | AreaMovementSail | AreaMovementDestroyShip | AreaMovementEndStep)
AreaMovementStep = Annotated[AreaMovementAnyStep, Field(discriminator="type")]


# -- the actions ----------------------------------------------------------------------------

class AreaMovementPlan(Frozen):
    """A player's movement: the steps in the order they happen. Judged step by step from the
    state it is sent with; a plan of one step is a single step. An outcome lists first the
    violations refusing the plan as a whole (``at.step`` null: out_of_turn,
    movement_already_ended), then every violation of the first illegal step;
    ``derived.plan`` counts the first (``whole_plan_violations``) and names the step
    (``first_illegal_step``)."""

    type: Literal["movement"]
    player: PlayerId
    steps: list[AreaMovementStep] = Field(
        min_length=1, max_length=MAX_STEPS,
        description="The steps in the order they happen. A violation or event names its step "
        "by the 0-based index in this list (``at.step``: 0 is the first step); messages "
        "write it ``steps[i]``.")


class AreaMovementEndMovement(Frozen):
    """The declaration that the player's movement has ended, judged as the plan made of the
    one step ``end_movement``."""

    type: Literal["end_movement"]
    player: PlayerId


AreaMovementAnyAction = AreaMovementPlan | AreaMovementEndMovement


class AreaMovementAction(RootModel[Annotated[AreaMovementAnyAction,
                                             Field(discriminator="type")]]):
    pass



# -- answers ----------------------------------------------------------------------------
# One reason an area is in conflict (conflict.1), as ``conflicts.Cause.as_json`` writes
# it: in the params of ``conflict_caused`` and ``conflict_voided`` and in the conflicts
# query's answer.

class AreaMovementPopulationLimit(Frozen):
    """More tokens than the area's population limit, of two parties or more."""

    cause: Literal["population_limit"]
    limit: int
    tokens: int
    excess: int = Field(description="tokens - limit.")


class AreaMovementEnemyCity(Frozen):
    """Tokens in a city of another player (``owner``)."""

    cause: Literal["enemy_city"]
    owner: str


class AreaMovementPirateCity(Frozen):
    """Tokens in a pirate city."""

    cause: Literal["pirate_city"]


AreaMovementConflictCause = Annotated[
    AreaMovementPopulationLimit | AreaMovementEnemyCity | AreaMovementPirateCity,
    Field(discriminator="cause", title="AreaMovementConflictCause")]

"""The wire shapes of ``region_conquest``: the state (regions with their markers and Lost
Tribe tokens, players with their tokens in hand, on the board and in the storage tray,
whose turn it is and what has happened in it, the rng seed) and the four actions,
``conquer``, ``final_conquest``, ``redeploy`` and ``end_turn``. Pure data with bounds;
the consistency of a state (ids that must match, one race per region) is checked in
``board.py`` and the rules live in the other modules.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, RootModel

from arbiter.engine.wire import Count, Frozen, Id, Seed, Word

MAX_REGIONS = 10_000
MAX_PLAYERS = 16
MAX_NEIGHBOURS = 256
MAX_REDEPLOY_STEPS = 10_000

RegionId = Id
PlayerId = Id
# A region a player occupies holds at least one of their tokens; an empty region is simply
# left out of the map, so every state has exactly one spelling.
Tokens = Annotated[int, Field(ge=1, le=10_000)]


class RegionConquestOptions(Frozen):
    """Variants and house rules."""

    base_cost: Annotated[int, Field(ge=0, le=20)] = Field(
        default=2, description="Tokens every conquest takes before markers and defenders "
        "(2 in the published rules). The total never falls below 1.")


class RegionConquestRegion(Frozen):
    id: RegionId
    kind: Word = Field(description="Terrain: farmland, forest, hill, swamp, mountain, sea, "
                       "lake, … Seas and lakes cannot be conquered.")
    edge: bool = Field(default=False, description="The region touches the board's edge.")
    adjacent: list[RegionId] = Field(
        default_factory=list, max_length=MAX_NEIGHBOURS,
        description="The regions sharing a border with this one; every pair is listed from "
        "both ends.")
    markers: dict[Word, Count] = Field(
        default_factory=dict, max_length=16,
        description="Markers by kind with their counts: mountain, fortress, encampment, "
        "troll_lair add 1 each to the conquest cost; others (hole_in_the_ground, …) are data.")
    lost_tribe: Count = Field(default=0, description="Lost Tribe tokens in the region.")


class RegionConquestPlayer(Frozen):
    id: PlayerId
    hand: Count = Field(default=0, description="Active race tokens in hand, available to "
                        "conquer.")
    active: dict[RegionId, Tokens] = Field(
        default_factory=dict, max_length=MAX_REGIONS,
        description="Active race tokens on the board, by region.")
    in_decline: dict[RegionId, Tokens] = Field(
        default_factory=dict, max_length=MAX_REGIONS,
        description="In-decline race tokens on the board, by region (one per region).")
    awaiting_redeployment: Count = Field(
        default=0, description="Tokens taken back in hand after losing a region this turn; "
        "they are redeployed at the end of the current player's turn.")
    tray: Count = Field(default=0, description="This player's tokens discarded to the storage "
                        "tray during the game.")
    coins: Annotated[int, Field(ge=0, le=10**9)] = Field(default=0, description="Victory coins.")


class RegionConquestTurn(Frozen):
    """Whose turn it is and what has happened in it."""

    player: PlayerId
    conquered: list[RegionId] = Field(
        default_factory=list, max_length=MAX_REGIONS,
        description="The regions conquered this turn, in order.")
    reinforcement_used: bool = Field(
        default=False, description="The final conquest (reinforcement die) was made: the "
        "conquests for the turn are over.")
    redeployed: bool = Field(default=False, description="Troops were redeployed: only "
                             "end_turn remains.")


class RegionConquestState(Frozen):
    options: RegionConquestOptions = Field(default_factory=RegionConquestOptions)
    regions: list[RegionConquestRegion] = Field(min_length=1, max_length=MAX_REGIONS)
    players: list[RegionConquestPlayer] = Field(
        min_length=1, max_length=MAX_PLAYERS,
        description="In turn order: end_turn passes the turn to the next one.")
    turn: RegionConquestTurn
    rng: Seed | None = Field(
        default=None, description="Digital mode: the seed the service rolls the "
        "reinforcement die with; the advanced seed comes back in the new state.")


class RegionConquestConquer(Frozen):
    type: Literal["conquer"]
    player: PlayerId
    region: RegionId


class RegionConquestFinalConquest(Frozen):
    """The last conquest attempt of the turn, helped by the reinforcement die."""

    type: Literal["final_conquest"]
    player: PlayerId
    region: RegionId
    die: Annotated[int, Field(ge=0, le=3)] | None = Field(
        default=None, description="Table mode: the reinforcement die's result (its faces are "
        "0, 0, 0, 1, 2, 3). Digital mode: omit it; the service rolls with the state's rng.")


class RegionConquestMove(Frozen):
    """Active tokens moved between two regions the player occupies."""

    from_region: RegionId
    to_region: RegionId
    tokens: Tokens


class RegionConquestPlacement(Frozen):
    """Tokens from a player's hand put on a region their active race occupies: the active
    player's tokens left in hand, or a defeated player's tokens kept after losses."""

    player: PlayerId
    region: RegionId
    tokens: Tokens


class RegionConquestRedeploy(Frozen):
    type: Literal["redeploy"]
    player: PlayerId
    moves: list[RegionConquestMove] = Field(
        default_factory=list, max_length=MAX_REDEPLOY_STEPS,
        description="The active player's moves, applied in order.")
    placements: list[RegionConquestPlacement] = Field(
        default_factory=list, max_length=MAX_REDEPLOY_STEPS,
        description="Tokens from hand, applied after the moves: the active player's tokens "
        "left in hand and the defeated players' kept tokens, each naming its player. A "
        "violation's at.step counts the moves first, then the placements.")


class RegionConquestEndTurn(Frozen):
    type: Literal["end_turn"]
    player: PlayerId


# One action of the union, as ``judge`` takes it.
RegionConquestAnyAction = (RegionConquestConquer | RegionConquestFinalConquest
                           | RegionConquestRedeploy | RegionConquestEndTurn)


class RegionConquestAction(RootModel[Annotated[RegionConquestAnyAction,
                                               Field(discriminator="type")]]):
    pass

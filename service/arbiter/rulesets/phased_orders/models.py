"""The wire shapes of ``phased_orders``: the state (a hex map with roads, players with
their resource pool, gems and relations, units, caravans, strongholds and capitals, the
data the source names but does not define — unit types to commission, spells, leader
abilities — and the rng seed), the orders a player gives a unit or a stronghold, the
game master's decisions, and the two actions: ``resolve`` (a whole turn: every player's
orders, with the decisions and explicit combat results the turn needs) and ``submit``
(one player's orders, checked alone before the turn is resolved). Pure data with bounds;
the consistency of a state is checked in ``board.py``, of orders in ``orders.py``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, RootModel

from arbiter.engine.hexgrid import Axial
from arbiter.engine.wire import Count, Frozen, Id, Seed, Word

MAX_HEXES = 10_000
MAX_PLAYERS = 16
MAX_UNITS = 2_000
MAX_STRONGHOLDS = 1_000
MAX_CATALOGUE = 64
MAX_PATH = 20
MAX_ORDERS = 4_000
MAX_DECISIONS = 4_000

# Owners that are no player: bandits and uncontrolled undead. No player may take these ids.
BANDITS = "bandits"
UNDEAD = "undead"
RESERVED_OWNERS = frozenset({BANDITS, UNDEAD})
# The separators of the decision ids (``archer:<archer>:<flyer>``; ``+`` joined the units
# of the ejection ids before they counted ejections, and stays reserved): a unit id holding
# one would make two decisions share an id (the archer a flown over by b:c and the archer
# a:b flown over by c both give archer:a:b:c), so a unit id with one is malformed (422).
UNIT_ID_FORBIDDEN = (":", "+")
UNIT_ID_RULE = ("A unit id may not contain ':' or '+', the separators of the decision ids "
                "(archer:<archer>:<flyer>; '+' is reserved), so every "
                "decision has an id of its own; one that does is malformed (422 at the id).")

Coord = Annotated[int, Field(ge=-10_000, le=10_000)]
Move = Annotated[int, Field(ge=0, le=MAX_PATH)]
Range = Annotated[int, Field(ge=0, le=MAX_PATH)]
# Every unit on the board has at least 1 hit point (a unit at 0 is destroyed) and deals at
# least 1 point of damage a combat round, so every melee ends.
HitPoints = Annotated[int, Field(ge=1, le=1_000)]
Strength = Annotated[int, Field(ge=1, le=1_000)]
Gain = Annotated[int, Field(ge=0, le=1_000)]
DecisionId = Annotated[str, Field(min_length=1, max_length=200)]
Stance = Literal["allied", "war"]


class PhasedOrdersOptions(Frozen):
    """The numbers the source gives, as options a table may change (house rules)."""

    upkeep: Annotated[int, Field(ge=0, le=100)] = Field(
        default=1, description="Resources each unit without free upkeep (caravans included) "
        "costs its player's pool in phase 4. In phase 5 a player who could not pay it all "
        "loses the unpaid resources divided by the upkeep, rounded up, in armies (units "
        "without free upkeep that are not caravans), drawn from the seed: with upkeep 1 as "
        "many armies as resources unpaid; with upkeep 2, 3 unpaid resources starve 2 "
        "armies.")
    stronghold_income: Annotated[int, Field(ge=0, le=1_000)] = Field(
        default=3, description="Resources a stronghold generates in phase 19.")
    capital_income: Annotated[int, Field(ge=0, le=1_000)] = Field(
        default=4, description="Resources a capital generates in phase 19.")
    repair_durability: Annotated[int, Field(ge=0, le=100)] = Field(
        default=5, description="The durability a caravan's repair order resets it to.")
    recuperation: Annotated[int, Field(ge=0, le=1_000)] = Field(
        default=1, description="Hit points a unit ordered to hold recovers in phase 13 "
        "(recuperation), never above its maximum.")
    commission_paid_from: Literal["stronghold", "player"] = Field(
        default="stronghold", description="Who pays a commissioned unit in phase 6: by "
        "default the stronghold ordered to produce it, from its own resources; 'player': the "
        "player's resource pool (the source says players pay; the resources a stronghold "
        "stores are its player's).")


class PhasedOrdersHex(Frozen):
    q: Coord
    r: Coord
    road: bool = Field(default=False, description="A road hex: entering it gives the unit "
                       "a priority movement subphase.")


class PhasedOrdersPlayer(Frozen):
    id: Id
    resources: Count = Field(default=0, description="The player's resource pool, which pays "
                             "the upkeep.")
    gems: Count = Field(default=0, description="Gems, spent on spells.")
    relations: dict[Id, Stance] = Field(
        default_factory=dict, max_length=MAX_PLAYERS,
        description="Allied or at war, by other player; a player not listed is neither. "
        "Listed from both ends alike. An enemy is a player at war (and bandits and "
        "uncontrolled undead, at war with every owner): units pass through the hexes of "
        "units that are not enemies, ranged attacks and damaging spells target only "
        "enemies; units of players who are neither may raise an emergency communique, and "
        "meeting in melee puts them at war.")


class PhasedOrdersCaravan(Frozen):
    durability: Annotated[int, Field(ge=0, le=100)] = Field(
        description="Rot & Ruin points left: each turn takes one, then a resource once none "
        "is left.")
    resources: Count = Field(default=0, description="Resources carried.")


class PhasedOrdersUnit(Frozen):
    id: Id = Field(description=UNIT_ID_RULE)
    owner: Id = Field(description="A player's id, or 'bandits', or 'undead' for "
                      "uncontrolled undead. An army that starves becomes a bandit with "
                      "the same id, owner 'bandits'.")
    type: Word
    hex: Axial
    move: Move
    flying: bool = False
    archer: bool = False
    range: Range = Field(default=0, description="How far (in hexes) its ranged attack "
                         "reaches; archers only.")
    hit_points: HitPoints
    max_hit_points: HitPoints
    strength: Strength
    level: Annotated[int, Field(ge=0, le=1_000)] = 0
    free_upkeep: bool = False
    undead: bool = Field(default=False, description="An undead unit (controlled when a "
                         "player owns it); uncontrolled undead prey on every other unit.")
    caravan: PhasedOrdersCaravan | None = Field(default=None, description="Set on caravans.")
    spells: list[Id] = Field(default_factory=list, max_length=MAX_CATALOGUE,
                             description="The spells it can cast (ids of state.spells).")
    abilities: list[Id] = Field(default_factory=list, max_length=MAX_CATALOGUE,
                                description="Its leader abilities (ids of state.abilities).")


class PhasedOrdersStronghold(Frozen):
    id: Id
    owner: Id
    hex: Axial
    capital: bool = False
    resources: Count = 0
    maximum: Count = Field(description="Resources above it are donated in phase 17.")


class PhasedOrdersUnitType(Frozen):
    """A unit a stronghold can be ordered to produce, with its cost."""

    id: Word
    cost: Count
    move: Move
    flying: bool = False
    archer: bool = False
    range: Range = 0
    hit_points: HitPoints
    strength: Strength
    free_upkeep: bool = False
    undead: bool = False


class PhasedOrdersSpell(Frozen):
    """A spell as data: its gem cost, range and one effect of the documented set."""

    id: Id
    gems: Count
    range: Range = 0
    effect: Literal["damage", "heal"]
    amount: Annotated[int, Field(ge=1, le=1_000)]


class PhasedOrdersAbility(Frozen):
    """A leader ability as data (Scavenging, Stargazing, ...): one effect of the documented
    set. ``report`` changes nothing: the game master reads it in the trace."""

    id: Id
    effect: Literal["gain_resources", "gain_gems", "heal", "report"]
    amount: Count = 0
    range: Range = 0


class PhasedOrdersState(Frozen):
    """One turn's starting position. One unit per hex: a state with two units on one hex
    (or two strongholds) is malformed (422), and no turn ends with two units on one hex.
    During the turn, units that share a hex are sorted out by the rules: allied units - a
    player's own, allied players', and bandits with bandits (one owner) - by ejection
    (phase 11) and, when that cannot separate them, by the game master's shunting (phase
    18); enemies by melee (phase 12); a commissioned unit that appears on an occupied
    stronghold, or a bandit spawned on a hex held only by bandits or uncontrolled undead,
    by the shunting of phase 18."""

    options: PhasedOrdersOptions = Field(default_factory=PhasedOrdersOptions)
    hexes: list[PhasedOrdersHex] = Field(min_length=1, max_length=MAX_HEXES)
    players: list[PhasedOrdersPlayer] = Field(min_length=1, max_length=MAX_PLAYERS)
    units: list[PhasedOrdersUnit] = Field(
        default_factory=list, max_length=MAX_UNITS,
        description="Every unit on the board, at most one on a hex.")
    strongholds: list[PhasedOrdersStronghold] = Field(default_factory=list,
                                                      max_length=MAX_STRONGHOLDS)
    unit_types: list[PhasedOrdersUnitType] = Field(default_factory=list,
                                                   max_length=MAX_CATALOGUE)
    spells: list[PhasedOrdersSpell] = Field(default_factory=list, max_length=MAX_CATALOGUE)
    abilities: list[PhasedOrdersAbility] = Field(default_factory=list,
                                                 max_length=MAX_CATALOGUE)
    rng: Seed = Field(default=0, description="The seed of every random draw (starvation, "
                      "bandit spawn hexes, the striking order of a melee round that would "
                      "otherwise fell every side: combat.4); the advanced seed comes back in "
                      "the new state.")


# -- orders ---------------------------------------------------------------------------------

class PhasedOrdersHold(Frozen):
    order: Literal["hold"]
    player: Id
    unit: Id


class PhasedOrdersDisband(Frozen):
    order: Literal["disband"]
    player: Id
    unit: Id


class PhasedOrdersMove(Frozen):
    order: Literal["move"]
    player: Id
    unit: Id
    path: list[Axial] = Field(min_length=1, max_length=MAX_PATH,
                              description="The hexes entered, in order, the first adjacent "
                              "to the unit's hex.")


class PhasedOrdersRangedAttack(Frozen):
    order: Literal["ranged_attack"]
    player: Id
    unit: Id
    target: Id
    damage: Annotated[int, Field(ge=0, le=1_000)] | None = Field(
        default=None, description="Table mode: the damage dealt, as rolled at the table; "
        "the default is the archer's strength.")


class PhasedOrdersCast(Frozen):
    order: Literal["cast"]
    player: Id
    unit: Id
    spell: Id
    target: Id


class PhasedOrdersUseAbility(Frozen):
    order: Literal["ability"]
    player: Id
    unit: Id
    ability: Id
    target: Id | None = Field(default=None, description="The unit a heal is for; the user "
                              "itself when omitted.")


class PhasedOrdersLoad(Frozen):
    order: Literal["load"]
    player: Id
    unit: Id
    amount: Annotated[int, Field(ge=1, le=10_000)]


class PhasedOrdersUnload(Frozen):
    order: Literal["unload"]
    player: Id
    unit: Id
    amount: Annotated[int, Field(ge=1, le=10_000)]


class PhasedOrdersRepair(Frozen):
    order: Literal["repair"]
    player: Id
    unit: Id


class PhasedOrdersCommission(Frozen):
    """A stronghold ordered to produce a unit of ``unit_type``: paid in phase 6 - by default
    from the stronghold's own resources, from the player's pool with the option
    ``commission_paid_from: player`` - and appearing on the stronghold's hex in phase 15."""

    order: Literal["commission"]
    player: Id
    stronghold: Id
    unit_type: Word
    new_unit: Id = Field(description="The id the new unit will have. " + UNIT_ID_RULE)


class PhasedOrdersChangeSides(Frozen):
    order: Literal["change_sides"]
    player: Id
    unit: Id
    to: Id = Field(description="The player the unit goes over to.")


PhasedOrdersAnyOrder = (PhasedOrdersHold | PhasedOrdersDisband | PhasedOrdersMove
                        | PhasedOrdersRangedAttack | PhasedOrdersCast | PhasedOrdersUseAbility
                        | PhasedOrdersLoad | PhasedOrdersUnload | PhasedOrdersRepair
                        | PhasedOrdersCommission | PhasedOrdersChangeSides)
PhasedOrdersOrder = Annotated[PhasedOrdersAnyOrder, Field(discriminator="order")]
UnitOrder = (PhasedOrdersHold | PhasedOrdersDisband | PhasedOrdersMove
             | PhasedOrdersRangedAttack | PhasedOrdersCast | PhasedOrdersUseAbility
             | PhasedOrdersLoad | PhasedOrdersUnload | PhasedOrdersRepair
             | PhasedOrdersChangeSides)


# -- decisions ------------------------------------------------------------------------------

Choice = Literal["halt", "proceed", "attack", "let_pass", "eject", "place", "disband"]


class PhasedOrdersOption(Frozen):
    """One answer a pending decision accepts. A decision is sent back as its id plus one of
    its options, copied as they are. By kind: a communique ``halt`` or ``proceed``; an
    archer's option ``attack`` or ``let_pass``; an ejection ``eject`` with the ``unit``
    ejected (one option per unit that can be ejected); a placement ``place`` with the
    ``hex`` (one per free hex of the nearest ring that has one), or ``disband``, offered
    only - and alone - when no hex within 20 is free. A question with a single option is
    not asked: that option is carried out."""

    choice: Choice
    unit: Id | None = None
    hex: Axial | None = None


class PhasedOrdersDecision(Frozen):
    """The answer to a pending decision: its id and one of its options."""

    id: DecisionId = Field(description="The decision's id, which a client may build "
                           "before the turn asks: communique:<q>,<r>:<player> (the player's "
                           "answer about the contested hex (q,r): halt or proceed), "
                           "archer:<archer>:<flyer> (attack or let_pass), ejection:<q>,<r>:<n> "
                           "(the n-th unit ejected from hex (q,r), from 1: eject one of the "
                           "stack) or placement:<unit> (place it on a hex, or disband it). An "
                           "answer no question of the turn takes is a 422 at this id.")
    choice: Choice
    unit: Id | None = Field(default=None, description="Ejection: the unit ejected.")
    hex: Axial | None = Field(default=None, description="Placement: the hex the unit goes to.")

    def option(self) -> PhasedOrdersOption:
        return PhasedOrdersOption(choice=self.choice, unit=self.unit, hex=self.hex)


class PhasedOrdersSurvivor(Frozen):
    unit: Id
    hit_points: HitPoints


class PhasedOrdersCombatResult(Frozen):
    """Table mode for one melee: the units left standing and their hit points - at least
    one, all of one side, as combat continues until only one remains; every other unit in
    the hex is destroyed. A result that cannot be is a combat_result_invalid violation."""

    hex: Axial
    survivors: list[PhasedOrdersSurvivor] = Field(default_factory=list,
                                                  max_length=MAX_UNITS)


class PhasedOrdersLevelUp(Frozen):
    """A unit the game master levels up in phase 18, and what the level gives it."""

    unit: Id
    strength: Gain = 0
    max_hit_points: Gain = Field(default=0, description="Added to both its maximum and its "
                                 "current hit points.")


# -- actions --------------------------------------------------------------------------------

class PhasedOrdersResolve(Frozen):
    """A whole turn: every player's orders, resolved through phases 1-19."""

    type: Literal["resolve"]
    orders: list[PhasedOrdersOrder] = Field(default_factory=list, max_length=MAX_ORDERS)
    decisions: list[PhasedOrdersDecision] = Field(
        default_factory=list, max_length=MAX_DECISIONS,
        description="Answers to the pending decisions of an earlier answer.")
    combat_results: list[PhasedOrdersCombatResult] = Field(
        default_factory=list, max_length=MAX_HEXES,
        description="Explicit melee results by hex; the default arithmetic elsewhere.")
    level_ups: list[PhasedOrdersLevelUp] = Field(default_factory=list, max_length=MAX_UNITS)
    unanswered_communiques: Literal["pending", "follow_orders"] = Field(
        default="pending", description="An emergency communique without a decision: stop "
        "and return it as pending, or follow the original orders (every unit proceeds), as "
        "the game master must when the players cannot be reached.")


class PhasedOrdersSubmit(Frozen):
    """One player's orders, checked alone; the state is unchanged (a turn is resolved by
    ``resolve``)."""

    type: Literal["submit"]
    player: Id
    orders: list[PhasedOrdersOrder] = Field(default_factory=list, max_length=MAX_ORDERS)


PhasedOrdersAnyAction = PhasedOrdersResolve | PhasedOrdersSubmit


class PhasedOrdersAction(RootModel[Annotated[PhasedOrdersAnyAction,
                                             Field(discriminator="type")]]):
    pass

"""The rule ids of ``phased_orders`` with their paraphrases, every violation code with the
rule it enforces and its message template, every event kind of the turn's trace, the
result codes an order can end with, and the game's fixed data (phase names, decision
kinds, the documented effects of spells and abilities).

Rule ids follow ``../shared/rules/phased_orders.md``: ``phased_orders/<phase>.<n>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired

from pydantic import BaseModel

from arbiter.engine.catalogue import Entry, build_catalogue, params_model_of, placeholders
from arbiter.engine.hexgrid import Axial
from arbiter.engine.wire import Seed

from .models import PhasedOrdersOption, PhasedOrdersUnit

RULESET_ID = "phased_orders"

PHASE_NAMES: dict[int, str] = {
    0: "emergency communique", 1: "orders", 2: "disband", 3: "rot & ruin", 4: "upkeep",
    5: "starvation", 6: "commission", 7: "spells and ranged attacks", 8: "abilities",
    9: "caravan orders", 10: "movement", 11: "logistics", 12: "combat", 13: "healing",
    14: "repairing", 15: "new units", 16: "bandits", 17: "excess", 18: "finishing",
    19: "natural income",
}
# Movement subphases by the movement a unit has left; more than 4 steps in "3a".
SUBPHASE_BY_REMAINING: dict[int, str] = {4: "3b", 3: "3c", 2: "3d", 1: "3e"}
FAST = "3a"
FAST_ABOVE = 4
PREDATION = "10b"

RULES: list[tuple[str, str]] = [
    ("orders.1", "Phase 1: players give one order to each of their units and strongholds; a "
                 "unit or stronghold without an order does nothing."),
    ("orders.2", "An order whose unit, or whose target, was disbanded or destroyed in an "
                 "earlier phase is not carried out."),
    ("disband.1", "Phase 2: units ordered to disband disband."),
    ("rot.1", "Phase 3: each caravan suffers one point of Rot & Ruin damage, taken from its "
              "durability."),
    ("rot.2", "A caravan with no durability left loses 1 resource instead."),
    ("rot.3", "A caravan with neither durability nor resources left is disbanded."),
    ("upkeep.1", "Phase 4: each unit without free upkeep costs its player 1 resource, charged "
                 "to the player's pool, which pays what it holds (down to 0)."),
    ("starvation.1", "Phase 5: for upkeep left unpaid, as many of the player's armies are "
                     "disbanded, chosen at random from the seed: the unpaid resources "
                     "divided by the upkeep per unit, rounded up (with the default upkeep of "
                     "1, the unpaid amount; with upkeep 2, 3 unpaid starve 2), at most all "
                     "its armies. Armies are its units that cost upkeep and are not "
                     "caravans."),
    ("starvation.2", "Armies disbanded by starvation become bandits, created in phase 16."),
    ("commission.1", "Phase 6: a stronghold ordered to produce a unit pays its cost, from its "
                     "own resources by default (the option commission_paid_from: player "
                     "makes it the player's pool); a payer short of the whole cost pays "
                     "nothing and the stronghold produces nothing."),
    ("ranged.1", "Phase 7: ranged attacks and damaging spells trigger, all at once; a unit "
                 "left without hit points is destroyed."),
    ("ranged.2", "A player must have enough gems to complete a spell before casting it; "
                 "casting spends them."),
    ("ranged.3", "A ranged attack is an archer's, at an enemy unit within its range, and "
                 "deals its strength unless the order gives the damage; a spell is cast by a "
                 "unit that knows it at a unit within the spell's range, a damaging spell at "
                 "an enemy."),
    ("abilities.1", "Phase 8: leader abilities take place, from the documented set (gain "
                    "resources, gain gems, heal - applied in phase 13 - or report); a unit "
                    "uses only its own abilities, a heal within the ability's range."),
    ("caravan.1", "Phase 9: caravans load and unload resources at a stronghold of their owner "
                  "on their hex; only caravans take caravan orders (load, unload, repair)."),
    ("movement.1", "Phase 10: units move along their ordered path, each hex adjacent to the "
                   "last, at most their move in steps; flying included."),
    ("movement.2", "Movement subphases by the movement a unit has left: more than 4, it steps "
                   "until 4 are left (3a); then units with 4, 3, 2 and 1 left step once each "
                   "(3b, 3c, 3d, 3e)."),
    ("movement.3", "A unit that enters a road hex in subphase X takes its next step in an "
                   "X-priority subphase, before the next regular subphase. X is the regular "
                   "subphase (3a-3e): a unit that enters another road hex in X-priority "
                   "steps again in a new X-priority subphase (so a chain of road hexes "
                   "reads 3b, 3b-priority, 3b-priority, ... in the trace), still before the "
                   "next regular subphase. 3a steps in rounds (one step each while more "
                   "than 4 are left): a road hex entered in a 3a round gives a 3a-priority "
                   "subphase before the next 3a round (3a, 3a-priority, 3a, 3b)."),
    ("movement.4", "Units move into and through hexes held by non-enemy units; a ground unit "
                   "entering a hex held by an enemy halts there. The halt is the mover's: a "
                   "unit whose hex an enemy enters keeps its own order and may leave in its "
                   "own later subphase, and no melee is fought then - melee is for units "
                   "sharing a hex \"at the end of the movement phase\" (combat.1)."),
    ("movement.5", "Flying units fly over non-archer ground units; a flying unit entering a "
                   "hex held by an enemy flying unit halts there."),
    ("movement.6", "An enemy archer flown over may attack the flying unit, halting it in the "
                   "archer's hex."),
    ("communique.1", "Units of players neither allied nor at war moving into the same hex in "
                     "the same subphase, where both paths end, raise an emergency communique, "
                     "asked per contested hex of each player involved (the decision "
                     "communique:<q>,<r>:<player>): its units there halt adjacent to the "
                     "contested hex or proceed. A player's answer about a hex holds for the "
                     "whole turn. That is the "
                     "whole condition, so it is raised even when the hex already holds a unit "
                     "of one of those players; a unit that proceeds onto its own player's (or "
                     "an ally's) unit is then ejected in phase 11."),
    ("communique.2", "If the communique ends in combat (units of more than one player "
                     "proceed), war is declared immediately."),
    ("communique.3", "When the players cannot be reached, the original orders are followed: "
                     "every unit proceeds (when the request says so: unanswered_communiques "
                     "follow_orders, which answers every communique the request does not, so "
                     "a game master resolves the turn in one round, with the other decisions "
                     "built ahead from their ids)."),
    ("predation.1", "Phase 10b: bandits within movement range of a caravan, and uncontrolled "
                    "undead within movement range of any non-undead unit, move to attack it "
                    "(the nearest, in steps). A predator with move 0 has no movement range. "
                    "The range is counted along routes that reach the prey: through its own "
                    "kind, never through a hex where it would certainly halt (for a ground "
                    "predator a unit it is at war with, for a flying one an enemy flying "
                    "unit), so it detours round such hexes or stays. A flying predator flies "
                    "over ground units, archers included; each archer flown over has the "
                    "option to attack it (the decision archer:<archer>:<flyer>, movement.6), "
                    "halting it on the archer's hex."),
    ("logistics.1", "Phase 11: two allied units on one hex: one is ejected one hex back along "
                    "its own path, and again while it shares a hex with an ally."),
    ("logistics.2", "The allied players choose which unit is ejected (the decision "
                    "ejection:<q>,<r>:<n>, the n-th unit ejected from hex (q,r), from 1); with "
                    "one unit that can be ejected there is no "
                    "choice and it is ejected without a decision. The choice is made once, on "
                    "the hex where the stack first forms: the unit chosen then goes back as "
                    "often as needed, with no new choice on the hexes it lands on."),
    ("combat.1", "Phase 12: units of different sides sharing a hex after logistics fight "
                 "melee until exactly one side remains: a melee never leaves the hex empty."),
    ("combat.2", "Default melee: rounds in which each side deals its total strength to the "
                 "enemy units, weakest first, all at once (but see combat.4); explicit "
                 "results in the request replace it, survivors of exactly one side. Weakest "
                 "first: the enemy unit with the fewest hit points (then by id) takes damage "
                 "up to its hit points, and the rest spills over to the next weakest."),
    ("combat.3", "Melee between players not at war declares war between them."),
    ("combat.4", "Blows landing at once could fell the last units of every side together, "
                 "which \"Combat continues until only one remains\" rules out: such a round "
                 "is struck in turn instead, and the melee ends the moment one side is left "
                 "(a unit at 0 hit points falls at once and does not strike back). The sides "
                 "that moved in (every unit of theirs on the hex came to it this turn: the "
                 "attackers) strike before the sides that held the hex, as the text makes "
                 "entering an enemy's hex the attack (a ground unit halts there, bandits "
                 "move to attack). Sides alike in this (both moved in, or both held it) "
                 "strike in an order drawn from the seed, where the Reading takes randomness "
                 "from, so no unit id or place in the request decides it. Only such a round "
                 "draws; combat_won then gives the striking_order and, after a draw, the "
                 "seed (rng)."),
    ("healing.1", "Phase 13: all healing, including recuperation (a unit ordered to hold) and "
                  "healing abilities, never above the unit's maximum."),
    ("healing.2", "Healing caused by a spell happens in phase 2."),
    ("repair.1", "Phase 14: caravans ordered to repair reset their durability to 5."),
    ("new_units.1", "Phase 15: commissioned units appear on their stronghold's hex."),
    ("bandits.1", "Phase 16: units that became bandits are created on the hex where they "
                  "were disbanded."),
    ("bandits.2", "Bandits cannot spawn in a hex occupied by a player's unit (bandits are no "
                  "player, so every player is another): they do not spawn. A hex held only "
                  "by bandits or uncontrolled undead does not block them; sharing it is an "
                  "illegal position, shunted in phase 18."),
    ("bandits.3", "A bandit that would spawn on a stronghold spawns in a random legal "
                  "unoccupied adjacent hex instead, or not at all."),
    ("excess.1", "Phase 17: strongholds and capitals with more than their maximum resources "
                 "donate the excess to charity."),
    ("finishing.1", "Phase 18: units in an illegal position (sharing a hex: one unit per hex) "
                    "are shunted at the game master's discretion (the decision "
                    "placement:<unit>): the one that came last gives way, to a free hex of the "
                    "nearest ring that has one; disbanding is offered only when no hex within "
                    "20 is free. A single option is carried out without a decision."),
    ("finishing.2", "Units level up, as the request says, with the gains it gives."),
    ("finishing.3", "Units ordered to change sides do so."),
    ("income.1", "Phase 19: strongholds generate 3 resources, capitals 4."),
    ("decisions.1", "Where the rules leave a choice to the players or the game master, the "
                    "request carries the decision, one of the options offered; without it "
                    "the turn stops there and returns the pending decisions. A question with "
                    "a single option is no choice and is not asked. Every answer that is not "
                    "one of its options is reported, with every decision still missing at "
                    "that point. Every question knowable there is asked at once: those of "
                    "the point where the turn stops, and those of the next point it would "
                    "stop at that come the same whatever the answers to the first (asked "
                    "with them, each with its own phase; the turn is resolved again under "
                    "each combination of the first answers, at most 16 of them and at most "
                    "4,000 units times combinations, beyond which only the stop's own "
                    "questions are asked). A question that depends on an "
                    "answer not given cannot be known ahead and waits for the next round: "
                    "whether a unit reaches a hex (an ejection or an archer's option there "
                    "after a communique it may halt at), the hexes a placement offers (left "
                    "free by the placements before it, so they are asked one at a time), a "
                    "question two stops ahead. Decision ids are built from hexes, player ids "
                    "and unit ids the orders and the state name (decision_ids), so a request "
                    "may answer a question before it is asked; a unit id may hold neither "
                    "':' nor '+' (a 422 at the id): every decision has an id of its own. An "
                    "answer no question of the turn can take is refused, a 422 at its id: an "
                    "id of no form above or naming what the state does not hold, or one the "
                    "turn went past without asking (after the turn resolves, every answer "
                    "left unused; once it stopped in logistics or later, communiques and "
                    "archers' options; in finishing, ejections too)."),
]

CODES: list[Entry] = [
    ("path_too_long", "movement.1",
     "the path of {unit} has {steps} steps; its move is {move}"),
    ("not_an_archer", "ranged.3", "{unit} is no archer: only archers make ranged attacks"),
    ("target_out_of_range", "ranged.3",
     "{target} is {distance} hexes from {unit}; the reach is {range}"),
    ("target_not_enemy", "ranged.3",
     "{target} belongs to {owner}, who is not at war with {player}"),
    ("spell_not_known", "ranged.3", "{unit} does not know the spell {spell}"),
    ("not_enough_gems", "ranged.2", "{spell} costs {cost} gems; {player} holds {gems}"),
    ("ability_not_held", "abilities.1", "{unit} does not have the ability {ability}"),
    ("ability_target_out_of_range", "abilities.1",
     "{target} is {distance} hexes from {unit}; {ability} reaches {range}"),
    ("not_a_caravan", "caravan.1", "{unit} is not a caravan: only caravans {order}"),
    ("no_own_stronghold", "caravan.1",
     "no stronghold of {player} stands on {hex}, where {unit} is"),
    ("decision_not_an_option", "decisions.1",
     "decision {decision}: the answer given is not one of its options",
     {"options": list[PhasedOrdersOption]}),
    ("combat_result_invalid", "combat.2", "the combat result for {hex}: {reason}"),
]

# The questions a turn asks where the rules leave a choice (decisions.py): not violations -
# a turn waiting for an answer breaks no rule (its status is "pending") - but each with
# the rule that asks it and the English template of its question, filled from its params.
QUESTIONS: list[tuple[str, str, str]] = [
    ("communique", "communique.1",
     "emergency communique {decision}: {units} contest {hex}; {player} may halt {own} "
     "beside it or proceed"),
    ("archer", "movement.6",
     "decision {decision}: archer {archer} may attack {unit} flying over {hex}"),
    ("ejection", "logistics.2", "decision {decision}: which of {units} on {hex} is ejected"),
    ("placement", "finishing.1",
     "decision {decision}: where {unit}, in an illegal position on {hex}, is shunted"),
]

EVENTS: list[Entry] = [
    ("orders_received", "orders.1", "{player} gave {orders} order(s)"),
    ("unit_disbanded", "disband.1", "{unit} disbands on {hex}"),
    ("spell_healed", "healing.2",
     "{unit} casts {spell} on {target}: {hit_points} hit points; {player} has {gems} gems left"),
    ("caravan_rotted", "rot.1", "{unit} suffers Rot & Ruin: durability {durability}"),
    ("caravan_lost_resource", "rot.2",
     "{unit} has no durability left and loses a resource: {resources} left"),
    ("caravan_disbanded", "rot.3",
     "{unit} has neither durability nor resources left and is disbanded", {"hex": Axial}),
    ("upkeep_charged", "upkeep.1",
     "{player} owes {charge} upkeep and pays {paid}: {resources} left", {"unpaid": int}),
    ("unit_starved", "starvation.1",
     "{unit} of {player} starves on {hex} and is disbanded; it will become a bandit",
     {"rng": Seed}),
    ("unit_commissioned", "commission.1",
     "{stronghold} pays {cost} for {unit} ({unit_type}): {resources} left to {payer}",
     {"paid_from": str}),
    ("spell_cast", "ranged.2", "{unit} casts {spell} on {target}; {player} has {gems} gems left"),
    ("ranged_attack", "ranged.3", "{unit} shoots {target} for {damage}"),
    ("unit_damaged", "ranged.1", "{unit} is down to {hit_points} hit points"),
    ("unit_destroyed", "ranged.1", "{unit} is destroyed on {hex}"),
    ("ability_used", "abilities.1", "{unit} uses {ability} ({effect})"),
    ("resources_gained", "abilities.1", "{player} gains {amount} resources: {resources}"),
    ("gems_gained", "abilities.1", "{player} gains {amount} gems: {gems}"),
    ("caravan_loaded", "caravan.1",
     "{unit} loads {amount} from {stronghold}: it carries {carried}, {stored} stay there"),
    ("caravan_unloaded", "caravan.1",
     "{unit} unloads {amount} at {stronghold}: it carries {carried}, {stored} stored there"),
    ("unit_moved", "movement.1", "{unit} moves from {from} to {to} ({subphase})",
     {"remaining": int}),
    ("road_priority", "movement.3",
     "{unit} entered the road on {hex}: its next step comes in {next}", {"subphase": str}),
    ("halted_by_enemy", "movement.4", "{unit} halts on {hex}: an enemy holds it",
     {"subphase": str}),
    ("halted_by_enemy_flyer", "movement.5",
     "{unit} halts on {hex}: an enemy flying unit holds it", {"subphase": str}),
    ("flew_over", "movement.5", "{unit} flies over {units} on {hex}", {"subphase": str}),
    ("archer_attacked", "movement.6",
     "archer {archer} attacks {unit} flying over {hex}: it halts there", {"subphase": str}),
    ("archer_let_pass", "movement.6", "archer {archer} lets {unit} fly over {hex}",
     {"subphase": str}),
    ("communique_raised", "communique.1", "emergency communique: {units} contest {hex}",
     {"interrupts": int, "subphase": str, "players": list[str]}),
    ("communique_answered", "communique.1", "{unit} answers the communique: {choice}",
     {"contested": Axial, "followed_orders": bool, "interrupts": int, "subphase": str}),
    ("war_declared", "communique.2", "war is declared between {players}",
     {"hex": Axial, "interrupts": int, "subphase": str}),
    ("predator_moved", "predation.1", "{unit} moves from {from} to {to} to attack {target}",
     {"subphase": str}),
    ("unit_ejected", "logistics.1", "{unit} is ejected from {from} back to {to}"),
    ("combat_began", "combat.1", "melee on {hex} between {units}", {"sides": list[list[str]]}),
    ("melee_declares_war", "combat.3", "melee on {hex}: war is declared between {players}"),
    ("melee_damage", "combat.2", "{unit} is down to {hit_points} hit points"),
    ("unit_slain", "combat.1", "{unit} is slain on {hex}"),
    ("combat_won", "combat.1", "{hex} is held by {winners} after {rounds} round(s)",
     {"table": bool, "striking_order": NotRequired[list[list[str]]],
      "rng": NotRequired[Seed]}),
    ("unit_healed", "healing.1", "{unit} heals {amount}: {hit_points} hit points",
     {"source": str}),
    ("caravan_repaired", "repair.1", "{unit} is repaired: durability {durability}"),
    ("unit_created", "new_units.1", "{unit} appears on {hex}", {"data": PhasedOrdersUnit}),
    ("bandit_spawned", "bandits.1", "{unit} appears as a bandit on {hex}",
     {"data": PhasedOrdersUnit}),
    ("bandit_blocked", "bandits.2",
     "{unit} cannot spawn on {hex}: it is occupied by {players}"),
    ("bandit_spawned_adjacent", "bandits.3",
     "{unit} would spawn on stronghold {stronghold}: it appears on {hex} instead",
     {"rng": NotRequired[Seed], "data": PhasedOrdersUnit}),
    ("bandit_no_room", "bandits.3",
     "{unit} would spawn on stronghold {stronghold}, which has no free legal hex beside it"),
    ("excess_donated", "excess.1",
     "{stronghold} donates {excess} resources to charity: {resources} left"),
    ("unit_shunted", "finishing.1", "{unit} is shunted from {from} to {to}"),
    ("unit_dismissed", "finishing.1", "{unit} has no legal position left and is disbanded",
     {"hex": Axial}),
    ("unit_levelled", "finishing.2", "{unit} rises to level {level}",
     {"strength": int, "max_hit_points": int, "hit_points": int}),
    ("level_up_lapsed", "finishing.2", "{unit} is gone: it does not level up"),
    ("unit_changed_sides", "finishing.3", "{unit} goes over from {from} to {to}",
     {"to": str, "from": str}),
    ("income_generated", "income.1", "{stronghold} generates {amount}: {resources}"),
]

# Every event of the turn's trace carries the phase that made it (trace.py ``event``; a
# movement event its subphase too, a communique the phase it interrupts).
EVENTS = [(kind, section, template, {"phase": int, **(own[0] if own else {})})
          for kind, section, template, *own in EVENTS]

Status = Literal["carried_out", "partly_carried_out", "failed"]


@dataclass(frozen=True, slots=True)
class ResultRef:
    """What an order can end with: a code, the rule it cites, whether the order was carried
    out, the English template of the result's message and the types of its params."""

    code: str
    rule: str
    status: Status
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)


# Result codes of their own; an order refused by a violation ends "failed" with the
# violation's code, rule and message.
ResultEntry = tuple[str, str, Status, str] | tuple[str, str, Status, str, dict[str, Any]]
RESULTS: list[ResultEntry] = [
    ("held", "orders.1", "carried_out", "{unit} held its position"),
    ("disbanded", "disband.1", "carried_out", "{unit} disbanded"),
    ("moved", "movement.1", "carried_out", "{unit} moved {steps} of {ordered} steps to {hex}"),
    ("halted_by_enemy", "movement.4", "partly_carried_out",
     "{unit} halted on {hex} after {steps} of {ordered} steps: an enemy holds it"),
    ("halted_by_enemy_flyer", "movement.5", "partly_carried_out",
     "{unit} halted on {hex} after {steps} of {ordered} steps: an enemy flying unit holds it"),
    ("halted_by_archer", "movement.6", "partly_carried_out",
     "{unit} halted on {hex} after {steps} of {ordered} steps: archer {archer} attacked it"),
    ("halted_by_communique", "communique.1", "partly_carried_out",
     "{unit} halted on {hex} after {steps} of {ordered} steps, beside the contested {contested}"),
    ("ejected", "logistics.1", "partly_carried_out",
     "{unit} was ejected back to {hex}: {steps} of {ordered} steps kept"),
    ("attacked", "ranged.3", "carried_out", "{unit} dealt {damage} damage to {target}"),
    ("spell_cast", "ranged.1", "carried_out", "{unit} cast {spell} on {target}"),
    ("spell_healed", "healing.2", "carried_out", "{unit} cast {spell} on {target}"),
    ("gems_exhausted", "ranged.2", "failed",
     "{spell} costs {cost} gems; {player} had {gems} left when it came to be cast"),
    ("target_lost", "orders.2", "failed", "{target} was gone by phase {by_phase}"),
    ("unit_lost", "orders.2", "failed", "{unit} was lost in phase {lost_in} before its order"),
    ("ability_used", "abilities.1", "carried_out", "{unit} used {ability}"),
    ("loaded", "caravan.1", "carried_out", "{unit} loaded {amount} from {stronghold}",
     {"ordered": int}),
    ("load_short", "caravan.1", "partly_carried_out",
     "{unit} loaded {amount} of {ordered}: {stronghold} held no more"),
    ("unloaded", "caravan.1", "carried_out", "{unit} unloaded {amount} at {stronghold}",
     {"ordered": int}),
    ("unload_short", "caravan.1", "partly_carried_out",
     "{unit} unloaded {amount} of {ordered}: it carried no more", {"stronghold": str}),
    ("repaired", "repair.1", "carried_out", "{unit} was repaired to durability {durability}"),
    ("commissioned", "commission.1", "carried_out",
     "{stronghold} produced {unit} ({unit_type}) for {cost}"),
    ("cannot_afford", "commission.1", "failed",
     "{stronghold} cannot pay {cost} for a {unit_type}: {payer} holds {available}"),
    ("changed_sides", "finishing.3", "carried_out", "{unit} went over to {to}", {"to": str}),
]

# The type of each word a template fills (an entry may declare its own, and facts beside).
PARAM_TYPES: dict[str, Any] = {
    "ability": str,
    "amount": int,
    "archer": str,
    "carried": int,
    "charge": int,
    "choice": str,
    "cost": int,
    "damage": int,
    "decision": str,
    "distance": int,
    "durability": int,
    "effect": str,
    "excess": int,
    "from": Axial,
    "gems": int,
    "hex": Axial,
    "hit_points": int,
    "level": int,
    "move": int,
    "next": str,
    "order": str,
    "orders": int,
    "owner": str,
    "paid": int,
    "payer": str,
    "player": str,
    "players": list[str],
    "range": int,
    "reason": str,
    "resources": int,
    "rounds": int,
    "spell": str,
    "steps": int,
    "stored": int,
    "stronghold": str,
    "subphase": str,
    "target": str,
    "to": Axial,
    "unit": str,
    "unit_type": str,
    "units": list[str],
    "winners": list[str],
}


CATALOGUE = build_catalogue(
    RULESET_ID, "1.0.0",
    "Phased orders: one turn of simultaneous orders resolved through 19 phases, with a trace, "
    "a result for every order and the game master's decisions",
    rules=RULES, codes=CODES, events=EVENTS, param_types=PARAM_TYPES, data={
        "phases": {str(n): name for n, name in PHASE_NAMES.items()},
        "movement_subphases": ["3a", "3b", "3c", "3d", "3e"],
        "predation_subphase": PREDATION,
        "decision_kinds": {"communique": ["halt", "proceed"], "archer": ["attack", "let_pass"],
                           "ejection": ["eject"], "placement": ["place", "disband"]},
        # How each kind's decision id is formed (placement offers disband only when no hex
        # within 20 is free; a single option is applied without a decision). Unit ids hold
        # neither ':' nor '+' (board.check_unit_id), so no two decisions share an id.
        "decision_ids": {"communique": "communique:<q>,<r>:<player>",
                         "archer": "archer:<archer>:<flyer>",
                         "ejection": "ejection:<q>,<r>:<n>",
                         "placement": "placement:<unit>"},
        "questions": [{"kind": k, "rule": f"{RULESET_ID}/{r}", "template": t}
                      for k, r, t in QUESTIONS],
        "spell_effects": ["damage", "heal"],
        "ability_effects": ["gain_resources", "gain_gems", "heal", "report"],
        "owners_that_are_no_player": ["bandits", "undead"],
        "order_results": [
            {"code": c, "rule": f"{RULESET_ID}/{s}", "status": st, "template": t}
            for c, s, st, t, *_ in RESULTS],
    })


# The type of each word only result templates fill (the others: PARAM_TYPES).
RESULT_PARAM_TYPES: dict[str, Any] = {
    "ordered": int, "available": int, "by_phase": int, "lost_in": int, "contested": Axial,
}


def _result_refs() -> dict[str, ResultRef]:
    words = PARAM_TYPES | RESULT_PARAM_TYPES
    refs = {}
    for entry in RESULTS:
        code, section, status, template = entry[:4]
        mine: dict[str, Any] = entry[4] if len(entry) > 4 else {}
        typed = {w: mine.get(w, words.get(w)) for w in placeholders(template)} | mine
        untyped = [w for w, t in typed.items() if t is None]
        if untyped:
            raise ValueError(f"{RULESET_ID}: result {code}'s params {untyped} have no type")
        refs[code] = ResultRef(code, CATALOGUE.rule(section), status, template, typed)
    for code, ref in CATALOGUE.codes.items():
        if code in refs:
            raise ValueError(f"{RULESET_ID}: result code {code} is also a violation code")
        refs[code] = ResultRef(code, ref.rule, "failed", ref.template, ref.params)
    return refs


RESULT_REFS: dict[str, ResultRef] = _result_refs()
_RESULT_MODELS: dict[str, type[BaseModel]] = {}


def result_params_models() -> dict[str, type[BaseModel]]:
    """The params model of every result code (an order refused by a violation: the
    violation's), made on first use."""
    if not _RESULT_MODELS:
        for code, ref in RESULT_REFS.items():
            _RESULT_MODELS[code] = (
                CATALOGUE.params_model("violation", code) if code in CATALOGUE.codes else
                params_model_of(f"PhasedOrders{_pascal(code)}ResultParams", ref.params,
                                f"The params of phased_orders' order result {code}: "
                                f"\"{ref.template}\""))
    return _RESULT_MODELS


def _pascal(name: str) -> str:
    return "".join(p.capitalize() for p in name.split("_"))

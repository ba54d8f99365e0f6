"""Golden cases of phased_orders, phases 10b to 19: predation, logistics (shunting),
combat, healing, repairing, new units, bandits, excess, finishing and natural income,
and the queries. Written by hand like ``phased_orders_cases`` (whose helpers they use)."""

from __future__ import annotations

from .phased_orders_cases import (
    TWO,
    Json,
    caravan,
    case,
    grid,
    h,
    malformed,
    move,
    ok,
    order,
    players,
    query,
    resolve,
    result,
    state,
    strip,
    stronghold,
    unit,
)

AT_WAR = players("red", "green", war=(("red", "green"),))
ALLIES = players("red", "blue", allied=(("red", "blue"),))
SPEARMEN = {"id": "spearmen", "cost": 3, "move": 2, "hit_points": 3, "strength": 2}

# ==========================================================================================
# Phase 10b - Predation
# ==========================================================================================
S_PREDATION = ("10b – Predatation Movement: If Bandits are within movement range of a "
               "caravan, or uncontrolled Undead in movement range of any non-Undead, they "
               "will move to attack it.")

case("predation_bandit_attacks_a_caravan_in_range",
     "A bandit (move 3) three hexes from a caravan moves onto it after the players' "
     "movement (phase 10, subphase 10b) and they fight: the bandit's 2 strength fells the "
     "caravan's 2 hit points; the caravan's 1 leaves the bandit 2.", S_PREDATION,
     state(strip(6), TWO, [caravan("c", "red", 1), unit("b", "bandits", 4, move=3,
                                                          strength=2)]),
     resolve(),
     ok(["caravan_rotted", "predator_moved", "predator_moved", "predator_moved",
         "combat_began", "unit_slain", "melee_damage", "combat_won"],
        state={"units": [{"id": "b", "owner": "bandits", "hex": h(1), "hit_points": 2}]}))

case("predation_bandit_out_of_range_or_no_caravan_stays",
     "A bandit moves only for a caravan within its move: a caravan three hexes from a "
     "move-2 bandit, or an army next to it, leaves it where it is.", S_PREDATION,
     state(strip(6), TWO, [caravan("c", "red", 0), unit("b", "bandits", 3, move=2),
                           unit("i", "red", 4)]),
     resolve(),
     ok(["caravan_rotted"],
        state={"units": [{"id": "c"}, {"id": "b", "hex": h(3)}, {"id": "i"}]}))

case("predation_uncontrolled_undead_attack_any_non_undead",
     "Uncontrolled undead move on the nearest non-undead unit within their move (two hexes "
     "away); Red's own undead unit beside them is no prey.", S_PREDATION,
     state(strip(6), TWO, [unit("z", "red", 2, undead=True), unit("u", "undead", 3,
                                                                   undead=True, strength=3),
                           unit("i", "red", 5)]),
     resolve(),
     ok(["predator_moved", "predator_moved", "combat_began", "unit_slain", "melee_damage",
         "combat_won"],
        state={"units": [{"id": "z", "hex": h(2)}, {"id": "u", "hex": h(5), "hit_points": 2}]}))

case("predation_blocked_by_an_enemy_in_the_way",
     "Reading: a predator on the ground does not pass through a hex holding a unit it is "
     "at war with (it would halt there): the caravan behind Red's army is out of reach.",
     S_PREDATION,
     state(strip(4), TWO, [unit("b", "bandits", 0, move=3), unit("i", "red", 1),
                           caravan("c", "red", 2)]),
     resolve(),
     ok(["caravan_rotted"], state={"units": [{"id": "b", "hex": h(0)}, {"id": "i"}, {"id": "c"}]}))

case("predation_predator_with_move_0_has_no_range",
     "A predator with move 0 has no movement range, so nothing is within it, not even the "
     "prey beside it: the bandit next to Red's caravan and the uncontrolled undead next to "
     "Red's army stay where they are, and nothing fights (the second blind review, E1).",
     S_PREDATION,
     state(strip(6), TWO, [unit("b", "bandits", 1, move=0), caravan("c", "red", 2),
                           unit("u", "undead", 4, move=0, undead=True), unit("i", "red", 5)]),
     resolve(),
     ok(["caravan_rotted"],
        state={"units": [{"id": "b", "hex": h(1)}, {"id": "c", "hex": h(2), "hit_points": 2},
                         {"id": "u", "hex": h(4)}, {"id": "i", "hex": h(5),
                                                    "hit_points": 3}]}))

# ==========================================================================================
# Phase 11 - Logistics
# ==========================================================================================
S_LOGISTICS = ("11 – Logistics: See rules on unit Shunting. If two allied units occupy the "
               "same location, one is ejected one space backward. If this would cause it to "
               "be in the same location as an allied unit, this process is repeated. The "
               "allied players may choose who is ejected.")

case("logistics_mover_ejected_from_an_allys_hex",
     "Red's unit ends on the hex of Blue's (allied, not moving): only a unit that moved "
     "can be ejected, so Red's goes one hex back along its path.", S_LOGISTICS,
     state(strip(4), ALLIES, [unit("r", "red", 0), unit("b", "blue", 2)]),
     resolve(move("red", "r", 1, 2)),
     ok(["orders_received", "unit_moved", "unit_moved", "unit_ejected"],
        state={"units": [{"id": "r", "hex": h(1)}, {"id": "b", "hex": h(2)}]},
        derived={"results": [result("partly_carried_out", "ejected", steps=1, hex=h(1),
                                    params={"steps": 1, "ordered": 2})]}))

case("logistics_own_units_are_allied",
     "Reading: a player's units are allied with each other: two of Red's units on one hex, "
     "and the one that moved is ejected, back to where it started: its move is partly "
     "carried out with 0 steps kept (ejected's status in the catalogue).", S_LOGISTICS,
     state(strip(4), TWO, [unit("r", "red", 0), unit("s", "red", 1)]),
     resolve(move("red", "r", 1)),
     ok(["orders_received", "unit_moved", "unit_ejected"],
        state={"units": [{"id": "r", "hex": h(0)}, {"id": "s", "hex": h(1)}]},
        derived={"results": [result("partly_carried_out", "ejected", steps=0, hex=h(0))]}))

TRIO = state(strip(6), ALLIES, [unit("a", "red", 0), unit("b", "blue", 4), unit("c", "red", 5)])
TRIO_ORDERS = [move("red", "a", 1, 2), move("blue", "b", 3, 2), move("red", "c", 4, 3)]

case("logistics_players_choose_who_is_ejected",
     "Red's a and Blue's b both move onto (2,0): either could be ejected, and the allied "
     "players choose. The turn stops until they do.", S_LOGISTICS, TRIO,
     resolve(*TRIO_ORDERS),
     {"legal": True, "applied": False, "codes": [],
      "derived": {"status": "pending", "stopped_at": {"phase": 11}, "pending_decisions": [{
          "id": "ejection:2,0:1", "kind": "ejection", "unit": None, "player": None,
          "hex": h(2), "units": ["a", "b"],
          "options": [{"choice": "eject", "unit": "a"}, {"choice": "eject", "unit": "b"}]}]}})

case("logistics_ejection_repeats_along_the_path",
     "They eject Blue's b: back to (3,0), where Red's c now stands, allied, so again, back "
     "to (4,0), where b started (c has left it): none of its steps kept, partly carried "
     "out with steps 0 (ejected's status in the catalogue).", S_LOGISTICS, TRIO,
     resolve(*TRIO_ORDERS, decisions=[{"id": "ejection:2,0:1", "choice": "eject",
                                       "unit": "b"}]),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "unit_moved",
         "unit_moved", "unit_moved", "unit_moved", "unit_ejected", "unit_ejected"],
        state={"units": [{"id": "a", "hex": h(2)}, {"id": "b", "hex": h(4)},
                         {"id": "c", "hex": h(3)}]},
        derived={"results": [result("carried_out", "moved"),
                             result("partly_carried_out", "ejected", steps=0, hex=h(4)),
                             result("carried_out", "moved")]}))

case("logistics_decision_for_a_unit_that_cannot_be_ejected",
     "The ejection decision offers the units that can be ejected; naming another stops the "
     "turn.", "The allied players may choose who is ejected.", TRIO,
     resolve(*TRIO_ORDERS, decisions=[{"id": "ejection:2,0:1", "choice": "eject",
                                       "unit": "c"}]),
     {"legal": False, "codes": ["decision_not_an_option"], "applied": False})

# ==========================================================================================
# Phase 12 - Combat
# ==========================================================================================
S_COMBAT = ("12 – Combat: If two or more units occupy the same space at the end of the "
            "movement phase and neither is ejected melee combat begins. Combat continues "
            "until only one remains.")
DUEL = state(strip(3), AT_WAR, [unit("a", "red", 0, hp=4, strength=2),
                                unit("g", "green", 1, hp=5, strength=3)])

case("combat_default_arithmetic",
     "Default melee: each round each side deals its strength, all at once. Round 1: Red's "
     "2 takes Green's unit 5 -> 3, Green's 3 takes Red's 4 -> 1; round 2: Green's 3 -> 1 "
     "and Red's falls: Green's holds the hex with 1.", S_COMBAT, DUEL,
     resolve(move("red", "a", 1)),
     ok(["orders_received", "unit_moved", "combat_began", "melee_damage", "unit_slain",
         "combat_won"],
        state={"units": [{"id": "g", "hex": h(1), "hit_points": 1}]}))

case("combat_three_sides_until_one_remains",
     "Three players at war meet on (2,0). Round 1, every side against the weakest enemy "
     "first: b (2 hp, strength 3) takes 2 from r and 1 from g and falls; b's 3 fells r "
     "(3 hp). g holds with its 4 hit points: one side remains.", S_COMBAT,
     state(strip(5), players("red", "green", "blue", war=(("red", "green"), ("red", "blue"),
                                                          ("green", "blue"))),
           [unit("b", "blue", 2, hp=2, strength=3), unit("r", "red", 1, strength=2),
            unit("g", "green", 3, hp=4)]),
     resolve(move("red", "r", 2), move("green", "g", 2)),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "combat_began",
         "unit_slain", "unit_slain", "combat_won"],
        state={"units": [{"id": "g", "hex": h(2), "hit_points": 4}]}))

case("combat_last_round_struck_in_turn_the_attacker_first",
     "Blows land at once, but combat continues until only one remains: 3 hit points and "
     "strength 1 each, rounds 1 and 2 leave both at 1; round 3 would fell both at once, so "
     "it is struck in turn (combat.4), the attacker first - Red's unit moved in, Green's "
     "held the hex: Green's falls before it strikes, and Red's holds (1,0) with 1 hit "
     "point. No draw: one side moved in, one held.", S_COMBAT,
     state(strip(3), AT_WAR, [unit("a", "red", 0), unit("g", "green", 1)]),
     resolve(move("red", "a", 1)),
     ok(["orders_received", "unit_moved", "combat_began", "unit_slain", "melee_damage",
         "combat_won"],
        state={"units": [{"id": "a", "hex": h(1), "hit_points": 1}], "rng": 0}))

case("combat_equal_armies_leave_exactly_one",
     "Issue 30's reproduction: one army each (move 1, 3 hit points, strength 2) on (0,0) "
     "and (1,0), Red's moving onto Green's. Round 1, at once: both 3 -> 1. Round 2 would "
     "fell both: struck in turn, Red's (it moved in) strikes first and Green's falls. "
     "Exactly one unit is left: Red's, with 1 hit point.", S_COMBAT,
     state(strip(2), AT_WAR, [unit("r1", "red", 0, move=1, strength=2),
                              unit("g1", "green", 1, move=1, strength=2)]),
     resolve(move("red", "r1", 1)),
     ok(["orders_received", "unit_moved", "combat_began", "unit_slain", "melee_damage",
         "combat_won"],
        state={"units": [{"id": "r1", "owner": "red", "hex": h(1), "hit_points": 1}]}))

BOTH_MOVE_IN = ("Two armies at war, 1 hit point and strength 1 each, both move onto (1,0) in "
                "the same step (Red's order listed first); round 1 would fell both at once, "
                "so it is struck in turn. Both moved in, so neither has the initiative and "
                "the order is drawn from the seed (combat.4): one draw below(2) for the two "
                "sides (Fisher-Yates; 1 keeps the sides as they stand, Red's then Green's, 0 "
                "swaps them). ")
case("combat_both_moved_in_the_seed_decides_who_strikes_first",
     BOTH_MOVE_IN + "Seed 2 draws 0: Green's strikes first and holds (1,0), though Red's "
     "order is listed first; the seed advances to 11400714819323198487.", S_COMBAT,
     state(strip(3), AT_WAR, [unit("a", "red", 0, hp=1), unit("g", "green", 2, hp=1)],
           rng=2),
     resolve(move("red", "a", 1), move("green", "g", 1)),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "combat_began",
         "unit_slain", "combat_won"],
        state={"units": [{"id": "g", "hex": h(1), "hit_points": 1}],
               "rng": 11400714819323198487}))

case("combat_both_moved_in_another_seed_another_order",
     BOTH_MOVE_IN + "Seed 0 draws 1: Red's strikes first and holds (1,0); the seed "
     "advances to 11400714819323198485.", S_COMBAT,
     state(strip(3), AT_WAR, [unit("a", "red", 0, hp=1), unit("g", "green", 2, hp=1)]),
     resolve(move("red", "a", 1), move("green", "g", 1)),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "combat_began",
         "unit_slain", "combat_won"],
        state={"units": [{"id": "a", "hex": h(1), "hit_points": 1}],
               "rng": 11400714819323198485}))

case("combat_three_sides_two_rounds_struck_in_turn",
     "Blue's h (1 hit point, strength 1) holds (1,0); Red's a (2, strength 1) and Green's b "
     "(1, strength 3) move onto it in the same step, all three at war. Round 1 at once would "
     "fell all three (h takes b's 1; a takes b's; b takes h's 1 and a's 2), so it is struck "
     "in turn: a and b moved in, h held, so a and b strike first, in an order drawn from "
     "the seed - seed 0, one draw below(2) = 1: a, b, then h. a's 1 fells b (1 hit point, "
     "before h by id); b strikes no more; h's 1 takes a to 1. Round 2 at once would fell "
     "both: struck in turn again, in the same order (no second draw): a fells h. Red's a "
     "holds (1,0) with 1 hit point after 2 rounds; the seed advanced once, to "
     "11400714819323198485.", S_COMBAT,
     state(strip(3), players("red", "green", "blue", war=(("red", "green"), ("red", "blue"),
                                                          ("green", "blue"))),
           [unit("h", "blue", 1, hp=1), unit("a", "red", 0, hp=2),
            unit("b", "green", 2, hp=1, strength=3)]),
     resolve(move("red", "a", 1), move("green", "b", 1)),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "combat_began",
         "unit_slain", "melee_damage", "unit_slain", "combat_won"],
        state={"units": [{"id": "a", "hex": h(1), "hit_points": 1}],
               "rng": 11400714819323198485}))

case("combat_explicit_result",
     "The request may give a melee's result (table mode): Red's unit survives with 2 hit "
     "points, Green's is slain.", "Combat continues until only one remains.", DUEL,
     resolve(move("red", "a", 1), combat_results=[
         {"hex": h(1), "survivors": [{"unit": "a", "hit_points": 2}]}]),
     ok(["orders_received", "unit_moved", "combat_began", "unit_slain", "melee_damage",
         "combat_won"],
        state={"units": [{"id": "a", "hex": h(1), "hit_points": 2}]},
        derived={"unused_combat_results": []}))

case("combat_explicit_result_must_leave_one_side",
     "An explicit result with survivors of both sides cannot be: combat continues until "
     "one remains.", "Combat continues until only one remains.", DUEL,
     resolve(move("red", "a", 1), combat_results=[
         {"hex": h(1), "survivors": [{"unit": "a", "hit_points": 2},
                                     {"unit": "g", "hit_points": 1}]}]),
     {"legal": False, "codes": ["combat_result_invalid"], "applied": False})

case("combat_invalid_result_advisory_uses_the_default",
     "Advisory mode: an impossible result (hit points above the maximum) is a warning and "
     "the default arithmetic decides the melee.", "Combat continues until only one remains.",
     DUEL,
     resolve(move("red", "a", 1), combat_results=[
         {"hex": h(1), "survivors": [{"unit": "a", "hit_points": 9}]}]),
     {"legal": False, "codes": ["combat_result_invalid"], "applied": True,
      "state": {"units": [{"id": "g", "hit_points": 1}]}}, mode="advisory")

case("combat_explicit_result_without_survivors_is_invalid",
     "An explicit result with no survivor cannot be either: combat continues until only "
     "one remains, so a melee leaves one side standing.",
     "Combat continues until only one remains.", DUEL,
     resolve(move("red", "a", 1), combat_results=[{"hex": h(1), "survivors": []}]),
     {"legal": False, "codes": ["combat_result_invalid"], "applied": False})

case("combat_result_for_a_hex_without_melee_is_unused",
     "A combat result for a hex where no melee happens is reported unused.",
     "Combat continues until only one remains.", DUEL,
     resolve(combat_results=[{"hex": h(2), "survivors": []}]),
     ok([], derived={"unused_combat_results": [0]}))

# ==========================================================================================
# Phase 13 - Healing, 14 - Repairing
# ==========================================================================================
S_HEALING = ("13 – Healing: All healing occurs here, this includes healing from "
             "recuperation.")
S_REPAIR = ("14 – Repairing: Caravans can issue the repair order to reset their durability "
            "to 5 here.")

case("healing_recuperation_of_a_holding_unit",
     "Reading: a unit ordered to hold recuperates 1 hit point (the option recuperation) in "
     "phase 13.", S_HEALING,
     state(strip(2), TWO, [unit("r", "red", 0, hp=1, max_hp=3)]),
     resolve(order("hold", "red", "r")),
     ok(["orders_received", "unit_healed"], state={"units": [{"id": "r", "hit_points": 2}]}))

case("healing_recuperation_option_and_maximum",
     "With recuperation 5, a holding unit at 1 of 3 heals to its maximum, 3.", S_HEALING,
     state(strip(2), TWO, [unit("r", "red", 0, hp=1, max_hp=3)], options={"recuperation": 5}),
     resolve(order("hold", "red", "r")),
     ok(["orders_received", "unit_healed"], state={"units": [{"id": "r", "hit_points": 3}]}))

case("healing_no_recuperation_after_melee",
     "Reading: a unit that fought a melee this turn does not recuperate, though it held.",
     S_HEALING,
     state(strip(3), AT_WAR, [unit("r", "red", 1, hp=3, strength=3), unit("g", "green", 0)]),
     resolve(order("hold", "red", "r"), move("green", "g", 1)),
     ok(["orders_received", "orders_received", "unit_moved", "combat_began", "melee_damage",
         "unit_slain", "combat_won"],
        state={"units": [{"id": "r", "hit_points": 2}]},
        derived={"results": [result("carried_out", "held"),
                             result("carried_out", "moved")]}))

case("repair_resets_durability",
     "A caravan ordered to repair: Rot & Ruin takes its last point in phase 3 (1 -> 0), the "
     "repair resets it to 5 in phase 14.", S_REPAIR,
     state(strip(2), TWO, [caravan("c", "red", 0, durability=1)]),
     resolve(order("repair", "red", "c")),
     ok(["orders_received", "caravan_rotted", "caravan_repaired"],
        state={"units": [{"id": "c", "caravan": {"durability": 5, "resources": 0}}]},
        derived={"results": [result("carried_out", "repaired", phase=14)]}))

# ==========================================================================================
# Phase 15 - New units, 18 - Finishing
# ==========================================================================================
S_NEW = "15 – New Units: Newly created units appear on the game board in this phase."
S_ILLEGAL = "Any units in an illegal position are shunted at the GM’s discretion"
CROWDED = state(strip(3), TWO, [unit("g", "green", 1)], unit_types=[SPEARMEN],
                strongholds=[stronghold("keep", "red", 1, 3)])
COMMISSION = order("commission", "red", "keep", unit_type="spearmen", new_unit="s1")

case("new_unit_on_an_occupied_stronghold_is_shunted_by_the_gm",
     "The spearmen appear on their stronghold, where Green's unit stands: an illegal "
     "position. The game master shunts the newcomer (the unit that came last) to one of the "
     "nearest free hexes; the turn stops until the game master says which.",
     S_ILLEGAL, CROWDED, resolve(COMMISSION),
     {"legal": True, "applied": False, "codes": [],
      "derived": {"status": "pending", "stopped_at": {"phase": 18}, "pending_decisions": [{
          "id": "placement:s1", "kind": "placement", "unit": "s1", "player": None,
          "hex": h(1), "units": ["s1"],
          "options": [{"choice": "place", "hex": h(2)}, {"choice": "place", "hex": h(0)}]}]}})

case("new_unit_shunted_where_the_gm_says",
     "The game master places the spearmen on (2,0).", S_ILLEGAL, CROWDED,
     resolve(COMMISSION, decisions=[{"id": "placement:s1", "choice": "place", "hex": h(2)}]),
     ok(["orders_received", "unit_commissioned", "unit_created", "unit_shunted",
         "income_generated"],
        state={"units": [{"id": "g", "hex": h(1)}, {"id": "s1", "hex": h(2)}]}))

case("placement_with_no_free_hex_disbands",
     "Reading: with no free hex within reach the game master's only option is to disband "
     "the unit.", S_ILLEGAL,
     state([{"q": 0, "r": 0}], TWO, [unit("g", "green", 0)], unit_types=[SPEARMEN],
           strongholds=[stronghold("keep", "red", 0, 3)]),
     resolve(order("commission", "red", "keep", unit_type="spearmen", new_unit="s1"),
             decisions=[{"id": "placement:s1", "choice": "disband"}]),
     ok(["orders_received", "unit_commissioned", "unit_created", "unit_dismissed",
         "income_generated"], state={"units": [{"id": "g"}]}))

case("placement_with_one_free_hex_needs_no_decision",
     "Reading: a placement with a single option is no choice (as an ejection with a single "
     "candidate): the spearmen appear on the keep, where Green's unit stands, and are "
     "shunted to the one free hex, (1,0), without a decision.", S_ILLEGAL,
     state(strip(2), TWO, [unit("g", "green", 0)], unit_types=[SPEARMEN],
           strongholds=[stronghold("keep", "red", 0, 3)]),
     resolve(COMMISSION),
     ok(["orders_received", "unit_commissioned", "unit_created", "unit_shunted",
         "income_generated"],
        state={"units": [{"id": "g", "hex": h(0)}, {"id": "s1", "hex": h(1)}]}))

case("placement_with_no_free_hex_disbands_without_a_decision",
     "Reading: with no free hex within reach, disbanding is the only option offered, and a "
     "single option is carried out without a decision.", S_ILLEGAL,
     state([{"q": 0, "r": 0}], TWO, [unit("g", "green", 0)], unit_types=[SPEARMEN],
           strongholds=[stronghold("keep", "red", 0, 3)]),
     resolve(COMMISSION),
     ok(["orders_received", "unit_commissioned", "unit_created", "unit_dismissed",
         "income_generated"], state={"units": [{"id": "g"}]}))

case("finishing_units_level_up",
     "Units level up in phase 18: the request names them and what the level gives (here "
     "+1 strength, +2 maximum hit points, healed too); a unit gone by then does not.",
     "18 – Finishing: Any units in an illegal position are shunted at the GM’s discretion, "
     "and Units level up.",
     state(strip(3), TWO, [unit("r", "red", 0, hp=2, max_hp=3), unit("d", "red", 2)]),
     resolve(order("disband", "red", "d"),
             level_ups=[{"unit": "r", "strength": 1, "max_hit_points": 2}, {"unit": "d"}]),
     ok(["orders_received", "unit_disbanded", "unit_levelled", "level_up_lapsed"],
        state={"units": [{"id": "r", "level": 1, "strength": 2, "max_hit_points": 5,
                          "hit_points": 4}]}))

case("finishing_units_change_sides",
     "Units ordered to change sides do so, last of all: Red's unit goes over to Green.",
     "Units ordered to change sides do so.",
     state(strip(2), TWO, [unit("r", "red", 0)]),
     resolve(order("change_sides", "red", "r", to="green")),
     ok(["orders_received", "unit_changed_sides"],
        state={"units": [{"id": "r", "owner": "green"}]},
        derived={"results": [result("carried_out", "changed_sides", phase=18)]}))

# ==========================================================================================
# Phase 16 - Bandits
# ==========================================================================================
S_BANDITS = ("16 – Bandits: If a unit being disbanded caused it to become a bandit, it is "
             "created in this phase. Bandits cannot spawn in hexes that are occupied by "
             "another player. If a Bandit would spawn on a Stronghold, they are instead "
             "spawned adjacent to it, in a random legal, unoccupied hex. If not such hex "
             "exists, the Bandit does not spawn.")
STARVING = players("red", "green", war=(("red", "green"),))

case("bandit_blocked_by_an_occupied_hex",
     "Red's only army starves on (1,0) (one army: the draw is below(1) = 0); Green's unit "
     "moves onto (1,0) in phase 10: in phase 16 the hex is occupied by another player "
     "(Green), so the bandit cannot spawn there.", S_BANDITS,
     state(strip(3), STARVING, [unit("a", "red", 1, free_upkeep=False), unit("g", "green", 2)],
           rng=3),
     resolve(move("green", "g", 1)),
     ok(["orders_received", "upkeep_charged", "unit_starved", "unit_moved", "bandit_blocked"],
        state={"units": [{"id": "g", "hex": h(1)}]}))

S_BANDIT_PLAYER = "Bandits cannot spawn in hexes that are occupied by another player."
# Red's army a starves on (2,0); Green's caravan k moves there in phase 10 (3d); the bandit x
# hunts it from (4,0) in 10b and kills it in phase 12 (3 strength against 2 hit points; the
# caravan's 1 leaves x 2): at phase 16 (2,0) holds only x, a bandit - no player.
BANDIT_HELD = state(strip(5), STARVING, [
    unit("a", "red", 2, free_upkeep=False), caravan("k", "green", 1),
    unit("x", "bandits", 4, strength=3)])
BANDIT_HELD_EVENTS = ["orders_received", "caravan_rotted", "upkeep_charged", "unit_starved",
                      "unit_moved", "predator_moved", "predator_moved", "combat_began",
                      "unit_slain", "melee_damage", "combat_won", "bandit_spawned"]


def _group(n: int, *kinds: str) -> Json:
    return {"phase": n, "events": [{"kind": k} for k in kinds]}


query("bandit_spawns_on_a_hex_held_only_by_bandits",
      "A bandit is no player, so a hex held only by bandits is not occupied by another "
      "player: Red's starved army a appears there as a bandit beside x (phase 16). Two "
      "units on one hex is an illegal position (one unit per hex), so phase 18 shunts the "
      "one that came last, a, at the game master's discretion: the turn stops for the "
      "placement, offering the free hexes beside (2,0), E then W: (3,0), (1,0).",
      S_BANDIT_PLAYER, "resolve",
      {"state": BANDIT_HELD, "orders": [move("green", "k", 2)]},
      {"status": "pending", "resolved": False, "legal": True, "state": None,
       "violations": [],
       "trace": [_group(1, "orders_received"), _group(3, "caravan_rotted"),
                 _group(4, "upkeep_charged"), _group(5, "unit_starved"),
                 _group(10, "unit_moved", "predator_moved", "predator_moved"),
                 _group(12, "combat_began", "unit_slain", "melee_damage", "combat_won"),
                 {"phase": 16, "events": [{"kind": "bandit_spawned", "params": {
                     "unit": "a", "hex": h(2), "data": {"owner": "bandits"}}}]}],
       "stopped_at": {"phase": 18, "subphase": None},
       "pending_decisions": [{
           "id": "placement:a", "kind": "placement", "unit": "a", "player": None,
           "hex": h(2), "units": ["a"],
           "options": [{"choice": "place", "hex": h(3)}, {"choice": "place", "hex": h(1)}]}]})

case("bandit_spawned_beside_a_bandit_is_shunted_where_the_gm_says",
     "The same turn with the game master's placement: the bandit a goes to (3,0); the turn "
     "ends with two bandits, one a hex (it drew from the seed: not reversible).",
     S_BANDIT_PLAYER, BANDIT_HELD,
     resolve(move("green", "k", 2),
             decisions=[{"id": "placement:a", "choice": "place", "hex": h(3)}]),
     ok([*BANDIT_HELD_EVENTS, "unit_shunted"], reversible=False,
        state={"units": [{"id": "x", "owner": "bandits", "hex": h(2), "hit_points": 2},
                         {"id": "a", "owner": "bandits", "hex": h(3)}]},
        derived={"unused_decisions": []}))

case("bandit_on_a_stronghold_spawns_adjacent_at_random",
     "Red's army starves on its keep (seed 42: below(1) = 0). Its bandit would spawn on "
     "the stronghold, so it spawns on a free adjacent hex drawn from the seed: below(6) = 1, "
     "the second of E, NE, NW, W, SW, SE: (2,0).", S_BANDITS,
     state(grid(3, 3), STARVING, [unit("a", "red", (1, 1), free_upkeep=False)],
           strongholds=[stronghold("keep", "red", (1, 1), 0)], rng=42),
     resolve(),
     ok(["upkeep_charged", "unit_starved", "bandit_spawned_adjacent", "income_generated"],
        reversible=False,
        state={"units": [{"id": "a", "owner": "bandits", "hex": h(2, 0)}],
               "rng": 4354685564936845396}))

case("bandit_on_a_stronghold_without_room_does_not_spawn",
     "A bandit that would spawn on a stronghold whose neighbours are all taken or off the "
     "map does not spawn.", S_BANDITS,
     state(strip(3), STARVING, [unit("a", "red", 1, free_upkeep=False), unit("g", "green", 0),
                                unit("h", "green", 2)],
           strongholds=[stronghold("keep", "red", 1, 0)], rng=3),
     resolve(),
     ok(["upkeep_charged", "unit_starved", "bandit_no_room", "income_generated"],
        state={"units": [{"id": "g"}, {"id": "h"}]}))

# ==========================================================================================
# Phases 17 and 19 - Excess and Natural income
# ==========================================================================================
S_EXCESS = ("17 – Excess: Strongholds and Capitals with more than their maximum amount of "
            "resources donate the excess to charity.")
S_INCOME = ("19 – Natural Income: Strongholds and Capitals generate resources (3 and 4, "
            "respectively).")

case("excess_donated_then_income",
     "A capital holding 9 of its maximum 8 donates 1 in phase 17, then generates 4 in "
     "phase 19 and ends the turn at 12 (above its maximum until the next turn's phase 17).",
     S_EXCESS,
     state(strip(2), TWO, [], strongholds=[stronghold("cap", "green", 0, 9, maximum=8,
                                                       capital=True)]),
     resolve(),
     ok(["excess_donated", "income_generated"],
        state={"strongholds": [{"id": "cap", "resources": 12}]}))

case("income_strongholds_3_capitals_4",
     "Natural income: a stronghold generates 3, a capital 4.", S_INCOME,
     state(strip(2), TWO, [], strongholds=[stronghold("keep", "red", 0, 1),
                                           stronghold("cap", "green", 1, 1, capital=True)]),
     resolve(),
     ok(["income_generated", "income_generated"],
        state={"strongholds": [{"id": "keep", "resources": 4}, {"id": "cap", "resources": 5}]}))

# ==========================================================================================
# Queries
# ==========================================================================================
query("legal_actions_one_submit_per_order",
      "legal-actions lists one submit action per order the player may give, unit by unit: "
      "hold, disband, a move to each hex within reach (E before W), going over to each "
      "other player; then the turn resolved as it stands.",
      "1 – Orders: Players give an order to each of their units and strongholds.",
      "legal-actions",
      {"state": state(strip(3), TWO, [unit("r", "red", 1, move=1)]), "player": "red"},
      {"player": "red", "truncated": False, "actions": [
          {"type": "submit", "player": "red", "orders": [order("hold", "red", "r")]},
          {"type": "submit", "player": "red", "orders": [order("disband", "red", "r")]},
          {"type": "submit", "player": "red", "orders": [move("red", "r", 2)]},
          {"type": "submit", "player": "red", "orders": [move("red", "r", 0)]},
          {"type": "submit", "player": "red",
           "orders": [order("change_sides", "red", "r", to="green")]},
          {"type": "resolve", "orders": []}], "count": 6})

query("legal_actions_bounded",
      "legal-actions is bounded by limit and says when more were legal.",
      "1 – Orders: Players give an order to each of their units and strongholds.",
      "legal-actions",
      {"state": state(strip(3), TWO, [unit("r", "red", 1, move=1)]), "player": "red",
       "limit": 2},
      {"truncated": True, "actions": [{"orders": [{"order": "hold"}]},
                                      {"orders": [{"order": "disband"}]}]})

query("legal_actions_unknown_player",
      "legal-actions for a player the state does not hold is malformed.",
      "1 – Orders: Players give an order to each of their units and strongholds.",
      "legal-actions", {"state": state(strip(3), TWO, []), "player": "blue"},
      malformed("/player"))


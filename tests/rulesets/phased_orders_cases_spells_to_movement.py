"""Golden cases of phased_orders, phases 7 to 10: spells and ranged attacks, abilities,
caravan orders, movement with its subphases, road priority, flight, archers and the
emergency communique (with the source's Red-and-Green example). Written by hand like
``phased_orders_cases`` (whose helpers they use); the later phases are in
``phased_orders_cases_predation_to_income``."""

from __future__ import annotations

from typing import Any

from . import phased_orders_cases_predation_to_income  # noqa: F401  (registers phases 10b to 19)
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
from .phased_orders_cases_predation_to_income import SPEARMEN

# ==========================================================================================
# Phase 7 - Spells / Ranged attacks
# ==========================================================================================
S_RANGED = "7 – Spells/Ranged Attacks: Ranged attacks and spells trigger in this phase."
S_GEMS = ("A player must have enough gems to complete a spell before s/he can attempt to "
          "cast it.")
AT_WAR = players("red", "green", war=(("red", "green"),))
FIREBOLT = {"id": "firebolt", "gems": 2, "range": 3, "effect": "damage", "amount": 2}


def archer(id: str, owner: str, spot: int, reach: int = 2, **extra: Any) -> Json:
    return unit(id, owner, spot, archer=True, range=reach, type="archers", **extra)


case("ranged_attack_deals_the_archers_strength",
     "An archer shoots an enemy two hexes away: its strength (2) in damage, 3 -> 1.",
     S_RANGED,
     state(strip(3), AT_WAR, [archer("a", "red", 0, strength=2), unit("g", "green", 2)]),
     resolve(order("ranged_attack", "red", "a", target="g")),
     ok(["orders_received", "ranged_attack", "unit_damaged"],
        state={"units": [{"id": "a"}, {"id": "g", "hit_points": 1}]},
        derived={"results": [result("carried_out", "attacked", phase=7,
                                    params={"damage": 2})]}))

case("ranged_attack_destroys_before_movement",
     "A unit shot down to 0 hit points is destroyed in phase 7; its move (phase 10) fails.",
     S_RANGED,
     state(strip(4), AT_WAR, [archer("a", "red", 0, strength=3), unit("g", "green", 2)]),
     resolve(order("ranged_attack", "red", "a", target="g"), move("green", "g", 3)),
     ok(["orders_received", "orders_received", "ranged_attack", "unit_destroyed"],
        state={"units": [{"id": "a"}]},
        derived={"results": [result("carried_out", "attacked"),
                             result("failed", "unit_lost", params={"lost_in": 7})]}))

case("ranged_attacks_trigger_at_once",
     "Two archers shoot each other: both shots trigger in phase 7, and both fall.",
     S_RANGED,
     state(strip(3), AT_WAR, [archer("a", "red", 0, hp=2, strength=2),
                              archer("b", "green", 2, hp=2, strength=2)]),
     resolve(order("ranged_attack", "red", "a", target="b"),
             order("ranged_attack", "green", "b", target="a")),
     ok(["orders_received", "orders_received", "ranged_attack", "ranged_attack",
         "unit_destroyed", "unit_destroyed"], state={"units": []}))

case("ranged_attack_table_damage",
     "Table mode: the order gives the damage rolled at the table (here 0, a miss) instead "
     "of the archer's strength.", S_RANGED,
     state(strip(3), AT_WAR, [archer("a", "red", 0, strength=2), unit("g", "green", 2)]),
     resolve(order("ranged_attack", "red", "a", target="g", damage=0)),
     ok(["orders_received", "ranged_attack"],
        state={"units": [{"id": "a"}, {"id": "g", "hit_points": 3}]}))

case("ranged_attack_not_an_archer",
     "Only archers make ranged attacks.", S_RANGED,
     state(strip(3), AT_WAR, [unit("a", "red", 0), unit("g", "green", 1)]),
     resolve(order("ranged_attack", "red", "a", target="g")),
     {"legal": False, "codes": ["not_an_archer", "target_out_of_range"], "applied": False})

case("ranged_attack_out_of_range",
     "An archer of range 2 cannot reach a unit 3 hexes away.", S_RANGED,
     state(strip(4), AT_WAR, [archer("a", "red", 0), unit("g", "green", 3)]),
     resolve(order("ranged_attack", "red", "a", target="g")),
     {"legal": False, "codes": ["target_out_of_range"], "applied": False})

case("ranged_attack_target_not_enemy",
     "Red and Green are neither allied nor at war: Red's archer may not shoot Green's unit.",
     S_RANGED,
     state(strip(3), TWO, [archer("a", "red", 0), unit("g", "green", 2)]),
     resolve(order("ranged_attack", "red", "a", target="g")),
     {"legal": False, "codes": ["target_not_enemy"], "applied": False,
      "derived": {"results": [result("failed", "target_not_enemy", phase=1)]}})

case("advisory_turn_resolves_with_the_refused_order_failed",
     "Advisory mode: the turn is resolved with the refused order failed; its violation "
     "comes back as a warning beside the resulting state.", S_RANGED,
     state(strip(3), TWO, [archer("a", "red", 0), unit("g", "green", 2)]),
     resolve(order("ranged_attack", "red", "a", target="g"), move("green", "g", 1)),
     {"legal": False, "codes": ["target_not_enemy"], "applied": True,
      "events": ["orders_received", "orders_received", "unit_moved"],
      "state": {"units": [{"id": "a"}, {"id": "g", "hit_points": 3, "hex": h(1)}]},
      "derived": {"results": [result("failed", "target_not_enemy"),
                              result("carried_out", "moved")]}},
     mode="advisory")

case("spell_damage_spends_gems",
     "A firebolt (2 gems, range 3, 2 damage) at an enemy: Red's gems 3 -> 1, the target "
     "3 -> 1 hit points.", S_GEMS,
     state(strip(4), players("red", "green", war=(("red", "green"),), red=(0, 3)),
           [unit("m", "red", 0, spells=["firebolt"]), unit("g", "green", 3)],
           spells=[FIREBOLT]),
     resolve(order("cast", "red", "m", spell="firebolt", target="g")),
     ok(["orders_received", "spell_cast", "unit_damaged"],
        state={"players": [{"id": "red", "gems": 1}, {"id": "green"}],
               "units": [{"id": "m"}, {"id": "g", "hit_points": 1}]},
        derived={"results": [result("carried_out", "spell_cast", phase=7)]}))

case("spell_not_enough_gems",
     "A player must hold a spell's gems before casting it: 1 gem for a 2-gem spell.",
     S_GEMS,
     state(strip(4), players("red", "green", war=(("red", "green"),), red=(0, 1)),
           [unit("m", "red", 0, spells=["firebolt"]), unit("g", "green", 3)],
           spells=[FIREBOLT]),
     resolve(order("cast", "red", "m", spell="firebolt", target="g")),
     {"legal": False, "codes": ["not_enough_gems"], "applied": False})

case("spell_gems_exhausted_by_an_earlier_spell",
     "Two firebolts of Red with 3 gems: the first (in the order the action lists them) is "
     "paid, 3 -> 1; the second finds 1 gem and fails, costing nothing.", S_GEMS,
     state(strip(4), players("red", "green", war=(("red", "green"),), red=(0, 3)),
           [unit("m", "red", 0, spells=["firebolt"]), unit("n", "red", 1, spells=["firebolt"]),
            unit("g", "green", 3, hp=5)], spells=[FIREBOLT]),
     resolve(order("cast", "red", "m", spell="firebolt", target="g"),
             order("cast", "red", "n", spell="firebolt", target="g")),
     ok(["orders_received", "spell_cast", "unit_damaged"],
        state={"players": [{"id": "red", "gems": 1}, {"id": "green"}],
               "units": [{"id": "m"}, {"id": "n"}, {"id": "g", "hit_points": 3}]},
        derived={"results": [result("carried_out", "spell_cast"),
                             result("failed", "gems_exhausted",
                                    params={"cost": 2, "gems": 1})]}))

case("spell_not_known_and_out_of_range",
     "A unit casts the spells it knows, at a target within the spell's range.", S_GEMS,
     state(strip(5), players("red", "green", war=(("red", "green"),), red=(0, 3)),
           [unit("m", "red", 0), unit("g", "green", 4)], spells=[FIREBOLT]),
     resolve(order("cast", "red", "m", spell="firebolt", target="g")),
     {"legal": False, "codes": ["spell_not_known", "target_out_of_range"], "applied": False})

case("ranged_target_gone_before_phase_7",
     "The target disbanded in phase 2: the ranged attack of phase 7 finds no target.",
     S_RANGED,
     state(strip(3), AT_WAR, [archer("a", "red", 0), unit("g", "green", 2)]),
     resolve(order("ranged_attack", "red", "a", target="g"), order("disband", "green", "g")),
     ok(["orders_received", "orders_received", "unit_disbanded"],
        derived={"results": [result("failed", "target_lost",
                                    params={"target": "g", "by_phase": 7}),
                             result("carried_out", "disbanded")]}))

# ==========================================================================================
# Phase 8 - Abilities
# ==========================================================================================
S_ABILITIES = ("8 – Abilities: Leader abilities such as Scavenging and Stargazing take place "
               "in this phase.")
ABILITIES = [{"id": "scavenging", "effect": "gain_resources", "amount": 2},
             {"id": "gem_finding", "effect": "gain_gems", "amount": 1},
             {"id": "stargazing", "effect": "report"},
             {"id": "field_medic", "effect": "heal", "amount": 2, "range": 1}]


def leader(spot: int, *abilities: str, **extra: Any) -> Json:
    return unit("lord", "red", spot, type="leader", abilities=list(abilities), **extra)


case("ability_scavenging_gains_resources",
     "Scavenging, as data: gain 2 resources, in phase 8 (Red's pool 1 -> 3).", S_ABILITIES,
     state(strip(2), players("red", "green", red=(1, 0)), [leader(0, "scavenging")],
           abilities=ABILITIES),
     resolve(order("ability", "red", "lord", ability="scavenging")),
     ok(["orders_received", "ability_used", "resources_gained"],
        state={"players": [{"id": "red", "resources": 3}, {"id": "green"}]},
        derived={"results": [result("carried_out", "ability_used", phase=8)]}))

case("ability_gain_gems_and_report",
     "An ability gaining gems adds them now; Stargazing, a report, changes nothing and is "
     "in the trace for the game master.", S_ABILITIES,
     state(strip(3), players("red", "green", red=(0, 1)),
           [leader(0, "gem_finding"), unit("seer", "red", 2, abilities=["stargazing"])],
           abilities=ABILITIES),
     resolve(order("ability", "red", "lord", ability="gem_finding"),
             order("ability", "red", "seer", ability="stargazing")),
     ok(["orders_received", "ability_used", "gems_gained", "ability_used"],
        state={"players": [{"id": "red", "gems": 2}, {"id": "green"}]}))

case("ability_heal_takes_effect_in_phase_13",
     "A healing ability is used in phase 8 but heals in phase 13, where all healing "
     "occurs: the wounded unit next to the leader, 1 -> 3.",
     "13 – Healing: All healing occurs here, this includes healing from recuperation.",
     state(strip(3), TWO, [leader(0, "field_medic"), unit("w", "red", 1, hp=1, max_hp=4)],
           abilities=ABILITIES),
     resolve(order("ability", "red", "lord", ability="field_medic", target="w")),
     ok(["orders_received", "ability_used", "unit_healed"],
        state={"units": [{"id": "lord"}, {"id": "w", "hit_points": 3}]}))

case("ability_not_held_or_out_of_range",
     "A unit uses only its own abilities; a heal reaches within the ability's range.",
     S_ABILITIES,
     state(strip(4), TWO, [leader(0, "field_medic"), unit("w", "red", 3, hp=1)],
           abilities=ABILITIES),
     resolve(order("ability", "red", "lord", ability="field_medic", target="w"),
             order("ability", "red", "w", ability="scavenging")),
     {"legal": False, "codes": ["ability_not_held", "ability_target_out_of_range"],
      "applied": False})

# ==========================================================================================
# Phase 9 - Caravan orders
# ==========================================================================================
S_CARAVAN = ("9 – Caravan Orders: Caravan specific orders take place in this phase. "
             "(Loading/Unload resources)")

case("caravan_loads_at_its_stronghold",
     "A caravan on its owner's stronghold loads 3 of the 5 stored there; income follows "
     "in phase 19 (2 + 3).", S_CARAVAN,
     state(strip(2), TWO, [caravan("c", "red", 0, resources=1)],
           strongholds=[stronghold("keep", "red", 0, 5)]),
     resolve(order("load", "red", "c", amount=3)),
     ok(["orders_received", "caravan_rotted", "caravan_loaded", "income_generated"],
        state={"units": [{"id": "c", "caravan": {"durability": 2, "resources": 4}}],
               "strongholds": [{"id": "keep", "resources": 5}]},
        derived={"results": [result("carried_out", "loaded", phase=9)]}))

case("caravan_load_short",
     "The stronghold holds 2: the caravan loads those 2 of the 5 ordered.", S_CARAVAN,
     state(strip(2), TWO, [caravan("c", "red", 0)], strongholds=[stronghold("keep", "red", 0, 2)]),
     resolve(order("load", "red", "c", amount=5)),
     ok(["orders_received", "caravan_rotted", "caravan_loaded", "income_generated"],
        state={"units": [{"id": "c", "caravan": {"durability": 2, "resources": 2}}]},
        derived={"results": [result("partly_carried_out", "load_short",
                                    params={"amount": 2, "ordered": 5})]}))

case("caravan_unload_then_excess_then_income",
     "A caravan unloads 3 into a stronghold holding 4 of its maximum 5 (phase 9): 7; the "
     "excess 2 goes to charity in phase 17: 5; income in phase 19: 8.", S_CARAVAN,
     state(strip(2), TWO, [caravan("c", "red", 0, resources=3)],
           strongholds=[stronghold("keep", "red", 0, 4, maximum=5)]),
     resolve(order("unload", "red", "c", amount=3)),
     ok(["orders_received", "caravan_rotted", "caravan_unloaded", "excess_donated",
         "income_generated"],
        state={"units": [{"id": "c", "caravan": {"durability": 2, "resources": 0}}],
               "strongholds": [{"id": "keep", "resources": 8}]},
        derived={"results": [result("carried_out", "unloaded")]}))

case("caravan_unload_short",
     "A caravan carrying 1 unloads that 1 of the 3 ordered.", S_CARAVAN,
     state(strip(2), TWO, [caravan("c", "red", 0, resources=1)],
           strongholds=[stronghold("keep", "red", 0, 0)]),
     resolve(order("unload", "red", "c", amount=3)),
     ok(["orders_received", "caravan_rotted", "caravan_unloaded", "income_generated"],
        derived={"results": [result("partly_carried_out", "unload_short",
                                    params={"amount": 1, "ordered": 3})]}))

case("caravan_orders_need_a_caravan_at_an_own_stronghold",
     "Only caravans load, unload and repair; a caravan loads at a stronghold of its owner "
     "on its hex.", S_CARAVAN,
     state(strip(4), TWO, [unit("i", "red", 0), caravan("c", "red", 1), caravan("d", "red", 2),
                           unit("j", "red", 3)],
           strongholds=[stronghold("keep", "red", 0, 5), stronghold("hold", "green", 2, 5)]),
     resolve(order("load", "red", "i", amount=1), order("unload", "red", "c", amount=1),
             order("repair", "red", "j"), order("load", "red", "d", amount=1)),
     {"legal": False, "applied": False,
      "codes": ["no_own_stronghold", "no_own_stronghold", "not_a_caravan", "not_a_caravan"]})

# ==========================================================================================
# Phase 10 - Movement
# ==========================================================================================
S_MOVEMENT = ("10 – Movement: This includes flight. Units can move into a hex occupied by "
              "another unit in this phase. Units can move through space occupied by "
              "non-enemy units. A ground unit cannot*, however, move past a space occupied "
              "by an enemy and will instead halt it’s movement there.")
S_SUBPHASES = ("Movement Subphases: 3a: Units with move greater than 4 move until their "
               "movement reaches 4. 3b: Units with move 4 move once. 3c: Units with move 3 "
               "move once. 3d: Units with move 2 move once. 3e: Units with move 1 move.")
S_ROAD = ("Moving onto a road Hex triggers a priority movement Subphase. (3a-Priority, for "
          "example, which would occur before 3b.)")
S_FLIGHT = ("*: Flying units may fly over non-archer ground units. Archers can be flown "
            "over, but will be given the option to attack (and thus halt the flying unit).")
S_COMMUNIQUE = ("For instance: Red is moving his flying cavalry into the same space that "
                "Green is moving his archers into. Red and Green are not at war but are also "
                "not allies. Neither player have made any intent to attack one another known. "
                "An emergency communique is made to Red and Green via SMS. Either will have "
                "the opportunity to halt their movement adjacent to the previously contested "
                "hex. It is possible that both will decide not to move to the location, and "
                "it will end up unoccupied.")


def moved(subphase: str) -> Json:
    return {"kind": "unit_moved", "params": {"subphase": subphase}}


def phase(n: int, *events: Json | str) -> Json:
    return {"phase": n, "events": [{"kind": e} if isinstance(e, str) else e for e in events]}


ORDERS1 = phase(1, "orders_received")
ORDERS2 = phase(1, "orders_received", "orders_received")

query("movement_subphase_by_remaining_move",
      "A unit's subphase comes from the movement it has left: Red's move-4 unit ordered two "
      "hexes steps in 3b and 3c, reaching (2,0) first; Green's move-3 unit (at war) steps "
      "in 3c and 3d and, entering (2,0) held by the enemy, halts there with one step unused. "
      "They fight: Red's strength 3 fells Green's 3 hit points in one round, Green's 1 "
      "leaves Red 2.", S_SUBPHASES, "resolve",
      {"state": state(strip(5), AT_WAR, [unit("r", "red", 0, move=4, strength=3),
                                         unit("g", "green", 4, move=3)]),
       "orders": [move("red", "r", 1, 2), move("green", "g", 3, 2, 1)]},
      {"resolved": True, "trace": [
          ORDERS2,
          phase(10, moved("3b"), moved("3c"), moved("3c"), moved("3d"),
                {"kind": "halted_by_enemy", "params": {"unit": "g", "hex": h(2)}}),
          phase(12, "combat_began", "melee_damage", "unit_slain", "combat_won")],
       "results": [result("carried_out", "moved", steps=2, hex=h(2)),
                   result("partly_carried_out", "halted_by_enemy", steps=2, hex=h(2),
                          params={"steps": 2, "ordered": 3})],
       "state": {"units": [{"id": "r", "hex": h(2), "hit_points": 2}]}})

query("movement_fast_units_step_in_3a_until_4_left",
      "A move-6 unit steps in 3a until it has 4 left (two rounds), then once in each of 3b, "
      "3c, 3d and 3e; a move-1 unit steps in 3e beside it.", S_SUBPHASES, "resolve",
      {"state": state(strip(9), TWO, [unit("f", "red", 0, move=6),
                                      unit("s", "green", 8, move=1)]),
       "orders": [move("red", "f", 1, 2, 3, 4, 5, 6), move("green", "s", 7)]},
      {"resolved": True, "trace": [
          ORDERS2,
          phase(10, moved("3a"), moved("3a"), moved("3b"), moved("3c"), moved("3d"),
                moved("3e"), moved("3e"))],
       "state": {"units": [{"id": "f", "hex": h(6)}, {"id": "s", "hex": h(7)}]}})

query("movement_road_priority_subphases",
      "A move-4 unit entering road hexes: it enters the road in 3b, takes its next step in "
      "3b-priority, before 3c, and again while it keeps entering road hexes: all four steps "
      "before 3c. A move-4 unit off the road takes one step in 3b and the next in 3c.",
      S_ROAD, "resolve",
      {"state": state([*strip(6, roads=(1, 2, 3, 4)), *({"q": q, "r": 1} for q in range(6))],
                      TWO, [unit("r", "red", 0, move=4), unit("g", "green", (0, 1), move=4)]),
       "orders": [move("red", "r", 1, 2, 3, 4), move("green", "g", (1, 1), (2, 1))]},
      {"resolved": True, "trace": [
          ORDERS2,
          phase(10, moved("3b"), moved("3b"),
                {"kind": "road_priority", "params": {"next": "3b-priority"}},
                moved("3b-priority"), "road_priority", moved("3b-priority"),
                "road_priority", moved("3b-priority"), moved("3c"))],
       "results": [result("carried_out", "moved", steps=4),
                   result("carried_out", "moved", steps=2)]})

case("movement_through_non_enemy_units",
     "Units move through hexes held by non-enemy units: Red's unit passes its ally Blue's "
     "unit and neutral Green's and ends beyond them.", S_MOVEMENT,
     state(strip(4), players("red", "green", "blue", allied=(("red", "blue"),)),
           [unit("r", "red", 0, move=3), unit("b", "blue", 1), unit("g", "green", 2)]),
     resolve(move("red", "r", 1, 2, 3)),
     ok(["orders_received", "unit_moved", "unit_moved", "unit_moved"],
        state={"units": [{"id": "r", "hex": h(3)}, {"id": "b", "hex": h(1)},
                         {"id": "g", "hex": h(2)}]}))

case("movement_ground_unit_halts_on_enemy",
     "A ground unit cannot move past a hex held by an enemy: it halts there (2 of 3 "
     "steps), and melee follows in phase 12.", S_MOVEMENT,
     state(strip(4), AT_WAR, [unit("r", "red", 0, move=3, strength=3), unit("g", "green", 2)]),
     resolve(move("red", "r", 1, 2, 3)),
     ok(["orders_received", "unit_moved", "unit_moved", "halted_by_enemy", "combat_began",
         "unit_slain", "melee_damage", "combat_won"],
        state={"units": [{"id": "r", "hex": h(2), "hit_points": 2}]},
        derived={"results": [result("partly_carried_out", "halted_by_enemy", steps=2,
                                    hex=h(2))]}))

case("movement_ending_on_a_neutral_unit_is_melee_and_war",
     "A unit may move into a hex held by another unit: ending on a neutral unit, they "
     "fight in phase 12, and the melee puts their players at war.",
     "Units can move into a hex occupied by another unit in this phase.",
     state(strip(3), TWO, [unit("r", "red", 0, strength=3), unit("g", "green", 1)]),
     resolve(move("red", "r", 1)),
     ok(["orders_received", "unit_moved", "combat_began", "melee_declares_war",
         "unit_slain", "melee_damage", "combat_won"],
        state={"players": [{"id": "red", "relations": {"green": "war"}},
                           {"id": "green", "relations": {"red": "war"}}]}))

case("movement_enemies_swapping_hexes_pass",
     "Reading: each step is simultaneous and a unit looks at the hex it entered as it is "
     "after the step; two enemies swapping hexes pass each other.", S_MOVEMENT,
     state(strip(3), AT_WAR, [unit("r", "red", 0, move=1), unit("g", "green", 1, move=1)]),
     resolve(move("red", "r", 1), move("green", "g", 0)),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved"],
        state={"units": [{"id": "r", "hex": h(1)}, {"id": "g", "hex": h(0)}]}))

case("movement_path_too_long",
     "A unit steps at most its move: a path of 3 for a move-2 unit is refused.", S_MOVEMENT,
     state(strip(4), TWO, [unit("r", "red", 0, move=2)]),
     resolve(move("red", "r", 1, 2, 3)),
     {"legal": False, "codes": ["path_too_long"], "applied": False})

case("flight_over_non_archer_ground_units",
     "A flying unit flies over an enemy ground unit that is no archer.", S_FLIGHT,
     state(strip(4), AT_WAR, [unit("f", "red", 0, move=3, flying=True), unit("g", "green", 2)]),
     resolve(move("red", "f", 1, 2, 3)),
     ok(["orders_received", "unit_moved", "unit_moved", "flew_over", "unit_moved"],
        state={"units": [{"id": "f", "hex": h(3)}, {"id": "g", "hex": h(2)}]}))

case("flight_halts_on_an_enemy_flyer",
     "Flying units fly over ground units only: an enemy flying unit in a hex halts the "
     "flyer entering it.", S_FLIGHT,
     state(strip(4), AT_WAR, [unit("f", "red", 0, move=3, flying=True, strength=3),
                              unit("g", "green", 2, flying=True)]),
     resolve(move("red", "f", 1, 2, 3)),
     ok(["orders_received", "unit_moved", "unit_moved", "halted_by_enemy_flyer",
         "combat_began", "unit_slain", "melee_damage", "combat_won"],
        derived={"results": [result("partly_carried_out", "halted_by_enemy_flyer",
                                    steps=2)]}))

FLYOVER = state(strip(4), AT_WAR, [unit("f", "red", 0, move=3, flying=True, strength=3),
                                   archer("a", "green", 2)])

case("flight_over_an_archer_is_pending",
     "An enemy archer flown over is given the option to attack: the turn stops there until "
     "Green answers (attack or let pass).", S_FLIGHT, FLYOVER,
     resolve(move("red", "f", 1, 2, 3)),
     {"legal": True, "codes": [], "applied": False,
      "derived": {"status": "pending", "pending_decisions": [{
          "id": "archer:a:f", "kind": "archer", "unit": "a", "player": "green",
          "phase": 10, "subphase": "3d", "hex": h(2), "units": ["a", "f"],
          "options": [{"choice": "attack"}, {"choice": "let_pass"}]}]}})

case("flight_archer_attacks_and_halts_the_flyer",
     "The archer chooses to attack: the flying unit halts on the archer's hex and they "
     "fight there.", S_FLIGHT, FLYOVER,
     resolve(move("red", "f", 1, 2, 3), decisions=[{"id": "archer:a:f", "choice": "attack"}]),
     ok(["orders_received", "unit_moved", "unit_moved", "archer_attacked", "combat_began",
         "unit_slain", "melee_damage", "combat_won"],
        derived={"results": [result("partly_carried_out", "halted_by_archer", steps=2,
                                    params={"archer": "a"})]}))

case("flight_archer_lets_the_flyer_pass",
     "The archer lets it pass: the flying unit flies over and ends its path.", S_FLIGHT,
     FLYOVER,
     resolve(move("red", "f", 1, 2, 3),
             decisions=[{"id": "archer:a:f", "choice": "let_pass"}]),
     ok(["orders_received", "unit_moved", "unit_moved", "archer_let_pass", "flew_over",
         "unit_moved"],
        state={"units": [{"id": "f", "hex": h(3)}, {"id": "a", "hex": h(2)}]}))

# A flying bandit (move 2) whose only 2-step route to Red's caravan crosses Red's archer.
PREY_OVER_ARCHER = state(strip(4), TWO, [
    unit("x", "bandits", 0, flying=True, strength=2), archer("i", "red", 1, reach=1),
    caravan("k", "red", 2)])

case("predation_flying_predator_over_an_archer_is_pending",
     "Archers can be flown over, with the option to attack, by a flying predator as by a "
     "player's flyer: the caravan is within the flying bandit's movement range across Red's "
     "archer, so it moves (10b), and Red is asked whether the archer attacks it over its hex "
     "(the second blind review, E2: the archer's hex no longer blocks a flying predator).",
     S_FLIGHT, PREY_OVER_ARCHER, resolve(),
     {"legal": True, "codes": [], "applied": False,
      "derived": {"status": "pending", "stopped_at": {"phase": 10, "subphase": "10b"},
                  "pending_decisions": [{
          "id": "archer:i:x", "kind": "archer", "unit": "i", "player": "red",
          "phase": 10, "subphase": "10b", "hex": h(1), "units": ["i", "x"],
          "options": [{"choice": "attack"}, {"choice": "let_pass"}]}]}})

case("predation_archer_attacks_and_halts_the_flying_predator",
     "Red's archer attacks the flying bandit over its hex: the bandit halts there "
     "(\"and thus halt the flying unit\") and fights the archer, not the caravan: its 2 "
     "strength fells the archer's 3 hit points in two rounds, the archer's 1 a round "
     "leaves it 1.", S_FLIGHT, PREY_OVER_ARCHER,
     resolve(decisions=[{"id": "archer:i:x", "choice": "attack"}]),
     ok(["caravan_rotted", "predator_moved", "archer_attacked", "combat_began", "unit_slain",
         "melee_damage", "combat_won"],
        state={"units": [{"id": "x", "hex": h(1), "hit_points": 1},
                         {"id": "k", "hex": h(2), "hit_points": 2}]}))

case("predation_archer_lets_the_flying_predator_pass",
     "Red's archer lets the flying bandit pass: it flies on onto the caravan and fells it.",
     S_FLIGHT, PREY_OVER_ARCHER,
     resolve(decisions=[{"id": "archer:i:x", "choice": "let_pass"}]),
     ok(["caravan_rotted", "predator_moved", "archer_let_pass", "predator_moved",
         "combat_began", "unit_slain", "melee_damage", "combat_won"],
        state={"units": [{"id": "x", "hex": h(2), "hit_points": 2},
                         {"id": "i", "hex": h(1), "hit_points": 3}]}))

# The source's Red-and-Green example: Red's flying cavalry (move 4, four hexes) and Green's
# archers (move 1, one hex) both step into (4,0) in subphase 3e, where both paths end.
RED_GREEN = state(strip(6), TWO, [
    unit("red-cavalry", "red", 0, move=4, flying=True, hp=5, strength=2,
         type="flying_cavalry"),
    archer("green-archers", "green", 5, reach=1, move=1)])
RED_GREEN_ORDERS = [move("red", "red-cavalry", 1, 2, 3, 4), move("green", "green-archers", 4)]


def red_green(**extra: Any) -> Json:
    return resolve(*RED_GREEN_ORDERS, **extra)


def answers(red: str, green: str) -> list[Json]:
    return [{"id": "communique:4,0:red", "choice": red},
            {"id": "communique:4,0:green", "choice": green}]


PENDING_OPTIONS = [{"choice": "halt"}, {"choice": "proceed"}]

case("communique_red_and_green_pending",
     "The source's example: Red's flying cavalry and Green's archers, neither allied nor at "
     "war, move into the same hex in the same subphase (3e), where both paths end: an "
     "emergency communique. The turn stops before that step and asks each player.",
     S_COMMUNIQUE, RED_GREEN, red_green(),
     {"legal": True, "applied": False, "codes": [],
      "derived": {"status": "pending", "stopped_at": {"phase": 0, "subphase": "3e"},
                  "pending_decisions": [
          {"id": "communique:4,0:red", "kind": "communique", "unit": None,
           "player": "red", "players": ["red", "green"], "phase": 0, "subphase": "3e",
           "hex": h(4),
           "units": ["red-cavalry", "green-archers"], "options": PENDING_OPTIONS},
          {"id": "communique:4,0:green", "kind": "communique", "unit": None,
           "player": "green", "phase": 0, "subphase": "3e", "hex": h(4),
           "units": ["red-cavalry", "green-archers"], "options": PENDING_OPTIONS}]}})

case("communique_red_and_green_both_halt",
     "Both decide not to move to the location: each halts adjacent to the contested hex, "
     "which ends up unoccupied. The archers halt before their only step: partly carried "
     "out - \"partly carried out (how far a unit got and why it halted)\" (issue 16) - with "
     "0 steps, halted_by_communique's status in the catalogue.", S_COMMUNIQUE, RED_GREEN,
     red_green(decisions=answers("halt", "halt")),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "unit_moved",
         "communique_raised", "communique_answered", "communique_answered"],
        state={"units": [{"id": "red-cavalry", "hex": h(3)},
                         {"id": "green-archers", "hex": h(5)}],
               "players": [{"id": "red", "relations": {}}, {"id": "green", "relations": {}}]},
        derived={"results": [
            result("partly_carried_out", "halted_by_communique", steps=3, hex=h(3),
                   params={"contested": h(4)}),
            result("partly_carried_out", "halted_by_communique", steps=0, hex=h(5))]}))

case("communique_red_proceeds_green_halts",
     "Red proceeds and Green halts adjacent: Red's cavalry takes the hex, no combat, no "
     "war; Green's move is partly carried out, 0 steps.", S_COMMUNIQUE, RED_GREEN,
     red_green(decisions=answers("proceed", "halt")),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "unit_moved",
         "communique_raised", "communique_answered", "communique_answered", "unit_moved"],
        state={"units": [{"id": "red-cavalry", "hex": h(4)},
                         {"id": "green-archers", "hex": h(5)}]},
        derived={"results": [result("carried_out", "moved", steps=4),
                             result("partly_carried_out", "halted_by_communique",
                                    steps=0)]}))

case("communique_both_proceed_war_and_combat",
     "Both proceed: the communique ends in combat, so war is declared immediately, and they "
     "fight in phase 12 (the cavalry's 2 strength fells the archers' 3 hit points in two "
     "rounds; the archers' 1 a round leaves it 3).",
     "If this ends in combat war is declared immediately.", RED_GREEN,
     red_green(decisions=answers("proceed", "proceed")),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "unit_moved",
         "communique_raised", "communique_answered", "communique_answered", "war_declared",
         "unit_moved", "unit_moved", "combat_began", "melee_damage", "unit_slain",
         "combat_won"],
        state={"units": [{"id": "red-cavalry", "hex": h(4), "hit_points": 3}],
               "players": [{"id": "red", "relations": {"green": "war"}},
                           {"id": "green", "relations": {"red": "war"}}]}))

case("communique_players_unreachable_follow_orders",
     "If the players cannot be reached, the game master follows the original orders as "
     "best as possible: with unanswered_communiques = follow_orders both units proceed.",
     "If that is not possible the GM must follow the original orders given by the players "
     "as best as possible to resolve the turn.", RED_GREEN,
     red_green(unanswered_communiques="follow_orders"),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "unit_moved",
         "communique_raised", "communique_answered", "communique_answered", "war_declared",
         "unit_moved", "unit_moved", "combat_began", "melee_damage", "unit_slain",
         "combat_won"]))

case("communique_answer_not_an_option",
     "A communique is answered by halting or proceeding; any other answer stops the turn.",
     "Either will have the opportunity to halt their movement adjacent to the previously "
     "contested hex.", RED_GREEN,
     red_green(decisions=[{"id": "communique:4,0:red", "choice": "attack"},
                          {"id": "communique:4,0:green", "choice": "halt"}]),
     {"legal": False, "codes": ["decision_not_an_option"], "applied": False})

S_DECISIONS = ("Game-master decisions are explicit: where the text leaves a choice to players "
               "or to the game master")

case("communique_every_wrong_answer_is_reported",
     "Both players answer the communique with something it does not offer: each answer is a "
     "violation of its own - docs/design.md: \"every violation found (not just the first)\" - and "
     "the turn stops where they were asked.", S_DECISIONS, RED_GREEN,
     red_green(decisions=[{"id": "communique:4,0:red", "choice": "attack"},
                          {"id": "communique:4,0:green", "choice": "eject"}]),
     {"legal": False, "applied": False,
      "codes": ["decision_not_an_option", "decision_not_an_option"],
      "derived": {"status": "illegal", "stopped_at": {"phase": 0, "subphase": "3e"}}})

case("communique_wrong_answer_and_missing_answer_reported_together",
     "Red answers with something the communique does not offer and Green does not answer: "
     "both are reported at once (every violation found), Green's decision pending with its "
     "options.", S_DECISIONS, RED_GREEN,
     red_green(decisions=[{"id": "communique:4,0:red", "choice": "attack"}]),
     {"legal": False, "applied": False,
      "codes": ["decision_not_an_option"],
      "derived": {"status": "illegal", "stopped_at": {"phase": 0, "subphase": "3e"},
                  "pending_decisions": [
          {"id": "communique:4,0:green", "unit": None, "player": "green",
           "options": PENDING_OPTIONS}]}})

case("communique_not_between_players_at_war",
     "Only players neither allied nor at war raise a communique: enemies stepping into the "
     "same hex simply meet there and fight.", S_COMMUNIQUE,
     state(strip(6), AT_WAR, RED_GREEN["units"]), red_green(),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "unit_moved",
         "unit_moved", "unit_moved", "combat_began", "melee_damage", "unit_slain",
         "combat_won"]))

query("communique_red_and_green_through_resolve",
      "The resolve query answers the Red-and-Green turn with the pending decisions and "
      "the trace as far as it went, in validate's shape (events, and phases counting "
      "them): phases 1 and 10 (3b, 3c, 3d, then the communique raised in 3e, phase 0, "
      "counted in the phase 10 it interrupts rather than splitting it).",
      S_COMMUNIQUE, "resolve", {"state": RED_GREEN, "orders": RED_GREEN_ORDERS},
      {"status": "pending", "resolved": False, "legal": True, "state": None,
       "violations": [],
       "events": [*ORDERS2["events"], moved("3b"), moved("3c"), moved("3d"),
                  {"kind": "communique_raised",
                   "params": {"phase": 0, "interrupts": 10, "subphase": "3e"}}],
       "phases": [{"phase": 1, "name": "orders", "events": 2},
                  {"phase": 10, "name": "movement", "events": 4}],
       "stopped_at": {"phase": 0, "subphase": "3e"},
       "pending_decisions": [{"id": "communique:4,0:red"},
                             {"id": "communique:4,0:green"}]})

query("communique_red_and_green_resolved_through_resolve",
      "The same request with both decisions (both halt) resolves the turn.", S_COMMUNIQUE,
      "resolve", {"state": RED_GREEN, "orders": RED_GREEN_ORDERS,
                  "decisions": answers("halt", "halt")},
      {"status": "resolved", "resolved": True, "legal": True, "pending_decisions": [],
       "unused_decisions": [],
       "state": {"units": [{"id": "red-cavalry", "hex": h(3)},
                           {"id": "green-archers", "hex": h(5)}]}})


# Issue 30: a communique is asked per contested hex, of each player involved
# (communique:<q>,<r>:<player>); every question knowable where the turn stops is asked at
# once; decision ids are built ahead from the orders; an answer no question takes is a 422.
S_ASKED = ("An emergency communique is made to Red and Green via SMS. Either will have the "
           "opportunity to halt their movement adjacent to the previously contested hex.")
RED_PAIR = state(strip(6), TWO, [
    *RED_GREEN["units"], unit("red-infantry", "red", 3, move=1)])
RED_PAIR_ORDERS = [*RED_GREEN_ORDERS, move("red", "red-infantry", 4)]

case("communique_asked_per_hex_of_each_player",
     "Red's cavalry and Red's infantry both end their paths on (4,0) in 3e, with Green's "
     "archers: one communique about (4,0), one question to each player (not one per unit), "
     "each naming every unit and player involved.", S_ASKED, RED_PAIR,
     resolve(*RED_PAIR_ORDERS),
     {"legal": True, "applied": False, "codes": [],
      "derived": {"status": "pending", "stopped_at": {"phase": 0, "subphase": "3e"},
                  "pending_decisions": [
          {"id": "communique:4,0:red", "kind": "communique", "unit": None, "player": "red",
           "players": ["red", "green"], "hex": h(4),
           "units": ["red-cavalry", "green-archers", "red-infantry"],
           "options": PENDING_OPTIONS},
          {"id": "communique:4,0:green", "player": "green", "players": ["red", "green"],
           "options": PENDING_OPTIONS}]}})

case("communique_one_answer_halts_all_the_players_units",
     "Red halts: both its units stop beside (4,0), on (3,0), partly carried out; Green "
     "proceeds alone onto the hex and no war is declared. The cavalry halted on its own "
     "infantry's hex, so logistics ejects it (the one that moved) back to (2,0).",
     S_ASKED, RED_PAIR,
     resolve(*RED_PAIR_ORDERS, decisions=[{"id": "communique:4,0:red", "choice": "halt"},
                                          {"id": "communique:4,0:green",
                                           "choice": "proceed"}]),
     ok(["orders_received", "orders_received", "unit_moved", "unit_moved", "unit_moved",
         "communique_raised", "communique_answered", "communique_answered",
         "communique_answered", "unit_moved", "unit_ejected"],
        state={"units": [{"id": "red-cavalry", "hex": h(2)},
                         {"id": "green-archers", "hex": h(4)},
                         {"id": "red-infantry", "hex": h(3)}]},
        derived={"results": [result("partly_carried_out", "ejected", steps=2, hex=h(2)),
                             result("carried_out", "moved"),
                             result("partly_carried_out", "halted_by_communique",
                                    steps=0)]}))

# The closing note's two-round turn: a communique in 3e, and Red's two foot units meeting
# on (1,1) - an ejection in phase 11 whatever the communique's answers.
TWO_ROUNDS = state(grid(6, 2), TWO, [
    *RED_GREEN["units"], unit("b1", "red", (0, 1), move=1), unit("b2", "red", (2, 1), move=1)])
TWO_ROUNDS_ORDERS = [*RED_GREEN_ORDERS, move("red", "b1", (1, 1)), move("red", "b2", (1, 1))]
EJECT_B2 = {"id": "ejection:1,1:1", "choice": "eject", "unit": "b2"}

case("decisions_knowable_now_are_asked_at_once",
     "The turn stops at the communique in 3e; resolved under each of its four answers, it "
     "would next stop in phase 11 for the same question, which of b1 and b2 leaves (1,1): "
     "that question does not depend on the communique, so it is asked now too, with its "
     "phase - one round trip instead of two.", S_DECISIONS, TWO_ROUNDS,
     resolve(*TWO_ROUNDS_ORDERS),
     {"legal": True, "applied": False, "codes": [],
      "derived": {"status": "pending", "stopped_at": {"phase": 0, "subphase": "3e"},
                  "pending_decisions": [
          {"id": "communique:4,0:red", "phase": 0}, {"id": "communique:4,0:green", "phase": 0},
          {"id": "ejection:1,1:1", "kind": "ejection", "phase": 11, "player": "red",
           "units": ["b1", "b2"], "options": [{"choice": "eject", "unit": "b1"},
                                              {"choice": "eject", "unit": "b2"}]}]}})

case("decisions_one_round_with_the_fallback_and_an_id_built_ahead",
     "The game master cannot reach the players: the original orders are followed for the "
     "communique (both proceed: war, and melee on (4,0)), and the ejection, its id built "
     "from the orders (the first unit ejected from (1,1)), comes with the request: the turn "
     "resolves in one round.",
     "If that is not possible the GM must follow the original orders given by the players "
     "as best as possible to resolve the turn.", TWO_ROUNDS,
     resolve(*TWO_ROUNDS_ORDERS, unanswered_communiques="follow_orders", decisions=[EJECT_B2]),
     ok(state={"units": [{"id": "red-cavalry", "hex": h(4)}, {"id": "b1", "hex": h(1, 1)},
                         {"id": "b2", "hex": h(2, 1)}]},
        derived={"status": "resolved", "unused_decisions": []}))

case("decision_id_of_no_form_is_refused",
     "An answer under an id of none of the forms (here the old per-unit communique id) is "
     "no answer to any question: a 422 at the id, not an answer silently waiting.",
     S_DECISIONS, RED_GREEN,
     red_green(decisions=[{"id": "communique:red-cavalry", "choice": "halt"}]),
     malformed("/action/decisions/0/id"))

case("decision_communique_where_no_move_of_the_player_ends_is_refused",
     "A communique is asked only on a hex where a move of the player ends: an answer for "
     "(3,0), where none does, can never be taken.", S_DECISIONS, RED_GREEN,
     red_green(decisions=[{"id": "communique:3,0:red", "choice": "halt"}]),
     malformed("/action/decisions/0/id"))

case("decision_the_turn_went_past_without_asking_is_refused",
     "Both players answer and the turn resolves without an ejection from (0,0): the answer "
     "given for it was never asked, a 422 at its id (a typo is told at once).",
     S_DECISIONS, RED_GREEN,
     red_green(decisions=[*answers("halt", "halt"),
                          {"id": "ejection:0,0:1", "choice": "eject", "unit": "red-cavalry"}]),
     malformed("/action/decisions/2/id"))


# Decision ids: archer:<archer>:<flyer> is built from unit ids, so a unit id may hold
# neither ':' nor '+' (a 422 at the id): with 'b:c' and 'a:b' the two questions below would
# both read archer:a:b:c.
S_RESEND = ("the request may carry the decision; when it does not, the service stops at that "
            "point and returns the pending decisions, each with its options, instead of "
            "guessing. Re-sending the request with the decisions resolves the turn.")
TWO_ARCHERS = state(grid(4, 3), players("red", "blue", war=(("red", "blue"),)), [
    unit("b.c", "red", (0, 0), move=4, flying=True), unit("a", "blue", (1, 0), archer=True,
                                                           range=1),
    unit("c", "red", (0, 2), move=4, flying=True), unit("a.b", "blue", (1, 2), archer=True,
                                                         range=1)])
TWO_ARCHERS_ORDERS = [move("red", "b.c", (1, 0), (2, 0)), move("red", "c", (1, 2), (2, 2))]

case("decision_ids_two_archers_two_ids",
     "Blue's archer a is flown over by Red's b.c and Blue's archer a.b by Red's c, both in "
     "3b: two questions, with two ids (archer:a:b.c, archer:a.b:c), so Blue can answer them "
     "differently.", S_RESEND, TWO_ARCHERS, resolve(*TWO_ARCHERS_ORDERS),
     {"legal": True, "applied": False, "codes": [],
      "derived": {"status": "pending", "stopped_at": {"phase": 10, "subphase": "3b"},
                  "pending_decisions": [
          {"id": "archer:a:b.c", "unit": "a", "player": "blue", "units": ["a", "b.c"]},
          {"id": "archer:a.b:c", "unit": "a.b", "player": "blue", "units": ["a.b", "c"]}]}})

case("decision_ids_two_archers_answered_differently",
     "Blue's archer a attacks b.c (it halts on a's hex after 1 step) and a.b lets c pass "
     "(it ends its 2-step path): each answer settles its own question.", S_RESEND,
     TWO_ARCHERS,
     resolve(*TWO_ARCHERS_ORDERS, decisions=[{"id": "archer:a:b.c", "choice": "attack"},
                                             {"id": "archer:a.b:c", "choice": "let_pass"}]),
     ok(derived={"unused_decisions": [], "results": [
         result("partly_carried_out", "halted_by_archer", steps=1, hex=h(1, 0),
                params={"archer": "a"}),
         result("carried_out", "moved", steps=2, hex=h(2, 2))]}))

case("decision_ids_unit_ids_may_not_hold_a_separator",
     "A unit id holding ':' or '+', the separators of the decision ids, is malformed (422 at "
     "the id): with it two decisions could share an id, and an answer could not say which "
     "question it settles.", S_RESEND,
     state(strip(4), TWO, [unit("f:1", "red", 0), unit("a+b", "green", 2),
                           unit("ok.1", "green", 3)]),
     resolve(), malformed("/state/units/0/id", "/state/units/1/id"))

case("decision_ids_new_unit_id_may_not_hold_a_separator",
     "A commissioned unit's id may not hold ':' or '+' either (422 at new_unit).", S_RESEND,
     state(strip(2), players("red"), [], strongholds=[stronghold("s", "red", 0, resources=5)],
           unit_types=[SPEARMEN]),
     resolve(order("commission", "red", "s", unit_type="spearmen", new_unit="new:1")),
     malformed("/action/orders/0/new_unit"))

"""The golden cases of phased_orders, written as small boards, each with the sentence of
../shared/rules/phased_orders.md it is built from and its expected verdict, trace and
order results, worked out by hand from that sentence and the reading the ruleset
documents (never recorded from the engine's output).

`python -m tests.rulesets.phased_orders_cases` writes tests/cases/phased_orders/*.json;
tests/rulesets/test_phased_orders.py checks the committed files match this module. This
module holds the helpers and phases 1 to 6; phases 7 to 10 are in
``phased_orders_cases_spells_to_movement``, phases 10b to 19 and the queries in
``phased_orders_cases_predation_to_income``.

Most boards are a strip of hexes (q = 0, 1, 2, ... on r = 0, each the neighbour of the
next), so a path reads as a list of numbers. Units in these cases have free upkeep unless
a case is about upkeep, and players hold no resources unless a case needs them, so the
trace shows only the phase a case is about. Seeds: the ruleset draws with SplitMix64
(arbiter.engine.rng.SeededRng) and ``below(n)`` by rejection; where a case draws, its
description gives the draws.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "cases" / "phased_orders"
CASES: list[tuple[str, dict[str, Any]]] = []
Json = dict[str, Any]


def h(q: int, r: int = 0) -> dict[str, int]:
    return {"q": q, "r": r}


def strip(n: int, roads: tuple[int, ...] = ()) -> list[Json]:
    return [{"q": q, "r": 0, **({"road": True} if q in roads else {})} for q in range(n)]


def grid(width: int, height: int) -> list[Json]:
    return [{"q": q, "r": r} for r in range(height) for q in range(width)]


def at(spot: int | tuple[int, int]) -> dict[str, int]:
    return h(spot) if isinstance(spot, int) else h(*spot)


def unit(id: str, owner: str, spot: int | tuple[int, int], move: int = 2, hp: int = 3,
         strength: int = 1, **extra: Any) -> Json:
    out: Json = {"id": id, "owner": owner, "type": extra.pop("type", "infantry"),
                 "hex": at(spot), "move": move, "hit_points": hp,
                 "max_hit_points": extra.pop("max_hp", hp), "strength": strength,
                 "free_upkeep": extra.pop("free_upkeep", True)}
    out.update(extra)
    return out


def caravan(id: str, owner: str, spot: int | tuple[int, int], durability: int = 3,
            resources: int = 0, **extra: Any) -> Json:
    return unit(id, owner, spot, type="caravan", hp=2, caravan={
        "durability": durability, "resources": resources}, **extra)


def stronghold(id: str, owner: str, spot: int | tuple[int, int], resources: int = 0,
               maximum: int = 10, capital: bool = False) -> Json:
    out: Json = {"id": id, "owner": owner, "hex": at(spot), "resources": resources,
                 "maximum": maximum}
    if capital:
        out["capital"] = True
    return out


def players(*ids: str, allied: tuple[tuple[str, str], ...] = (),
            war: tuple[tuple[str, str], ...] = (), **pools: tuple[int, int]) -> list[Json]:
    """Players with symmetric relations; ``red=(resources, gems)``."""
    out = []
    for pid in ids:
        relations = {}
        for stance, pairs in (("allied", allied), ("war", war)):
            for a, b in pairs:
                if pid in (a, b):
                    relations[b if pid == a else a] = stance
        resources, gems = pools.get(pid, (0, 0))
        p: Json = {"id": pid}
        if resources:
            p["resources"] = resources
        if gems:
            p["gems"] = gems
        if relations:
            p["relations"] = relations
        out.append(p)
    return out


def state(hexes: list[Json], pls: list[Json], units: list[Json], **extra: Any) -> Json:
    return {"hexes": hexes, "players": pls, "units": units, **extra}


def order(kind: str, player: str, subject: str, **extra: Any) -> Json:
    key = "stronghold" if kind == "commission" else "unit"
    return {"order": kind, "player": player, key: subject, **extra}


def move(player: str, subject: str, *path: int | tuple[int, int]) -> Json:
    return order("move", player, subject, path=[at(p) for p in path])


def resolve(*orders: Json, **extra: Any) -> Json:
    return {"type": "resolve", "orders": list(orders), **extra}


def case(name: str, description: str, source: str, st: Json, action: Json,
         expect: Json, mode: str | None = None) -> None:
    body: Json = {"description": description, "source": source, "state": st,
                  "action": action}
    if mode:
        body["mode"] = mode
    body["expect"] = expect
    CASES.append((name, body))


def query(name: str, description: str, source: str, q: str, request: Json, expect: Json
          ) -> None:
    CASES.append((name, {"description": description, "source": source, "query": q,
                         "request": request, "expect": expect}))


def ok(events: list[str] | None = None, **rest: Any) -> Json:
    """A legal, applied turn."""
    out: Json = {"legal": True, "codes": [], "applied": True}
    if events is not None:
        out["events"] = events
    out.update(rest)
    return out


def result(status: str, code: str, **rest: Any) -> Json:
    return {"status": status, "code": code, **rest}


def malformed(*pointers: str) -> Json:
    return {"status": 422, "pointers": list(pointers)}


def write() -> None:
    from . import phased_orders_cases_spells_to_movement  # noqa: F401  (registers the later phases)

    OUT.mkdir(parents=True, exist_ok=True)
    names = {name for name, _ in CASES}
    if len(names) != len(CASES):
        raise ValueError("a case name is used twice")
    for old in OUT.glob("*.json"):
        if old.stem not in names:
            old.unlink()
    for name, body in CASES:
        (OUT / f"{name}.json").write_text(json.dumps(body, indent=1) + "\n")


# ==========================================================================================
# Phase 1 - Orders
# ==========================================================================================
S_ORDERS = "1 – Orders: Players give an order to each of their units and strongholds."

TWO = players("red", "green")

case("orders_malformed_unit_not_owned",
     "Red orders Green's unit: a malformed order, 422 at the order's unit.", S_ORDERS,
     state(strip(3), TWO, [unit("r", "red", 0), unit("g", "green", 2)]),
     resolve(move("red", "g", 1)), malformed("/action/orders/0/unit"))

case("orders_malformed_path_not_contiguous",
     "A path whose second hex is not adjacent to its first is malformed, 422 at that hex.",
     S_ORDERS, state(strip(4), TWO, [unit("r", "red", 0, move=3)]),
     resolve(move("red", "r", 1, 3)), malformed("/action/orders/0/path/1"))

case("orders_malformed_path_first_hex_not_adjacent",
     "A path starts next to the unit: one that starts two hexes away is malformed.",
     S_ORDERS, state(strip(4), TWO, [unit("r", "red", 0, move=3)]),
     resolve(move("red", "r", 2, 3)), malformed("/action/orders/0/path/0"))

case("orders_malformed_path_off_the_map",
     "A path through a hex the map does not have is malformed.", S_ORDERS,
     state(strip(3), TWO, [unit("r", "red", 0, move=3)]),
     resolve(move("red", "r", 1, 2, 3)), malformed("/action/orders/0/path/2"))

case("orders_malformed_two_orders_for_one_unit",
     "One order per unit: a second order for the same unit is malformed, 422 at it.",
     S_ORDERS, state(strip(3), TWO, [unit("r", "red", 0)]),
     resolve(move("red", "r", 1), order("hold", "red", "r")),
     malformed("/action/orders/1/unit"))

case("orders_malformed_two_orders_for_one_stronghold",
     "One order per stronghold: two commissions at one stronghold are malformed.",
     S_ORDERS, state(strip(3), TWO, [], strongholds=[stronghold("keep", "red", 0, 9)],
                     unit_types=[{"id": "spearmen", "cost": 3, "move": 2, "hit_points": 3,
                                  "strength": 2}]),
     resolve(order("commission", "red", "keep", unit_type="spearmen", new_unit="s1"),
             order("commission", "red", "keep", unit_type="spearmen", new_unit="s2")),
     malformed("/action/orders/1/stronghold"))

case("orders_malformed_unknown_references",
     "An order naming a player, target, spell or unit type the state does not hold is "
     "malformed, every bad field named at once.", S_ORDERS,
     state(strip(3), TWO, [unit("r", "red", 0, archer=True, range=2)],
           strongholds=[stronghold("keep", "red", 1)]),
     resolve(order("hold", "blue", "r"),
             order("ranged_attack", "red", "r", target="ghost"),
             order("commission", "red", "keep", unit_type="dragons", new_unit="d1")),
     malformed("/action/orders/0/player", "/action/orders/1/target",
               "/action/orders/2/unit_type"))

case("orders_malformed_new_unit_id_taken",
     "A commissioned unit needs an id no unit has.", S_ORDERS,
     state(strip(3), TWO, [unit("r", "red", 0)], strongholds=[stronghold("keep", "red", 1, 9)],
           unit_types=[{"id": "spearmen", "cost": 3, "move": 2, "hit_points": 3,
                        "strength": 2}]),
     resolve(order("commission", "red", "keep", unit_type="spearmen", new_unit="r")),
     malformed("/action/orders/0/new_unit"))

case("orders_malformed_change_sides_to_own_player",
     "A unit changes sides to another player; to its own owner is no order.", S_ORDERS,
     state(strip(3), TWO, [unit("r", "red", 0)]),
     resolve(order("change_sides", "red", "r", to="red")), malformed("/action/orders/0/to"))

# Issue 30: a pointer names the field in the body of the route it answers - /action/orders/0/...
# in validate's body, /orders/0/... in the resolve query's - with no union tag in it.
ORDERS_ONLY = state(strip(3), TWO, [unit("r", "red", 0), unit("g", "green", 2)])

query("orders_malformed_through_resolve_points_into_its_body",
      "Red orders Green's unit through the resolve query: the 422 points at the order's "
      "unit where the resolve body holds it, /orders/0/unit (not validate's /action/...).",
      S_ORDERS, "resolve", {"state": ORDERS_ONLY, "orders": [move("red", "g", 1)]},
      malformed("/orders/0/unit"))

query("decision_refused_through_resolve_points_into_its_body",
      "An answer under an id of no form, sent to the resolve query: the 422 is at "
      "/decisions/0/id, where its body holds the answer.", S_ORDERS, "resolve",
      {"state": ORDERS_ONLY, "orders": [move("red", "r", 1)],
       "decisions": [{"id": "communique:r", "choice": "halt"}]},
      malformed("/decisions/0/id"))

case("orders_without_a_player_point_at_the_field_not_the_tag",
     "An order without its player: the pointer names the missing field in the order, "
     "/action/orders/0/player, with no 'move' (the union's tag) in it, as GraphQL's does.",
     S_ORDERS, ORDERS_ONLY,
     resolve({"order": "move", "unit": "r", "path": [at(1)]}),
     malformed("/action/orders/0/player"))

query("orders_without_a_player_through_resolve",
      "The same order through the resolve query: /orders/0/player.", S_ORDERS, "resolve",
      {"state": ORDERS_ONLY, "orders": [{"order": "move", "unit": "r", "path": [at(1)]}]},
      malformed("/orders/0/player"))

case("orders_unordered_units_do_nothing",
     "Units and strongholds without an order do nothing; the answer lists them.", S_ORDERS,
     state(strip(4), TWO, [unit("r", "red", 0), unit("g", "green", 3)],
           strongholds=[stronghold("keep", "green", 2, maximum=9)]),
     resolve(move("red", "r", 1)),
     ok(["orders_received", "unit_moved", "income_generated"],
        derived={"unordered": ["g", "keep"],
                 "results": [result("carried_out", "moved", steps=1, hex=h(1))]},
        state={"units": [{"id": "r", "hex": h(1)}, {"id": "g", "hex": h(3)}]}))

case("orders_hold_is_carried_out",
     "A unit ordered to hold holds, and its order is carried out (at full health it has "
     "nothing to recuperate).", S_ORDERS,
     state(strip(2), TWO, [unit("r", "red", 0)]),
     resolve(order("hold", "red", "r")),
     ok(["orders_received"], derived={"results": [result("carried_out", "held", phase=13)]}))

case("orders_submit_checks_one_players_orders",
     "A player's orders can be checked alone before the turn (submit): legal, the state "
     "unchanged, the units still without an order listed.", S_ORDERS,
     state(strip(3), TWO, [unit("r", "red", 0), unit("r2", "red", 2), unit("g", "green", 1)]),
     {"type": "submit", "player": "red", "orders": [move("red", "r", 1)]},
     ok([], derived={"orders": 1, "refused": [], "unordered": ["r2"]},
        state={"units": [{"id": "r", "hex": h(0)}, {"id": "r2"}, {"id": "g"}]}))

case("orders_submit_refuses_another_players_order",
     "A submission holds the orders of the player who submits it.", S_ORDERS,
     state(strip(3), TWO, [unit("r", "red", 0), unit("g", "green", 2)]),
     {"type": "submit", "player": "red", "orders": [move("green", "g", 1)]},
     malformed("/action/orders/0/player"))

case("orders_submit_reports_rule_breaches",
     "A submitted order that breaks a rule (a path longer than the unit's move) is a "
     "violation, as it would be in the turn.", S_ORDERS,
     state(strip(4), TWO, [unit("r", "red", 0, move=2)]),
     {"type": "submit", "player": "red", "orders": [move("red", "r", 1, 2, 3)]},
     {"legal": False, "codes": ["path_too_long"], "applied": False,
      "derived": {"refused": [0]}})

case("state_malformed_two_units_on_one_hex",
     "No turn leaves two units on one hex: a state with two is malformed.", S_ORDERS,
     state(strip(3), TWO, [unit("r", "red", 1), unit("g", "green", 1)]), resolve(),
     malformed("/state/units/1/hex"))

case("state_malformed_asymmetric_relations",
     "Allied, at war or neither is one relation between two players, listed alike from "
     "both ends.", S_ORDERS,
     state(strip(2), [{"id": "red", "relations": {"green": "allied"}},
                      {"id": "green", "relations": {"red": "war"}}], []), resolve(),
     malformed("/state/players/0/relations/green", "/state/players/1/relations/red"))

case("state_malformed_reserved_owner_and_bad_refs",
     "'bandits' and 'undead' own the units no player controls; a unit's hex, owner and "
     "spells must exist, its hit points within its maximum.", S_ORDERS,
     state(strip(2), [{"id": "bandits"}, {"id": "red"}],
           [unit("r", "blue", 5, spells=["fireball"]),
            unit("s", "red", 0, hp=4, max_hp=3)]), resolve(),
     malformed("/state/players/0/id", "/state/units/0/owner", "/state/units/0/hex",
               "/state/units/0/spells/0", "/state/units/1/hit_points"))

case("turn_data_malformed",
     "Decisions listed twice, combat results off the map, level ups of units the state "
     "does not hold are malformed.", S_ORDERS,
     state(strip(2), TWO, [unit("r", "red", 0)]),
     resolve(decisions=[{"id": "placement:r", "choice": "disband"},
                        {"id": "placement:r", "choice": "disband"}],
             combat_results=[{"hex": h(7), "survivors": []}],
             level_ups=[{"unit": "ghost"}]),
     malformed("/action/decisions/1/id", "/action/combat_results/0/hex",
               "/action/level_ups/0/unit"))

# ==========================================================================================
# Phase 2 - Disband (and healing spells)
# ==========================================================================================
S_DISBAND = "2 – Disband: Units ordered to disband disband in this phase."
S_SPELL_HEAL = "Healing caused by a spell happens in phase 2."
MEND = {"id": "mend", "gems": 2, "range": 2, "effect": "heal", "amount": 2}

case("disband_unit_ordered_to_disband",
     "A unit ordered to disband leaves the board in phase 2.", S_DISBAND,
     state(strip(3), TWO, [unit("r", "red", 0), unit("g", "green", 2)]),
     resolve(order("disband", "red", "r")),
     ok(["orders_received", "unit_disbanded"],
        state={"units": [{"id": "g"}]},
        derived={"results": [result("carried_out", "disbanded", phase=2)]}))

case("disband_heal_spell_heals_in_phase_2",
     "A healing spell heals in phase 2, before the rest of the spells: the caster's "
     "player pays its gems (2 of 3), the wounded ally recovers 2 hit points (1 -> 3, its "
     "maximum 4).", S_SPELL_HEAL,
     state(strip(3), players("red", "green", red=(0, 3)),
           [unit("mage", "red", 0, spells=["mend"]), unit("w", "red", 1, hp=1, max_hp=4)],
           spells=[MEND]),
     resolve(order("cast", "red", "mage", spell="mend", target="w")),
     ok(["orders_received", "spell_healed"],
        state={"units": [{"id": "mage"}, {"id": "w", "hit_points": 3}],
               "players": [{"id": "red", "gems": 1}, {"id": "green"}]},
        derived={"results": [result("carried_out", "spell_healed", phase=2)]}))

case("disband_heal_spell_target_disbanded_first",
     "Disbands come first in phase 2: a heal cast on a unit that disbands finds no "
     "target, fails and costs nothing.", S_SPELL_HEAL,
     state(strip(3), players("red", "green", red=(0, 3)),
           [unit("mage", "red", 0, spells=["mend"]), unit("w", "red", 1, hp=1)],
           spells=[MEND]),
     resolve(order("cast", "red", "mage", spell="mend", target="w"),
             order("disband", "red", "w")),
     ok(["orders_received", "unit_disbanded"],
        state={"players": [{"id": "red", "gems": 3}, {"id": "green"}]},
        derived={"results": [result("failed", "target_lost", params={
            "target": "w", "by_phase": 2}), result("carried_out", "disbanded")]}))

# ==========================================================================================
# Phase 3 - Rot & Ruin
# ==========================================================================================
S_ROT = ("3 – Rot & Ruin: Caravans suffer one point of Rot & Ruin damage in this phase. If "
         "they have none left, they lose 1 Resource. If they have no Resources, then they "
         "are disbanded.")

case("rot_caravan_loses_durability",
     "A caravan with durability left loses one point of it.", S_ROT,
     state(strip(2), TWO, [caravan("c", "red", 0, durability=2, resources=3)]), resolve(),
     ok(["caravan_rotted"],
        state={"units": [{"id": "c", "caravan": {"durability": 1, "resources": 3}}]}))

case("rot_caravan_without_durability_loses_a_resource",
     "A caravan with no durability left loses a resource instead.", S_ROT,
     state(strip(2), TWO, [caravan("c", "red", 0, durability=0, resources=2)]), resolve(),
     ok(["caravan_lost_resource"],
        state={"units": [{"id": "c", "caravan": {"durability": 0, "resources": 1}}]}))

case("rot_caravan_with_nothing_left_disbanded",
     "A caravan with neither durability nor resources is disbanded in phase 3; its order "
     "(to move, in phase 10) fails: the unit was lost in phase 3.", S_ROT,
     state(strip(3), TWO, [caravan("c", "red", 0, durability=0, resources=0),
                           caravan("d", "red", 2, durability=1, resources=0)]),
     resolve(move("red", "c", 1)),
     ok(["orders_received", "caravan_disbanded", "caravan_rotted"],
        state={"units": [{"id": "d", "caravan": {"durability": 0, "resources": 0}}]},
        derived={"results": [result("failed", "unit_lost", phase=10,
                                    params={"unit": "c", "lost_in": 3})]}))

# ==========================================================================================
# Phases 4 and 5 - Upkeep and Starvation
# ==========================================================================================
S_UPKEEP = "4 – Upkeep: Each unit that does not have free upkeep incurs a 1 resource charge."
S_STARVE = ("5 – Starvation: If player could not pay the entirety of their upkeep in Phase "
            "4, the difference in armies are disbanded at random. Armies disbanded in this "
            "way are guaranteed to become Bandits.")

case("upkeep_charged_per_unit_without_free_upkeep",
     "Three units, one with free upkeep: Red's pool of 5 pays 2.", S_UPKEEP,
     state(strip(4), players("red", "green", red=(5, 0)),
           [unit("a", "red", 0, free_upkeep=False), unit("b", "red", 1, free_upkeep=False),
            unit("c", "red", 2)]), resolve(),
     ok(["upkeep_charged"], state={"players": [{"id": "red", "resources": 3}, {"id": "green"}]},
        reversible=True))

case("upkeep_caravans_pay_too",
     "A caravan is a unit: without free upkeep it costs 1 like any other.", S_UPKEEP,
     state(strip(3), players("red", "green", red=(4, 0)),
           [caravan("c", "red", 0, free_upkeep=False), unit("a", "red", 1, free_upkeep=False)]),
     resolve(),
     ok(["caravan_rotted", "upkeep_charged"],
        state={"players": [{"id": "red", "resources": 2}, {"id": "green"}]}))

case("starvation_disbands_the_unpaid_difference_at_random",
     "Red owes 3 and holds 1: the pool pays 1 (down to 0), 2 armies starve, drawn from the "
     "seed (7: below(3) = 0 -> a, then below(2) = 0 -> b, of the armies left in state "
     "order); the free-upkeep unit is safe. Each becomes a bandit in phase 16 where it "
     "stood. The turn drew: it is not reversible.", S_STARVE,
     state(strip(6), players("red", "green", red=(1, 0)),
           [unit("a", "red", 0, free_upkeep=False), unit("b", "red", 2, free_upkeep=False),
            unit("c", "red", 4, free_upkeep=False), unit("d", "red", 5)], rng=7),
     resolve(),
     ok(["upkeep_charged", "unit_starved", "unit_starved", "bandit_spawned", "bandit_spawned"],
        reversible=False,
        state={"players": [{"id": "red", "resources": 0}, {"id": "green"}],
               "units": [{"id": "c", "owner": "red"}, {"id": "d", "owner": "red"},
                         {"id": "a", "owner": "bandits", "hex": h(0)},
                         {"id": "b", "owner": "bandits", "hex": h(2)}]}))

case("starvation_spares_caravans_and_stops_at_the_armies",
     "Red owes 3 and holds nothing; two armies and a caravan (no free upkeep) are charged. "
     "Only armies starve: both of them, although 3 were unpaid; the caravan stays. With "
     "two armies and two to starve, the seed (7) draws below(2) = 1 -> b, below(1) = 0 -> a.",
     S_STARVE,
     state(strip(4), TWO,
           [unit("a", "red", 0, free_upkeep=False), unit("b", "red", 1, free_upkeep=False),
            caravan("c", "red", 3, free_upkeep=False)], rng=7),
     resolve(),
     ok(["caravan_rotted", "upkeep_charged", "unit_starved", "unit_starved",
         "bandit_spawned", "bandit_spawned"],
        state={"units": [{"id": "c", "owner": "red"}, {"id": "b", "owner": "bandits"},
                         {"id": "a", "owner": "bandits"}]}))

# ==========================================================================================
# Phase 6 - Commission
# ==========================================================================================
S_COMMISSION = ("6 – Commission: Players that order strongholds to produce armies pay for "
                "the armies in this phase.")
SPEARMEN = {"id": "spearmen", "cost": 3, "move": 2, "hit_points": 3, "strength": 2}

case("commission_paid_by_the_stronghold",
     "A stronghold ordered to produce spearmen (cost 3) pays from its 4 resources in phase "
     "6; the unit appears on the stronghold in phase 15. Income (3) comes in phase 19.",
     S_COMMISSION,
     state(strip(3), TWO, [], strongholds=[stronghold("keep", "red", 1, 4)],
           unit_types=[SPEARMEN]),
     resolve(order("commission", "red", "keep", unit_type="spearmen", new_unit="s1")),
     ok(["orders_received", "unit_commissioned", "unit_created", "income_generated"],
        state={"strongholds": [{"id": "keep", "resources": 4}],
               "units": [{"id": "s1", "owner": "red", "type": "spearmen", "hex": h(1),
                          "hit_points": 3, "max_hit_points": 3, "strength": 2}]},
        derived={"results": [result("carried_out", "commissioned", phase=6)]}))

case("commission_cannot_afford",
     "A stronghold holding 2 cannot pay 3: it pays nothing and produces nothing.",
     S_COMMISSION,
     state(strip(3), TWO, [], strongholds=[stronghold("keep", "red", 1, 2)],
           unit_types=[SPEARMEN]),
     resolve(order("commission", "red", "keep", unit_type="spearmen", new_unit="s1")),
     ok(["orders_received", "income_generated"],
        state={"strongholds": [{"id": "keep", "resources": 5}], "units": []},
        derived={"results": [result("failed", "cannot_afford", params={
            "stronghold": "keep", "cost": 3, "unit_type": "spearmen", "payer": "keep",
            "available": 2})]}))

case("commission_paid_from_the_pool_option",
     "With the option commission_paid_from = player, the player's pool pays (5 -> 2) and "
     "the stronghold's resources are untouched (0, then 3 income).", S_COMMISSION,
     state(strip(3), players("red", "green", red=(5, 0)), [],
           strongholds=[stronghold("keep", "red", 1, 0)], unit_types=[SPEARMEN],
           options={"commission_paid_from": "player"}),
     resolve(order("commission", "red", "keep", unit_type="spearmen", new_unit="s1")),
     ok(["orders_received", "unit_commissioned", "unit_created", "income_generated"],
        state={"players": [{"id": "red", "resources": 2}, {"id": "green"}],
               "strongholds": [{"id": "keep", "resources": 3}]}))

case("commission_after_upkeep",
     "Upkeep (phase 4) comes before the commission (phase 6): with the pool paying, a pool "
     "of 4 pays 2 upkeep and is left 2, short of the spearmen's 3.", S_COMMISSION,
     state(strip(3), players("red", "green", red=(4, 0)),
           [unit("a", "red", 0, free_upkeep=False), unit("b", "red", 2, free_upkeep=False)],
           strongholds=[stronghold("keep", "red", 1, 0)], unit_types=[SPEARMEN],
           options={"commission_paid_from": "player"}),
     resolve(order("commission", "red", "keep", unit_type="spearmen", new_unit="s1")),
     ok(["orders_received", "upkeep_charged", "income_generated"],
        derived={"results": [result("failed", "cannot_afford",
                                    params={"payer": "red", "available": 2})]}))


if __name__ == "__main__":
    # Run as a module, this file is __main__; the cases register in the package's copy.
    from tests.rulesets import phased_orders_cases as package_copy

    package_copy.write()

"""The golden cases of territory_conquest, each with the sentence of the source text it is
built from and its expected verdict, worked out by hand from that sentence on the
illustrative board of territory_conquest_boards.py (never recorded from the engine).

`python -m rulesets.test_territory_conquest_cases` (from tests/) writes
tests/cases/territory_conquest/*.json; the tests below check the committed files match
this module. That every quoted source sentence is verbatim in the source text is checked
outside the suite, where the source texts are (.ci/source_texts/test_quoted_sources.py).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from .territory_conquest_boards import (
    ADJACENT,
    BLUE,
    RED,
    WORKED_EXAMPLE_MOVE,
    mid_phase_state,
    player,
    setup_state,
    state,
    worked_example_state,
)

OUT = Path(__file__).resolve().parents[1] / "cases" / "territory_conquest"

# --- sentences of the source text --------------------------------------------------------

S_ORDER = ("The player with more Soldier tokens goes first. If it is a tie, the 1st player "
           "for the Round goes first.")
S_ALTERNATE = ("You take one action, then your opponent takes one action; then you, then "
               "your opponent, and so on....")
S_BOTH_STOP = ("Continue like this until both you and your opponent have Stopped Your "
               "Conquest one after the other.")
S_STOP_NOTHING = "When you stop your conquest, you do nothing."
S_CARRY_ON = ("If your opponent Recruit or Move their armies, you will be able to carry on "
              "playing.")
S_STOP_ENDS = ("If your opponent Stops Their Conquest just after you have, it ends the "
               "Conquest phase.")
S_RECRUIT = ("Spend 1 Soldier token per army you wish to recruit, then take that number of "
             "Army pawns from your reserve, and place them in your castle's territory.")
S_RESERVE_EMPTY = "You cannot recruit if all of your armies are already on the board."
S_ADJACENT = "Choose a destination territory and any number of your adjacent territories."
S_MOVE_PAY = ("Spend 1 Soldier token per army you wish to move from your starting "
              "territories, then move these armies to the destination territory.")
S_MAJORITY = ("You can only move into the territory if the number of armies you move into it "
              "is greater than the number of enemy armies already there.")
S_LOSSES = ("All enemy armies in the destination territory return to their castle, and you "
            "return the same number of armies from this territory to your castle (in other "
            "words, equal \u201closses\u201d for both sides).")
S_CASTLE = "Remember: You cannot move your Army pawns onto your opponent\u2019s castle."
S_CONTROL = ("You always have control of your castle (even if you have no more Army pawns "
             "there). You cannot seize control of your opponent's castle.")
S_ONE_PER_LOCATION = ("There is no limit to the number of Army pawns you can have in a single "
                      "territory; however, each bonus location can only accommodate a single "
                      "Army pawn.")
S_DIVIDE = ("When you have armies in a territory, you can divide them up among bonus "
            "locations in the territory in order to take advantage of their bonuses (see the "
            "Bonus Effects list).")
S_LOSE_BONUS = ("If you remove an army from a bonus location, or this army is returned to "
                "your castle, you immediately lose the bonus effect associated with this "
                "location. If it was a Trap or Spy token, you must discard the corresponding "
                "token.")
S_DOUBLE = ("Double move: During a Move Armies action, after having chosen the destination "
            "territory, you can choose your starting territories not only from those adjacent "
            "to it, but also from your territories adjacent to those.")
S_DOUBLE_ENEMY = ("Thus your Army pawns can move 2 territories at once, as long as they do "
                  "not move through enemy territories this way.")
S_SEA = ("Seas work just like land territories, and their shores are their borders with land "
         "territories.")
S_SETUP = ("Take the 12 Army pawns of your color, and place 4 of them on your side of the "
           "board, as indicated in the diagram (1 on each space of the territories beside the "
           "castle).")
S_ONE_PLAYER = "Each territory can only be controlled by one player at a time."
S_TRAPS = ("Do not take any Trap tokens by default (you only have them if you control the "
           "appropriate bonus locations).")
S_PRODUCTION = ("During the Production phase, count not only the icons on the cards "
                "constructed in your Duchy, but also those from the bonus locations you "
                "control, as well as those in your Castle territory.")
S_VICTORY = ("In each territory, the number in your color indicates the number of gross "
             "victory points it earns you if you control it.")
S_EXAMPLE = ("Example: It\u2019s Red\u2019s turn. Red takes the Move Armies action, and "
             "chooses to invade the central territory from 2 adjacent territories south of "
             "it. Red spends 4 Soldier tokens to move 4 Army pawns, which is more than the 3 "
             "enemy armies in the destination territory. The 3 blue armies and 3 of the red "
             "armies return to their respective castles. After this move, Red has lost "
             "control of 2 bonus locations, and thus discards the Trap token provided by the "
             "one, and will produce 1  less in the next Production phase because of losing "
             "the other. However, Red has secured a new bonus effect, card destruction, taken "
             "from Blue in this action.")

SETUP_RED_ON = ["south-east-energy", "south-east-trap", "south-west-materials",
                "south-west-trap"]
SETUP_BLUE_ON = ["north-east-energy", "north-east-trap", "north-west-materials",
                 "north-west-trap"]
SETUP_BLUE_ARMIES = {"north-east": 2, "north-west": 2}


# --- building blocks ---------------------------------------------------------------------

def turn(to_act: str | None = None, last: tuple[tuple[str, str], ...] = (),
         stopped: tuple[str, ...] = (), ended: bool = False) -> dict[str, Any]:
    return {"to_act": to_act, "last_actions": [{"player": p, "type": t} for p, t in last],
            "stopped": list(stopped), "ended": ended}


def red_to_act() -> dict[str, Any]:
    """Mid-phase, Blue having just recruited: Red is to act whatever the tokens."""
    return turn(RED, ((RED, "move"), (BLUE, "recruit")))


def blue_setup(soldier_tokens: int = 1) -> dict[str, Any]:
    return player(BLUE, armies=dict(SETUP_BLUE_ARMIES), on=list(SETUP_BLUE_ON),
                  soldier_tokens=soldier_tokens)


def recruit(who: str, count: int) -> dict[str, Any]:
    return {"type": "recruit", "player": who, "count": count}


def stop(who: str) -> dict[str, Any]:
    return {"type": "stop", "player": who}


def move(who: str, destination: str, sources: list[tuple[str, int, list[str]]],
         placement: list[str] | None = None) -> dict[str, Any]:
    return {"type": "move", "player": who, "destination": destination,
            "sources": [{"territory": t, "count": n, "from_bonus_locations": b}
                        for t, n, b in sources],
            "placement": placement or []}


def case(description: str, source: str, st: dict[str, Any], action: dict[str, Any],
         expect: dict[str, Any], mode: str | None = None) -> dict[str, Any]:
    out = {"description": description, "source": source, "state": st, "action": action,
           "expect": expect}
    if mode is not None:
        out["mode"] = mode
    return out


def illegal(*codes: str) -> dict[str, Any]:
    return {"legal": False, "codes": sorted(codes), "applied": False}


def query(description: str, source: str, name: str, request: dict[str, Any],
          expect: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "source": source, "query": name, "request": request,
            "expect": expect}


def malformed(description: str, st: dict[str, Any], action: dict[str, Any],
              pointers: list[str]) -> dict[str, Any]:
    return {"description": description, "state": st, "action": action,
            "expect": {"status": 422, "pointers": sorted(pointers)}}


# --- order and stopping ------------------------------------------------------------------

def order_cases() -> dict[str, dict[str, Any]]:
    return {
        "order_more_soldier_tokens_first": case(
            "Blue has 5 soldier tokens to Red's 3, so Red may not take the first action.",
            S_ORDER, setup_state(red_tokens=3, blue_tokens=5), recruit(RED, 1),
            illegal("not_first_to_act")),
        "order_tie_round_first_player": case(
            "Soldier tokens tie at 4 and Blue is the round's first player: Blue recruits "
            "first, and Red is to act next.",
            S_ORDER, setup_state(4, 4, round_first_player=BLUE), recruit(BLUE, 2),
            {"legal": True, "codes": [], "events": ["armies_recruited"],
             "state": {"players": [
                 {"id": RED, "reserve": 8, "soldier_tokens": 4},
                 {"id": BLUE, "reserve": 6, "soldier_tokens": 2,
                  "armies": {"blue-castle": 2, "north-east": 2, "north-west": 2}}],
                 "conquest": turn(RED, ((BLUE, "recruit"),))},
             "derived": {"to_act_next": RED, "phase_ends": False}}),
        "order_tie_refuses_other_player": case(
            "Soldier tokens tie and Blue is the round's first player: Red cannot act first.",
            S_ORDER, setup_state(4, 4, round_first_player=BLUE), recruit(RED, 1),
            illegal("not_first_to_act")),
        "alternation_not_your_turn": case(
            "Red has just recruited; Red cannot act again before Blue.",
            S_ALTERNATE,
            state(player(RED, armies={"red-castle": 1, "south-west": 2, "south-east": 2},
                         on=list(SETUP_RED_ON), soldier_tokens=3), blue_setup(4),
                  conquest=turn(BLUE, ((RED, "recruit"),))),
            recruit(RED, 1), illegal("not_your_turn")),
        "alternation_advisory_applies_out_of_turn": case(
            "In advisory mode Red's out-of-turn recruit is applied with a warning, and Blue "
            "is to act after it.",
            S_ALTERNATE,
            state(player(RED, armies={"red-castle": 1, "south-west": 2, "south-east": 2},
                         on=list(SETUP_RED_ON), soldier_tokens=3), blue_setup(4),
                  conquest=turn(BLUE, ((RED, "recruit"),))),
            recruit(RED, 1),
            {"legal": False, "codes": ["not_your_turn"], "applied": True,
             "events": ["armies_recruited"],
             "state": {"players": [
                 {"id": RED, "reserve": 6, "soldier_tokens": 2,
                  "armies": {"red-castle": 2, "south-east": 2, "south-west": 2}},
                 {"id": BLUE}],
                 "conquest": turn(BLUE, ((RED, "recruit"), (RED, "recruit")))}},
            mode="advisory"),
        "stop_does_nothing": case(
            "Red stops first: no piece changes, Red is recorded as stopped and Blue acts.",
            S_STOP_NOTHING, setup_state(4, 4), stop(RED),
            {"legal": True, "codes": [], "events": ["conquest_stopped"],
             "state": {"players": [
                 {"id": RED, "reserve": 8, "soldier_tokens": 4,
                  "armies": {"south-east": 2, "south-west": 2},
                  "on_bonus_locations": SETUP_RED_ON, "trap_tokens": 2},
                 {"id": BLUE, "reserve": 8, "soldier_tokens": 4}],
                 "conquest": turn(BLUE, ((RED, "stop"),), stopped=(RED,))},
             "derived": {"to_act_next": BLUE, "phase_ends": False}}),
        "stop_just_after_opponent_ends_phase": case(
            "Red stopped; Blue stops right after: the Conquest phase ends.",
            S_STOP_ENDS,
            state(player(RED, armies={"south-west": 2, "south-east": 2}, on=list(SETUP_RED_ON),
                         soldier_tokens=1), blue_setup(2),
                  conquest=turn(BLUE, ((BLUE, "recruit"), (RED, "stop")), stopped=(RED,))),
            stop(BLUE),
            {"legal": True, "codes": [],
             "events": ["conquest_stopped", "conquest_phase_ended"],
             "state": {"conquest": turn(None, ((RED, "stop"), (BLUE, "stop")),
                                        stopped=(RED, BLUE), ended=True)},
             "derived": {"to_act_next": None, "phase_ends": True}}),
        "both_stop_one_after_the_other": case(
            "Blue stopped, then Red recruited (bringing Blue back), then Blue recruited; Red "
            "now stops, and the phase does not end: Blue's stop was not just before.",
            S_BOTH_STOP,
            state(player(RED, armies={"red-castle": 1, "south-west": 2, "south-east": 2},
                         on=list(SETUP_RED_ON), soldier_tokens=1),
                  player(BLUE, armies={"blue-castle": 1, **SETUP_BLUE_ARMIES},
                         on=list(SETUP_BLUE_ON), soldier_tokens=1),
                  conquest=turn(RED, ((RED, "recruit"), (BLUE, "recruit")))),
            stop(RED),
            {"legal": True, "codes": [], "events": ["conquest_stopped"],
             "state": {"conquest": turn(BLUE, ((BLUE, "recruit"), (RED, "stop")),
                                        stopped=(RED,))}}),
        "stopped_player_carries_on_after_recruit": case(
            "Red stopped; Blue recruits, so Red is no longer stopped and acts next.",
            S_CARRY_ON,
            state(player(RED, armies={"south-west": 2, "south-east": 2}, on=list(SETUP_RED_ON),
                         soldier_tokens=2), blue_setup(3),
                  conquest=turn(BLUE, ((RED, "stop"),), stopped=(RED,))),
            recruit(BLUE, 1),
            {"legal": True, "codes": [], "events": ["armies_recruited"],
             "state": {"conquest": turn(RED, ((RED, "stop"), (BLUE, "recruit")))}}),
        "stopped_player_acts_again": case(
            "Red stopped and Blue then moved: Red carries on playing and recruits.",
            S_CARRY_ON,
            state(player(RED, armies={"south-west": 2, "south-east": 2}, on=list(SETUP_RED_ON),
                         soldier_tokens=2), blue_setup(3),
                  conquest=turn(RED, ((RED, "stop"), (BLUE, "move")))),
            recruit(RED, 2),
            {"legal": True, "codes": [], "events": ["armies_recruited"],
             "state": {"players": [{"id": RED, "reserve": 6, "soldier_tokens": 0},
                                   {"id": BLUE}],
                       "conquest": turn(BLUE, ((BLUE, "move"), (RED, "recruit")))}}),
        "phase_over": case(
            "Both players stopped one after the other; a recruit afterwards is refused, and "
            "advisory mode cannot apply it either.",
            S_STOP_ENDS,
            state(player(RED, armies={"south-west": 2, "south-east": 2}, on=list(SETUP_RED_ON),
                         soldier_tokens=2), blue_setup(3),
                  conquest=turn(None, ((RED, "stop"), (BLUE, "stop")), stopped=(RED, BLUE),
                                ended=True)),
            recruit(RED, 1),
            {"legal": False, "codes": ["phase_over"], "applied": False},
            mode="advisory"),
    }


# --- recruit -----------------------------------------------------------------------------

def recruit_cases() -> dict[str, dict[str, Any]]:
    def red(armies: dict[str, int], tokens: int) -> dict[str, Any]:
        return player(RED, armies=armies, on=list(SETUP_RED_ON), soldier_tokens=tokens)

    setup_red = {"south-west": 2, "south-east": 2}
    full_board = {"red-castle": 8, "south-west": 2, "south-east": 2}
    return {
        "recruit_into_castle": case(
            "Red pays 3 soldier tokens and 3 pawns go from the reserve to Red's castle.",
            S_RECRUIT, setup_state(4, 4), recruit(RED, 3),
            {"legal": True, "codes": [], "events": ["armies_recruited"],
             "state": {"players": [
                 {"id": RED, "reserve": 5, "soldier_tokens": 1,
                  "armies": {"red-castle": 3, "south-east": 2, "south-west": 2}},
                 {"id": BLUE, "reserve": 8, "soldier_tokens": 4}]},
             "derived": {"recruited": 3, "soldier_tokens_spent": 3}}),
        "recruit_short_of_soldier_tokens": case(
            "Red has 2 soldier tokens and cannot recruit 3 armies.",
            S_RECRUIT, state(red(setup_red, 2), blue_setup(1)), recruit(RED, 3),
            illegal("recruit_short_of_soldier_tokens")),
        "recruit_exceeds_reserve": case(
            "Red has 2 pawns in reserve and cannot recruit 3.",
            S_RECRUIT,
            state(red({"red-castle": 6, **setup_red}, 5), blue_setup(1)), recruit(RED, 3),
            illegal("recruit_exceeds_reserve")),
        "reserve_empty": case(
            "All 12 of Red's pawns are on the board: Red cannot recruit.",
            S_RESERVE_EMPTY, state(red(full_board, 5), blue_setup(1)), recruit(RED, 1),
            illegal("reserve_empty")),
        "reserve_empty_and_no_tokens": case(
            "Every pawn on the board and no soldier token: both reasons are given.",
            S_RESERVE_EMPTY,
            state(red(full_board, 0), blue_setup(0), conquest=red_to_act()), recruit(RED, 1),
            illegal("reserve_empty", "recruit_short_of_soldier_tokens")),
    }


# --- move --------------------------------------------------------------------------------

def move_cases() -> dict[str, dict[str, Any]]:
    example = worked_example_state()
    short = copy.deepcopy(example)
    short["players"][0]["soldier_tokens"] = 3
    red_with_castle = player(RED, armies={"red-castle": 2, "south-west": 2, "south-east": 2},
                             on=list(SETUP_RED_ON), soldier_tokens=4)
    red_double = player(RED, armies={"red-castle": 2, "south-west": 2, "south-east": 2,
                                     "inner-sea": 1},
                        on=[*SETUP_RED_ON, "inner-sea-double-move"], soldier_tokens=4)
    red_west = player(RED, armies={"south-west": 2, "south-east": 2, "inner-sea": 1, "west": 1},
                      on=[*SETUP_RED_ON, "inner-sea-double-move"], soldier_tokens=5)
    blue_centre = player(BLUE, armies={**SETUP_BLUE_ARMIES, "centre": 1},
                         on=list(SETUP_BLUE_ON), soldier_tokens=1)
    return {
        "source_not_adjacent": case(
            "The mines are three territories from the south-west: not a starting territory.",
            S_ADJACENT, setup_state(5, 1),
            move(RED, "mines", [("south-west", 1, ["south-west-materials"])]),
            illegal("source_not_adjacent")),
        "needs_double_move": case(
            "Red's castle is two territories from the centre, and Red holds no double move.",
            S_DOUBLE, state(red_with_castle, blue_setup(1)),
            move(RED, "centre", [("red-castle", 2, [])]),
            illegal("needs_double_move")),
        "double_move_through_own_territories": case(
            "Holding the inner sea's double move, Red moves 2 pawns from the castle into the "
            "centre through its own south-west or south-east, and places both.",
            S_DOUBLE, state(red_double, blue_setup(1)),
            move(RED, "centre", [("red-castle", 2, [])], ["centre-destruction", "centre-gold"]),
            {"legal": True, "codes": [],
             "events": ["armies_moved", "bonus_gained", "bonus_gained", "territory_taken"],
             "state": {"players": [
                 {"id": RED, "reserve": 5, "soldier_tokens": 2,
                  "armies": {"centre": 2, "inner-sea": 1, "south-east": 2, "south-west": 2},
                  "on_bonus_locations": ["centre-destruction", "centre-gold",
                                         "inner-sea-double-move", *SETUP_RED_ON]},
                 {"id": BLUE}]},
             "derived": {"double_move_used": True,
                         "sources": [{"territory": "red-castle", "distance": 2,
                                      "via": ["south-east", "south-west"]}],
                         "production_icons_change": {RED: {"gold": 1}}}}),
        "double_move_blocked_by_enemy": case(
            "From the west the only way to the east is through the centre, which Blue holds.",
            S_DOUBLE_ENEMY, state(red_west, blue_centre),
            move(RED, "east", [("west", 1, [])]),
            illegal("double_move_blocked")),
        "double_move_through_neutral": case(
            "With the centre empty, Red's double move passes through it from the west to the "
            "east (the source forbids only enemy territories).",
            S_DOUBLE_ENEMY, state(red_west, blue_setup(1)),
            move(RED, "east", [("west", 1, [])]),
            {"legal": True, "codes": [],
             "events": ["territory_abandoned", "armies_moved", "territory_taken"],
             "derived": {"double_move_used": True,
                         "sources": [{"territory": "west", "distance": 2, "via": ["centre"]}]}}),
        "double_move_neutral_house_rule": case(
            "With the house rule double_move_via_neutral off, the empty centre blocks the "
            "same double move.",
            S_DOUBLE_ENEMY,
            state(red_west, blue_setup(1), options={"double_move_via_neutral": False}),
            move(RED, "east", [("west", 1, [])]),
            illegal("double_move_blocked")),
        "not_a_majority": case(
            "Red moves 3 pawns into the centre against 3 blue armies: not more.",
            S_MAJORITY, example,
            move(RED, "centre", [("south-west", 2, ["south-west-trap"]),
                                 ("south-east", 1, [])]),
            illegal("not_a_majority")),
        "move_short_of_soldier_tokens": case(
            "Red has 3 soldier tokens and cannot move 4 pawns.",
            S_MOVE_PAY, short, WORKED_EXAMPLE_MOVE,
            illegal("move_short_of_soldier_tokens")),
        "enters_opponent_castle": case(
            "Blue's castle is empty, but Red can neither move onto it nor seize it.",
            S_CASTLE,
            state(player(RED, armies={"south-west": 2, "south-east": 2, "north-west": 2},
                         on=list(SETUP_RED_ON), soldier_tokens=4),
                  player(BLUE, armies={"north-east": 2},
                         on=["north-east-energy", "north-east-trap"], soldier_tokens=1)),
            move(RED, "blue-castle", [("north-west", 2, [])]),
            illegal("enters_opponent_castle")),
        "equal_losses": case(
            "Red moves 4 pawns into the east against 2 blue: 2 of each return to their "
            "castles; Blue's pawn on the spy location returns, so Blue discards its spy token.",
            S_LOSSES,
            state(player(RED, armies={"red-castle": 2, "south-west": 2, "south-east": 3,
                                      "centre": 2}, on=list(SETUP_RED_ON), soldier_tokens=6),
                  player(BLUE, armies={**SETUP_BLUE_ARMIES, "east": 2},
                         on=[*SETUP_BLUE_ON, "east-spy"], soldier_tokens=2),
                  conquest=red_to_act()),
            move(RED, "east", [("south-east", 2, ["south-east-energy"]), ("centre", 2, [])]),
            {"legal": True, "codes": [],
             "events": ["bonus_lost", "territory_abandoned", "armies_moved", "bonus_lost",
                        "token_discarded", "armies_returned", "armies_returned",
                        "territory_taken"],
             "state": {"players": [
                 {"id": RED, "reserve": 3, "soldier_tokens": 2,
                  "armies": {"east": 2, "red-castle": 4, "south-east": 1, "south-west": 2},
                  "on_bonus_locations": ["south-east-trap", "south-west-materials",
                                         "south-west-trap"], "trap_tokens": 2},
                 {"id": BLUE, "reserve": 6,
                  "armies": {"blue-castle": 2, "north-east": 2, "north-west": 2},
                  "on_bonus_locations": SETUP_BLUE_ON, "spy_tokens": 0, "trap_tokens": 2}]},
             "derived": {"moved": 4, "enemy_armies": 2, "losses": 2, "survivors": 2}}),
        "sea_works_like_land": case(
            "Red moves a pawn into the inner sea and onto its double move location, leaving "
            "the south-west's materials location.",
            S_SEA, setup_state(4, 1),
            move(RED, "inner-sea", [("south-west", 1, ["south-west-materials"])],
                 ["inner-sea-double-move"]),
            {"legal": True, "codes": [],
             "events": ["bonus_lost", "armies_moved", "bonus_gained", "territory_taken"],
             "state": {"players": [
                 {"id": RED, "soldier_tokens": 3,
                  "armies": {"inner-sea": 1, "south-east": 2, "south-west": 1},
                  "on_bonus_locations": ["inner-sea-double-move", "south-east-energy",
                                         "south-east-trap", "south-west-trap"]},
                 {"id": BLUE}]},
             "derived": {"production_icons_change": {RED: {"materials": -1}}}}),
    }


# --- bonus locations ---------------------------------------------------------------------

def bonus_cases() -> dict[str, dict[str, Any]]:
    red_castle_two = player(RED, armies={"red-castle": 2, "south-west": 2, "south-east": 2},
                            on=list(SETUP_RED_ON), soldier_tokens=4)
    red_four_sw = player(RED, armies={"south-west": 4, "south-east": 2}, on=list(SETUP_RED_ON),
                         soldier_tokens=4)
    example = worked_example_state()
    return {
        "bonus_location_occupied": case(
            "Red reinforces the south-east but names its trap location, where a red pawn "
            "already stands.",
            S_ONE_PER_LOCATION, state(red_castle_two, blue_setup(1)),
            move(RED, "south-east", [("red-castle", 1, [])], ["south-east-trap"]),
            illegal("bonus_location_occupied")),
        "bonus_location_named_twice": case(
            "Two survivors cannot both stand on the centre's gold location.",
            S_ONE_PER_LOCATION, state(red_four_sw, blue_setup(1)),
            move(RED, "centre", [("south-west", 2, [])], ["centre-gold", "centre-gold"]),
            illegal("bonus_location_named_twice")),
        "reinforce_own_territory": case(
            "No limit on pawns in a territory: Red moves both castle pawns into its own "
            "south-west, whose locations are taken, so they stand without a bonus.",
            S_ONE_PER_LOCATION, state(red_castle_two, blue_setup(1)),
            move(RED, "south-west", [("red-castle", 2, [])]),
            {"legal": True, "codes": [], "events": ["armies_moved"],
             "state": {"players": [
                 {"id": RED, "soldier_tokens": 2, "armies": {"south-east": 2, "south-west": 4},
                  "on_bonus_locations": SETUP_RED_ON},
                 {"id": BLUE}]},
             "derived": {"losses": 0, "survivors": 2}}),
        "placement_exceeds_survivors": case(
            "Only 1 red pawn survives the move into the centre; it cannot fill 2 locations.",
            S_DIVIDE, example,
            {**WORKED_EXAMPLE_MOVE, "placement": ["centre-destruction", "centre-gold"]},
            illegal("placement_exceeds_survivors")),
        "survivor_stands_without_bonus": case(
            "The survivor need not take a bonus location: it stands in the centre without a "
            "bonus, and Blue still loses the centre's bonuses.",
            S_DIVIDE, example, {**WORKED_EXAMPLE_MOVE, "placement": []},
            {"legal": True, "codes": [],
             "events": ["bonus_lost", "token_discarded", "territory_abandoned", "bonus_lost",
                        "armies_moved", "bonus_lost", "bonus_lost", "armies_returned",
                        "armies_returned", "territory_taken"],
             "state": {"players": [
                 {"id": RED, "armies": {"centre": 1, "red-castle": 4, "south-east": 1,
                                        "west": 1},
                  "on_bonus_locations": ["south-east-trap", "west-spy"]},
                 {"id": BLUE, "on_bonus_locations": ["north-east-trap", "north-west-materials",
                                                     "north-west-trap"]}]}}),
        "spy_location_changes_hands": case(
            "Red takes the west from Blue's single pawn on the spy location: Blue's pawn "
            "returns and Blue discards the spy token; Red's survivor takes the location and "
            "its token at once.",
            S_LOSE_BONUS,
            state(red_four_sw,
                  player(BLUE, armies={**SETUP_BLUE_ARMIES, "west": 1},
                         on=[*SETUP_BLUE_ON, "west-spy"], soldier_tokens=1),
                  conquest=red_to_act()),
            move(RED, "west", [("south-west", 2, [])], ["west-spy"]),
            {"legal": True, "codes": [],
             "events": ["armies_moved", "bonus_lost", "token_discarded", "armies_returned",
                        "armies_returned", "bonus_gained", "token_taken", "territory_taken"],
             "state": {"players": [
                 {"id": RED, "soldier_tokens": 2, "spy_tokens": 1, "trap_tokens": 2,
                  "armies": {"red-castle": 1, "south-east": 2, "south-west": 2, "west": 1},
                  "on_bonus_locations": [*SETUP_RED_ON, "west-spy"]},
                 {"id": BLUE, "spy_tokens": 0,
                  "armies": {"blue-castle": 1, "north-east": 2, "north-west": 2}}]}}),
    }


def worked_example_cases() -> dict[str, dict[str, Any]]:
    return {
        "worked_example_red_takes_the_centre": case(
            "The source's example: Red moves 2 pawns from each southern territory into the "
            "centre held by 3 blue; 3 of each return to castle; Red discards a trap token, "
            "loses an energy icon, and takes card destruction from Blue.",
            S_EXAMPLE, worked_example_state(), WORKED_EXAMPLE_MOVE,
            {"legal": True, "codes": [], "applied": True, "reversible": True,
             "events": ["bonus_lost", "token_discarded", "territory_abandoned", "bonus_lost",
                        "armies_moved", "bonus_lost", "bonus_lost", "armies_returned",
                        "armies_returned", "bonus_gained", "territory_taken"],
             "state": {
                 "players": [
                     {"id": RED, "castle": "red-castle", "reserve": 5, "soldier_tokens": 2,
                      "armies": {"centre": 1, "red-castle": 4, "south-east": 1, "west": 1},
                      "on_bonus_locations": ["centre-destruction", "south-east-trap",
                                             "west-spy"],
                      "trap_tokens": 1, "spy_tokens": 1},
                     {"id": BLUE, "castle": "blue-castle", "reserve": 4, "soldier_tokens": 3,
                      "armies": {"blue-castle": 5, "north-east": 1, "north-west": 2},
                      "on_bonus_locations": ["north-east-trap", "north-west-materials",
                                             "north-west-trap"],
                      "trap_tokens": 2, "spy_tokens": 0}],
                 "conquest": turn(BLUE, ((BLUE, "move"), (RED, "move")))},
             "derived": {
                 "moved": 4, "enemy_armies": 3, "losses": 3, "survivors": 1,
                 "soldier_tokens_spent": 4, "double_move_used": False,
                 "bonuses_lost": {RED: ["south-east-energy", "south-west-trap"],
                                  BLUE: ["centre-destruction", "centre-krystallium"]},
                 "bonuses_gained": {RED: ["centre-destruction"]},
                 "production_icons_change": {RED: {"energy": -1}},
                 "to_act_next": BLUE, "phase_ends": False}}),
    }


# --- review: partial turn records, unnamed bonus locations, every reason ----------------

def without_reserves(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with no player's reserve: the engine counts it from the board."""
    out = json.loads(json.dumps(state))
    for p in out["players"]:
        p.pop("reserve", None)
    return out


def without_token_counts(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with no player's trap or spy token count: the engine counts them."""
    out = json.loads(json.dumps(state))
    for p in out["players"]:
        p.pop("trap_tokens", None)
        p.pop("spy_tokens", None)
    return out


def review_cases() -> dict[str, dict[str, Any]]:
    """Cases added by the rules review: each guards a verdict the engine once got wrong (a
    turn record filled only in part, every pawn leaving a territory without naming its
    bonus locations, a move of 0 pawns) or a behaviour that had no golden case."""
    def stops(*who: str) -> tuple[tuple[str, str], ...]:
        return tuple((w, "stop") for w in who)

    red_west_three = player(RED, armies={"south-west": 2, "south-east": 2, "west": 3},
                            on=list(SETUP_RED_ON), soldier_tokens=4)
    example_tokens_1 = worked_example_state()
    example_tokens_1["players"][0]["soldier_tokens"] = 1
    return {
        "stop_after_recorded_stop_ends_phase": case(
            "The record shows Red's stop as the last action but leaves `stopped` empty; Blue "
            "stops right after, and the Conquest phase ends.",
            S_STOP_ENDS, setup_state(4, 4, round_first_player=RED) | {
                "conquest": {"to_act": BLUE, "last_actions": [{"player": RED, "type": "stop"}]}},
            stop(BLUE),
            {"legal": True, "codes": [],
             "events": ["conquest_stopped", "conquest_phase_ended"],
             "state": {"conquest": turn(None, stops(RED, BLUE), stopped=(RED, BLUE),
                                        ended=True)},
             "derived": {"to_act_next": None, "phase_ends": True}}),
        "phase_over_two_stops_recorded": case(
            "The record's last two actions are Blue's and Red's stops, one right after the "
            "other, though its `ended` flag is unset: the phase is over and Blue's recruit is "
            "refused.",
            S_BOTH_STOP, setup_state(4, 4) | {"conquest": turn(last=stops(BLUE, RED))},
            recruit(BLUE, 1), {**illegal("phase_over"), "derived": {"to_act_next": None}}),
        "phase_over_flag_alone": case(
            "A record that only says the phase has ended is taken at its word: Red's recruit "
            "is refused.",
            S_STOP_ENDS, setup_state(4, 4) | {"conquest": {"ended": True}}, recruit(RED, 1),
            illegal("phase_over")),
        "longer_history_reads_the_last_actions": case(
            "A record may list more than two past actions; Red's stop is the last, so Blue's "
            "stop right after it ends the phase.",
            S_STOP_ENDS,
            setup_state(4, 4) | {"conquest": turn(BLUE, ((RED, "move"), (BLUE, "recruit"),
                                                         (RED, "stop")))},
            stop(BLUE),
            {"legal": True, "codes": [], "events": ["conquest_stopped", "conquest_phase_ended"],
             "state": {"conquest": turn(None, stops(RED, BLUE), stopped=(RED, BLUE),
                                        ended=True)}}),
        "stopped_player_carries_on_stale_record": case(
            "The record still lists Red as stopped, but its last actions show Blue recruiting "
            "after Red's stop: Red carries on playing, and Red's recruit is legal.",
            S_CARRY_ON,
            setup_state(2, 3) | {"conquest": turn(RED, ((RED, "stop"), (BLUE, "recruit")),
                                                  stopped=(RED,))},
            recruit(RED, 1),
            {"legal": True, "codes": [], "events": ["armies_recruited"],
             "state": {"conquest": turn(BLUE, ((BLUE, "recruit"), (RED, "recruit")))}}),
        "mid_phase_record_names_player_to_act": case(
            "A phase under way recorded only by whose action it is: Red is to act although "
            "Blue has more soldier tokens (order.1 decides only the first action), and Red's "
            "recruit is legal.",
            S_ALTERNATE, setup_state(2, 5) | {"conquest": {"to_act": RED}}, recruit(RED, 1),
            {"legal": True, "codes": [], "events": ["armies_recruited"],
             "state": {"conquest": turn(BLUE, ((RED, "recruit"),))},
             "derived": {"to_act_next": BLUE}}),
        "mid_phase_record_refuses_other_player": case(
            "The same record: it is Red's action, so Blue's recruit is refused.",
            S_ALTERNATE, setup_state(2, 5) | {"conquest": {"to_act": RED}}, recruit(BLUE, 1),
            illegal("not_your_turn")),
        "order_more_soldier_tokens_acts_first": case(
            "Blue has 5 soldier tokens to Red's 3: Blue takes the first action (a stop), and "
            "Red acts next.",
            S_ORDER, setup_state(3, 5), stop(BLUE),
            {"legal": True, "codes": [], "events": ["conquest_stopped"],
             "state": {"conquest": turn(RED, stops(BLUE), stopped=(BLUE,))},
             "derived": {"to_act_next": RED, "phase_ends": False}}),
        "move_every_pawn_names_no_location": case(
            "Both of Red's south-west pawns stand on bonus locations and both leave: which "
            "locations empty is not in doubt, so naming them is not needed; Red loses the "
            "materials icon and discards the trap token.",
            S_LOSE_BONUS, setup_state(4, 1),
            {"type": "move", "player": RED, "destination": "centre",
             "sources": [{"territory": "south-west", "count": 2}]},
            {"legal": True, "codes": [],
             "events": ["bonus_lost", "bonus_lost", "token_discarded", "territory_abandoned",
                        "armies_moved", "territory_taken"],
             "state": {"players": [
                 {"id": RED, "soldier_tokens": 2, "trap_tokens": 1,
                  "armies": {"centre": 2, "south-east": 2},
                  "on_bonus_locations": ["south-east-energy", "south-east-trap"]},
                 {"id": BLUE}]},
             "derived": {"bonuses_lost": {RED: ["south-west-materials", "south-west-trap"]},
                         "production_icons_change": {RED: {"materials": -1}}}}),
        "move_zero_pawns": case(
            "A move of no pawn into the empty centre: 0 is not more than the 0 enemy armies "
            "there.",
            S_MAJORITY, setup_state(4, 1), move(RED, "centre", []), illegal("not_a_majority")),
        "move_zero_pawns_from_a_source": case(
            "Naming the south-west with 0 pawns moves nothing: still not a majority.",
            S_MAJORITY, setup_state(4, 1), move(RED, "centre", [("south-west", 0, [])]),
            illegal("not_a_majority")),
        "move_every_reason": case(
            "Red, with 1 soldier token, moves 1 pawn from the south-west and 1 from its castle "
            "(two away, no double move) into the centre held by 3 blue, naming the gold "
            "location twice: every reason is given.",
            S_ADJACENT, example_tokens_1,
            move(RED, "centre", [("south-west", 1, []), ("red-castle", 1, [])],
                 ["centre-gold", "centre-gold"]),
            illegal("bonus_location_named_twice", "move_short_of_soldier_tokens",
                    "needs_double_move", "not_a_majority")),
        "advisory_cannot_apply_without_majority": case(
            "In advisory mode a move without a majority is still not applied: who would go "
            "home is undefined.",
            S_MAJORITY, worked_example_state(),
            move(RED, "centre", [("south-west", 2, ["south-west-trap"]), ("south-east", 1, [])]),
            {"legal": False, "codes": ["not_a_majority"], "applied": False},
            mode="advisory"),
        "recruit_whole_reserve": case(
            "Red recruits all 8 pawns of its reserve with 8 soldier tokens: the reserve is "
            "empty and the castle holds 8.",
            S_RECRUIT, setup_state(8, 1), recruit(RED, 8),
            {"legal": True, "codes": [], "events": ["armies_recruited"],
             "state": {"players": [
                 {"id": RED, "reserve": 0, "soldier_tokens": 0,
                  "armies": {"red-castle": 8, "south-east": 2, "south-west": 2}},
                 {"id": BLUE}]}}),
        "reserve_counted_when_left_out": case(
            "The same recruit with the reserves left out of the state: each is counted as 12 "
            "less the pawns on the board, so Red's 8 may all be recruited.",
            S_RECRUIT, without_reserves(setup_state(8, 1)), recruit(RED, 8),
            {"legal": True, "codes": [], "events": ["armies_recruited"],
             "state": {"players": [{"id": RED, "reserve": 0, "soldier_tokens": 0},
                                   {"id": BLUE, "reserve": 8}]}}),
        "reserve_counted_refuses_too_many": case(
            "With the reserves left out, Red (4 pawns on the board, so 8 in reserve) cannot "
            "recruit 9.",
            S_RECRUIT, without_reserves(setup_state(9, 1)), recruit(RED, 9),
            illegal("recruit_exceeds_reserve")),
        "recruit_exceeds_reserve_and_tokens": case(
            "Red has 2 pawns in reserve and 1 soldier token and recruits 3: both reasons are "
            "given.",
            S_RECRUIT,
            state(player(RED, armies={"red-castle": 6, "south-west": 2, "south-east": 2},
                         on=list(SETUP_RED_ON), soldier_tokens=1), blue_setup(0)),
            recruit(RED, 3),
            illegal("recruit_exceeds_reserve", "recruit_short_of_soldier_tokens")),
        "trap_location_changes_hands": case(
            "Red takes the north-west from Blue's 2 pawns with 3 from the west: Blue's pawns "
            "return and Blue discards the trap token; Red's survivor takes the trap location "
            "and its token at once.",
            S_TRAPS, state(red_west_three, blue_setup(1), conquest=red_to_act()),
            move(RED, "north-west", [("west", 3, [])], ["north-west-trap"]),
            {"legal": True, "codes": [],
             "events": ["territory_abandoned", "armies_moved", "bonus_lost", "bonus_lost",
                        "token_discarded", "armies_returned", "armies_returned",
                        "bonus_gained", "token_taken", "territory_taken"],
             "state": {"players": [
                 {"id": RED, "reserve": 5, "soldier_tokens": 1, "trap_tokens": 3,
                  "armies": {"north-west": 1, "red-castle": 2, "south-east": 2,
                             "south-west": 2},
                  "on_bonus_locations": ["north-west-trap", *SETUP_RED_ON]},
                 {"id": BLUE, "reserve": 8, "trap_tokens": 1,
                  "armies": {"blue-castle": 2, "north-east": 2},
                  "on_bonus_locations": ["north-east-energy", "north-east-trap"]}]},
             "derived": {"losses": 2, "survivors": 1,
                         "bonuses_lost": {BLUE: ["north-west-materials", "north-west-trap"]},
                         "bonuses_gained": {RED: ["north-west-trap"]}}}),
        "trap_tokens_counted_when_left_out": case(
            "The same move with the players' trap token counts left out of the state: they "
            "are counted from the trap locations held, Blue discards one and Red takes one.",
            S_TRAPS, without_token_counts(state(red_west_three, blue_setup(1),
                                                conquest=red_to_act())),
            move(RED, "north-west", [("west", 3, [])], ["north-west-trap"]),
            {"legal": True, "codes": [],
             "events": ["territory_abandoned", "armies_moved", "bonus_lost", "bonus_lost",
                        "token_discarded", "armies_returned", "armies_returned",
                        "bonus_gained", "token_taken", "territory_taken"],
             "state": {"players": [{"id": RED, "trap_tokens": 3, "spy_tokens": 0},
                                   {"id": BLUE, "trap_tokens": 1, "spy_tokens": 0}]}}),
        "conquest_cost_double_move_held": query(
            "Red holds the inner sea's double move: the east (3 blue) needs 4 pawns; its "
            "adjacent centre and south-east hold 2, but with double move Red's castle, the "
            "south-west and the west join; the mines can only be reached through Blue's east "
            "and highlands, so never.",
            S_DOUBLE_ENEMY, "conquest-cost",
            {"state": mid_phase_state(), "player": RED, "targets": ["east", "mines"]},
            {"player": RED, "soldier_tokens": 9, "holds_double_move": True, "targets": [
                {"territory": "east", "status": "enemy", "controller": BLUE,
                 "enemy_armies": 3, "pawns_needed": 4, "soldier_tokens_needed": 4,
                 "without_double_move": {
                     "sources": [{"territory": "centre", "distance": 1},
                                 {"territory": "south-east", "distance": 1}],
                     "pawns_available": 2, "enough_pawns": False, "feasible": False,
                     "plan": []},
                 "with_double_move": {
                     "sources": [{"territory": "centre", "distance": 1, "via": []},
                                 {"territory": "red-castle", "distance": 2,
                                  "via": ["south-east"]},
                                 {"territory": "south-east", "distance": 1, "via": []},
                                 {"territory": "south-west", "distance": 2,
                                  "via": ["centre", "south-east"]},
                                 {"territory": "west", "distance": 2, "via": ["centre"]}],
                     "pawns_available": 8, "enough_pawns": True, "affordable": True,
                     "feasible": True}},
                {"territory": "mines", "status": "enemy", "enemy_armies": 1,
                 "pawns_needed": 2,
                 "without_double_move": {"sources": [], "feasible": False},
                 "with_double_move": {"sources": [], "feasible": False}}]}),
        "standing_phase_ended_by_record": query(
            "A record whose last two actions are both players' stops: nobody is to act and "
            "the phase has ended.",
            S_STOP_ENDS, "standing",
            {"state": setup_state(4, 4) | {"conquest": turn(last=stops(RED, BLUE))}},
            {"to_act": None, "phase_ended": True}),
        "legal_actions_phase_ended_by_record": query(
            "The same record: nothing is legal for Red.",
            S_STOP_ENDS, "legal-actions",
            {"state": setup_state(4, 4) | {"conquest": turn(last=stops(RED, BLUE))},
             "player": RED},
            {"to_act": False, "phase_ended": True, "actions": []}),
    }


# --- queries -----------------------------------------------------------------------------

def after_worked_example() -> dict[str, Any]:
    """The worked example's resulting position, written out by hand."""
    return state(
        player(RED, armies={"centre": 1, "red-castle": 4, "south-east": 1, "west": 1},
               on=["centre-destruction", "south-east-trap", "west-spy"], soldier_tokens=2),
        player(BLUE, armies={"blue-castle": 5, "north-east": 1, "north-west": 2},
               on=["north-east-trap", "north-west-materials", "north-west-trap"],
               soldier_tokens=3),
        conquest=turn(BLUE, ((BLUE, "move"), (RED, "move"))))


def query_cases() -> dict[str, dict[str, Any]]:
    no_route = {"sources": [], "pawns_available": 0, "enough_pawns": False,
                "affordable": False, "feasible": False, "plan": []}
    empty_blue_castle = state(
        player(RED, armies={"south-west": 2, "south-east": 2, "north-west": 2},
               on=list(SETUP_RED_ON), soldier_tokens=4),
        player(BLUE, armies={"north-east": 2}, on=["north-east-energy", "north-east-trap"],
               soldier_tokens=1))
    ended = state(player(RED, armies={"south-west": 2, "south-east": 2}, on=list(SETUP_RED_ON),
                         soldier_tokens=2), blue_setup(3),
                  conquest=turn(None, ((RED, "stop"), (BLUE, "stop")), stopped=(RED, BLUE),
                                ended=True))
    return {
        "conquest_cost_worked_example": query(
            "Before the example move: taking the centre from 3 blue needs 4 pawns and 4 "
            "soldier tokens, from the south-east, south-west and west (and, with a double "
            "move, Red's castle); Blue's castle can never be taken; the empty east needs 1.",
            S_MAJORITY, "conquest-cost",
            {"state": worked_example_state(), "player": RED,
             "targets": ["centre", "blue-castle", "east"]},
            {"player": RED, "soldier_tokens": 6, "holds_double_move": False, "targets": [
                {"territory": "centre", "status": "enemy", "controller": BLUE,
                 "enemy_armies": 3, "pawns_needed": 4, "soldier_tokens_needed": 4,
                 "free_bonus_locations": ["centre-destruction", "centre-gold",
                                          "centre-krystallium"],
                 "without_double_move": {
                     "sources": [
                         {"territory": "south-east", "pawns": 3, "plain_pawns": 1,
                          "bonus_locations": ["south-east-energy", "south-east-trap"],
                          "distance": 1, "via": []},
                         {"territory": "south-west", "pawns": 2, "plain_pawns": 1,
                          "bonus_locations": ["south-west-trap"], "distance": 1, "via": []},
                         {"territory": "west", "pawns": 1, "plain_pawns": 0,
                          "bonus_locations": ["west-spy"], "distance": 1, "via": []}],
                     "pawns_available": 6, "enough_pawns": True, "affordable": True,
                     "feasible": True,
                     "plan": [{"territory": "south-east", "count": 3,
                               "from_bonus_locations": ["south-east-energy",
                                                        "south-east-trap"]},
                              {"territory": "south-west", "count": 1,
                               "from_bonus_locations": []}]},
                 "with_double_move": {
                     "sources": [
                         {"territory": "red-castle", "pawns": 1, "plain_pawns": 1,
                          "bonus_locations": [], "distance": 2,
                          "via": ["south-east", "south-west"]},
                         {"territory": "south-east", "distance": 1},
                         {"territory": "south-west", "distance": 1},
                         {"territory": "west", "distance": 1}],
                     "pawns_available": 7, "feasible": True,
                     "plan": [{"territory": "red-castle", "count": 1,
                               "from_bonus_locations": []},
                              {"territory": "south-east", "count": 2,
                               "from_bonus_locations": ["south-east-energy"]},
                              {"territory": "south-west", "count": 1,
                               "from_bonus_locations": []}]}},
                {"territory": "blue-castle", "status": "opponent_castle", "controller": BLUE,
                 "enemy_armies": 2, "pawns_needed": 0, "free_bonus_locations": [],
                 "without_double_move": no_route, "with_double_move": no_route},
                {"territory": "east", "status": "neutral", "controller": None,
                 "enemy_armies": 0, "pawns_needed": 1, "soldier_tokens_needed": 1,
                 "without_double_move": {
                     "sources": [{"territory": "south-east", "distance": 1}],
                     "pawns_available": 3, "feasible": True,
                     "plan": [{"territory": "south-east", "count": 1,
                               "from_bonus_locations": []}]},
                 "with_double_move": {
                     "sources": [{"territory": "red-castle", "distance": 2,
                                  "via": ["south-east"]},
                                 {"territory": "south-east", "distance": 1},
                                 {"territory": "south-west", "distance": 2,
                                  "via": ["south-east"]}],
                     "pawns_available": 6}}]}),
        "standing_after_worked_example": query(
            "After the example Red produces 1 energy less (castle icons only), holds card "
            "destruction, 1 trap and 1 spy token; victory points count the territories "
            "controlled; Blue is to act.",
            S_PRODUCTION, "standing", {"state": after_worked_example()},
            {"players": [
                {"player": RED, "reserve": 5, "pawns_on_board": 7, "soldier_tokens": 2,
                 "trap_tokens": 1, "spy_tokens": 1,
                 "territories": ["centre", "red-castle", "south-east", "west"],
                 "bonuses": [
                     {"location": "centre-destruction", "territory": "centre",
                      "effect": "card_destruction", "icons": {}},
                     {"location": "south-east-trap", "territory": "south-east",
                      "effect": "trap_token", "icons": {}},
                     {"location": "west-spy", "territory": "west", "effect": "spy_token",
                      "icons": {}}],
                 "production": {"gold": 1, "materials": 1}, "krystallium": 0,
                 "card_destruction": 1, "double_move": False, "victory_points": 7},
                {"player": BLUE, "reserve": 4, "pawns_on_board": 8, "trap_tokens": 2,
                 "spy_tokens": 0,
                 "territories": ["blue-castle", "north-east", "north-west"],
                 "production": {"gold": 1, "materials": 2}, "krystallium": 0,
                 "card_destruction": 0, "double_move": False, "victory_points": 2}],
             "to_act": BLUE, "phase_ended": False, "stopped": []}),
        "standing_before_worked_example": query(
            "Before the example Red produces the castle's materials and gold plus the "
            "south-east's energy, and holds 2 trap tokens and a spy token.",
            S_VICTORY, "standing", {"state": worked_example_state()},
            {"players": [
                {"player": RED, "production": {"energy": 1, "gold": 1, "materials": 1},
                 "trap_tokens": 2, "spy_tokens": 1,
                 "territories": ["red-castle", "south-east", "south-west", "west"],
                 "victory_points": 4},
                {"player": BLUE, "production": {"gold": 1, "materials": 2}, "krystallium": 1,
                 "card_destruction": 1, "victory_points": 6}],
             "to_act": RED}),
        "standing_castle_always_controlled": query(
            "Blue has no pawn in its castle but still controls it.",
            S_CONTROL, "standing", {"state": empty_blue_castle},
            {"players": [
                {"player": RED, "territories": ["north-west", "red-castle", "south-east",
                                                "south-west"]},
                {"player": BLUE, "territories": ["blue-castle", "north-east"],
                 "pawns_on_board": 2}],
             "to_act": RED}),
        "standing_setup_traps": query(
            "At setup each player holds 2 trap tokens from the 2 trap locations beside the "
            "castle, and no spy token.",
            S_TRAPS, "standing", {"state": setup_state(3, 5)},
            {"players": [{"player": RED, "trap_tokens": 2, "spy_tokens": 0, "reserve": 8,
                          "pawns_on_board": 4},
                         {"player": BLUE, "trap_tokens": 2, "spy_tokens": 0, "reserve": 8,
                          "pawns_on_board": 4}],
             "to_act": BLUE, "phase_ended": False}),
        "legal_actions_at_setup": query(
            "Red acts first on the tie as the round's first player: 4 recruits (4 tokens), "
            "then moves into the centre first; the limit of 5 actions cuts the list there.",
            S_RECRUIT, "legal-actions", {"state": setup_state(4, 4), "player": RED, "limit": 5},
            {"player": RED, "to_act": True, "phase_ended": False,
             "truncated": True, "count": 5,
             "actions": [*(recruit(RED, n) for n in (1, 2, 3, 4)),
                         move(RED, "centre", [("south-west", 1, ["south-west-materials"])],
                              ["centre-destruction"])]}),
        "legal_actions_not_to_act": query(
            "Blue is not to act: nothing is legal for Blue.",
            S_ALTERNATE, "legal-actions", {"state": setup_state(4, 4), "player": BLUE},
            {"player": BLUE, "to_act": False, "actions": [], "truncated": False, "count": 0}),
        "legal_actions_phase_ended": query(
            "After the phase has ended nothing is legal.",
            S_STOP_ENDS, "legal-actions", {"state": ended, "player": RED},
            {"to_act": False, "phase_ended": True, "actions": []}),
    }


# --- malformed (422) ---------------------------------------------------------------------

def malformed_cases() -> dict[str, dict[str, Any]]:
    base = setup_state(4, 4)

    def edited(edit: Any) -> dict[str, Any]:
        st = copy.deepcopy(base)
        edit(st)
        return st

    def red(st: dict[str, Any]) -> dict[str, Any]:
        red_player: dict[str, Any] = st["players"][0]
        return red_player

    return {
        "malformed_adjacency_unknown_territory": malformed(
            "An adjacency pair names a territory the board does not have.",
            edited(lambda st: st["adjacent"].append(["centre", "atlantis"])),
            recruit(RED, 1), [f"/state/adjacent/{len(ADJACENT)}/1"]),
        "malformed_pawns_unknown_territory": malformed(
            "Red has a pawn in a territory the board does not have.",
            edited(lambda st: red(st)["armies"].update({"atlantis": 1})),
            recruit(RED, 1), ["/state/players/0/armies/atlantis"]),
        "malformed_two_pawns_on_one_location": malformed(
            "Red lists its south-west trap location twice: two pawns on one bonus location.",
            edited(lambda st: red(st)["on_bonus_locations"].append("south-west-trap")),
            recruit(RED, 1), ["/state/players/0/on_bonus_locations/4"]),
        "malformed_more_than_12_pawns": malformed(
            "Red has 13 pawns on the board.",
            edited(lambda st: red(st).update(armies={"red-castle": 9, "south-west": 2,
                                                     "south-east": 2}, reserve=0)),
            recruit(RED, 1), ["/state/players/0/armies"]),
        "malformed_castle_unknown": malformed(
            "Red's castle names a territory the board does not have.",
            edited(lambda st: red(st).update(castle="red-keep")),
            recruit(RED, 1), ["/state/players/0/castle"]),
        "malformed_negative_counts": malformed(
            "Negative soldier tokens and a negative reserve.",
            edited(lambda st: (red(st).update(soldier_tokens=-1),
                               st["players"][1].update(reserve=-2))),
            recruit(RED, 1), ["/state/players/0/soldier_tokens", "/state/players/1/reserve"]),
        "malformed_trap_tokens_mismatch": malformed(
            "Red holds 2 trap locations but no trap token: tokens come only with the "
            "locations.",
            edited(lambda st: red(st).update(trap_tokens=0)),
            recruit(RED, 1), ["/state/players/0/trap_tokens"]),
        "malformed_both_colours_in_a_territory": malformed(
            "Red and Blue both have pawns in the centre.",
            state(player(RED, armies={"south-west": 2, "south-east": 2, "centre": 1},
                         on=list(SETUP_RED_ON), soldier_tokens=2),
                  player(BLUE, armies={**SETUP_BLUE_ARMIES, "centre": 1},
                         on=list(SETUP_BLUE_ON), soldier_tokens=1)),
            recruit(RED, 1), ["/state/players/1/armies/centre"]),
        "malformed_turn_record": malformed(
            "Red took the last action, yet the record says Red is to act.",
            edited(lambda st: st.update(conquest=turn(RED, ((RED, "recruit"),)))),
            recruit(RED, 1), ["/state/conquest/to_act"]),
        "malformed_move_more_than_the_pile": malformed(
            "Red moves 3 pawns from the south-west, where it has 2.",
            base, move(RED, "centre", [("south-west", 3, [])]),
            ["/action/sources/0/count"]),
        "malformed_move_unnamed_bonus_locations": malformed(
            "Both of Red's south-west pawns stand on bonus locations: the move must say "
            "which one leaves.",
            base, move(RED, "centre", [("south-west", 1, [])]),
            ["/action/sources/0/from_bonus_locations"]),
        "malformed_unknown_player": malformed(
            "The action names a player who is not in the game.",
            base, stop("green"), ["/action/player"]),
    }


def all_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for group in (order_cases, recruit_cases, move_cases, bonus_cases, worked_example_cases,
                  query_cases, review_cases, malformed_cases):
        out.update(group())
    return out


def render(case_: dict[str, Any]) -> str:
    return json.dumps(case_, indent=2, ensure_ascii=False) + "\n"


def write() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    cases = all_cases()
    for stale in OUT.glob("*.json"):
        if stale.stem not in cases:
            stale.unlink()
    for name, case_ in cases.items():
        (OUT / f"{name}.json").write_text(render(case_))


CASES = all_cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_committed_case_matches_this_module(name: str) -> None:
    path = OUT / f"{name}.json"
    assert path.exists(), "run `python -m rulesets.test_territory_conquest_cases` in tests/"
    assert path.read_text() == render(CASES[name])


def test_no_stray_committed_cases() -> None:
    assert {p.stem for p in OUT.glob("*.json")} == set(CASES)


if __name__ == "__main__":
    write()

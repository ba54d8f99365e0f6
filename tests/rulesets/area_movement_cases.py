"""The golden cases of ``area_movement``, written as data: each is built on the Aegean map
below, names the sentence of ``../shared/rules/area_movement.md`` it comes from, and says
by hand what the answer must be. ``python tests/rulesets/area_movement_cases.py`` writes
them to ``tests/cases/area_movement/<name>.json``; a test checks the files are up to date.

The Aegean, thirteen land areas and three seas:

    by land:   megara - athens - thebes - delphi;  thebes - macedon (4, two barbarians);
               athens - corinth - thebes;  corinth - sparta;  corinth - argos - sparta;
               troy - ionia
    by water:  athens ~ corinth ~ sparta ~ Ionian Sea ~ crete ~ Libyan Sea (open) ~ cyprus;
               athens ~ Aegean Sea ~ rhodes ~ crete;  Aegean Sea ~ troy ~ ionia ~ Aegean Sea

Argos and Rhodes are out of play; Delphi's population limit is 0; Sparta holds blue's city
and Megara a pirate city; Athens, Thebes, Sparta, Megara, Crete, Troy and Cyprus are city
sites.

Blue (census 9, A.S.T. 1) has declared the end of his movement; red (census 9, A.S.T. 2)
moves now; green (census 3) after him. Red's ship ``argo`` in Athens was built in an
earlier turn and is not maintained yet; blue's ``trireme`` in Sparta is maintained.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

CASES_DIR = Path(__file__).resolve().parents[1] / "cases" / "area_movement"

# -- the source sentences, verbatim -----------------------------------------------------------
ORDER_1 = "This phase is resolved in Census order."
ORDER_HIGHEST = "The player with the highest Census takes all of the actions in turn."
ORDER_NEXT = ("After he has finished all steps in this phase, the player with the next highest "
              "census-count takes all of these steps and so on, until all players have done so.")
ORDER_TIES = "A.S.T.-ranking order breaks ties."
SIMULTANEOUS = ("However, it is preferable that players move simultaneously if possible as this "
                "speeds up game play.")
AS_SOON = ("All players may take their movement action as soon as they like, but players may "
           "insist to wait for their turn.")
REVERT = ("As long as a player is busy moving, that player may revert any of his moved tokens "
          "when changing his mind.")
NO_CHANGE = ("However, once the player declares his movement has ended he cannot change his "
             "movement.")
BARBARIANS = "Barbarian tokens do not move."
STEP = ("Players may move each of their tokens on the board either 1 step to an area adjacent by "
        "land or onto a ship.")
BUILD_ANY_TIME = ("At any time during his Movement-phase, before, during or after moving his "
                  "tokens, until the moment he declares his movement has ended, a player may "
                  "choose to build ships.")
BUILD_WHERE = "This can only be done in coastal areas containing 1 or more of his tokens."
BUILD_FOUR = "A player can build no more than 4 ships per turn."
WAY_1 = "1. Pay 2 treasury tokens."
WAY_2 = "2. Pay 1 treasury token and destroy 1 population token from the ship area."
WAY_3 = "3. Destroy 2 tokens from the board, at least 1 of which is from the ship area."
USED_WHEN_BUILT = "A ship can be used the turn it is built."
MAINTAIN = ("As soon as a player wants to use a ship that was built during a previous turn, he "
            "must first either pay 1 treasury token or destroy one of his tokens from anywhere "
            "on the board for that ship.")
MAINTAIN_ANY_MOMENT = ("This can be done at any moment during his movement action before using "
                       "the ship, and this may be decided for each ship independently at "
                       "different moments during his movement action.")
MAINTAIN_NO_MOVE = ("He may also choose to maintain a ship this way and choose to not move it, "
                    "or possibly move it later during his movement action.")
MAINTAIN_ONCE = "A player can only pay maintenance once per ship per turn this way."
DESTROY_REBUILD = ("A player may choose not to maintain a ship this way and destroy it in order "
                   "to rebuild it in the same turn.")
NO_DESTROY = ("A player cannot voluntarily destroy a ship that was built in the current turn or "
              "is maintained from previous turn in order to build it again in the same turn.")
FOUR_AREAS = "Players may move each of their ships 4 areas by water per turn."
OPEN_SEA = "By default, ships cannot be moved through open sea areas."
EMBARK = ("At any moment during ship movement, the ship may embark or disembark any number of "
          "tokens,")
CAPACITY = "but a ship can only carry up to 5 tokens at the same time by default."
LAST_STEP = "After the ship's last step any tokens on it are automatically disembarked in the area."
NO_STAY = "Tokens cannot stay on ships after movement."
NOT_BOTH = "Tokens may move either by ship or by land (not both)."
OUT_OF_PLAY = ("Ships may move through an area containing an 'out of play' token, but cannot end "
               "movement or disembark tokens there.")
END = ("As soon as a player declares his movement has ended, he must destroy all of his ships "
       "that were not built or maintained this turn.")
TIP = ("Tip: Once a token or ship has moved or if you choose to not move it, flip it. After you "
       "have declared your movement has ended flip all your tokens and ships back to the "
       "colored side.")
CITY_PHASE = "Cities are only built in the City Construction-phase."
CITY_SIX = ("However, in order to build a city, players must have at least 6 tokens in an area "
            "containing a city site during the Movement-phase.")
CITY_AFTER_CONFLICT = ("If, after a conflict, a player still has 6 or more tokens in an area he "
                       "may build a city there in the appropriate phase.")
WILDERNESS = ("Players can also attempt to build a 'wilderness city' in an area without a city "
              "site, but in this case 12 tokens are required.")
LIMIT_ZERO = ("Wilderness cities can never be built in areas with a population limit of '0', "
              "regardless of holding any Civilization Advances.")
CONFLICT = ("As soon as a player enters an area that contains 1 or more tokens belonging to other "
            "player(s) or barbarian tokens and as a result the population limit this exceeded, or "
            "the area contains an enemy city or a pirate city, this is considered 'causing "
            "conflict' and in this case 'a conflict situation' occurs.")
VOIDED = ("This conflict situation may be voided if the enemy player moves later and moves tokens "
          "out of the area afterwards.")
NO_LONGER = "In that case there is no longer a conflict situation in that area."
RESOLVED_LATER = "The conflict itself, if occurring, is only resolved during Conflict-phase."
ENTERING = ("'Entering an area' is defined by either moving a token into the area by land, or a "
            "token disembarking a ship in the area.")
SHIP_NOT_ENTERING = ("The movement of a ship (with or without tokens on it) into an area is not "
                     "regarded as entering the")
READING_ONCE = ("Each token moves at most once: one step to an area adjacent by land, or aboard "
                "a ship; never both.")
READING_LANDING = ("Tokens still aboard after a voyage's last step land in its final area "
                   "automatically; that is disembarking, and so entering.")
READING_PLAN = ("The plan is validated as a whole and step by step (the first illegal step is "
                "reported with its index); since a player may revert freely until declaring the "
                "end, validating a plan has no side effects until `end_movement`.")
READING_MAP = ("The map is data: areas with land adjacency and water adjacency, coastal or not, "
               "open sea or not, population limit, city site or not, 'out of play' or not; "
               "cities (player, pirate) and barbarian tokens; each player's tokens per area, "
               "treasury tokens, census (tokens on the board), A.S.T. rank, and ships (area, "
               "built or maintained this turn).")
READING_ORDER = ("Order: players move in census order, highest first, ties broken by A.S.T. rank; "
                 "the service reports the order and refuses a movement of a player out of turn "
                 "unless the request says movement is simultaneous.")
READING_CITY = ("City eligibility (derived): an area with a city site holding ≥ 6 of a player's "
                "tokens, or a wilderness area (no city site, population limit > 0) holding ≥ 12.")


# -- the map ----------------------------------------------------------------------------------

def _area(id: str, limit: int, land: list[str] | None = None, water: list[str] | None = None,
          **flags: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": id, "population_limit": limit}
    if land:
        out["land"] = land
    if water:
        out["water"] = water
        out["coastal"] = True
    return out | flags


def aegean() -> dict[str, Any]:
    return {
        "areas": [
            _area("athens", 3, ["thebes", "corinth", "megara"], ["corinth", "aegean"],
                  city_site=True),
            _area("thebes", 2, ["athens", "corinth", "delphi", "macedon"], city_site=True),
            _area("corinth", 2, ["athens", "thebes", "argos", "sparta"], ["athens", "sparta"]),
            _area("sparta", 3, ["argos", "corinth"], ["corinth", "ionian"], city_site=True),
            _area("argos", 2, ["corinth", "sparta"], out_of_play=True),
            _area("megara", 2, ["athens"], city_site=True),
            _area("delphi", 0, ["thebes"]),
            _area("macedon", 4, ["thebes"]),
            _area("rhodes", 2, None, ["aegean", "crete"], out_of_play=True),
            _area("crete", 3, None, ["rhodes", "ionian", "libyan"], city_site=True),
            _area("troy", 4, ["ionia"], ["ionia", "aegean"], city_site=True),
            _area("ionia", 2, ["troy"], ["troy", "aegean"]),
            _area("cyprus", 2, None, ["libyan"], city_site=True),
        ],
        "seas": [
            {"id": "aegean", "water": ["athens", "rhodes", "troy", "ionia"]},
            {"id": "ionian", "water": ["sparta", "crete"]},
            {"id": "libyan", "water": ["crete", "cyprus"], "open_sea": True},
        ],
        "cities": [{"area": "sparta", "owner": "blue"}, {"area": "megara"}],
        "barbarians": {"macedon": 2},
        "players": [
            {"id": "red", "tokens": {"athens": 6, "thebes": 2, "corinth": 1}, "treasury": 3,
             "census": 9, "ast_rank": 2},
            {"id": "blue", "tokens": {"sparta": 3, "crete": 2, "troy": 4}, "treasury": 1,
             "census": 9, "ast_rank": 1, "movement_ended": True},
            {"id": "green", "tokens": {"ionia": 2, "macedon": 1}, "treasury": 0, "census": 3,
             "ast_rank": 3},
        ],
        "ships": [
            {"id": "argo", "owner": "red", "area": "athens"},
            {"id": "trireme", "owner": "blue", "area": "sparta", "maintained_this_turn": True},
        ],
    }


def state(options: dict[str, Any] | None = None, **players: dict[str, Any]) -> dict[str, Any]:
    """The Aegean, with options and some fields of some players changed."""
    out = aegean()
    if options:
        out["options"] = options
    for p in out["players"]:
        p.update(players.get(p["id"], {}))
    return out


# -- steps ------------------------------------------------------------------------------------

def plan(player: str, *steps: dict[str, Any]) -> dict[str, Any]:
    return {"type": "movement", "player": player, "steps": list(steps)}


def bare(plan: dict[str, Any]) -> dict[str, Any]:
    """A plan as the conflicts query takes it: no type tag."""
    return {"player": plan["player"], "steps": plan["steps"]}


def move(a: str, b: str, n: int) -> dict[str, Any]:
    return {"type": "move_tokens", "from_area": a, "to_area": b, "count": n}


def build(ship: str, area: str, pay: str, **tokens: int) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "build_ship", "ship": ship, "area": area, "pay": pay}
    if tokens:
        out["tokens"] = [{"area": a, "count": n} for a, n in tokens.items()]
    return out


def maintain(ship: str, pay: str = "treasury", area: str | None = None) -> dict[str, Any]:
    """A maintenance; paid with a token, the token named as a build names its tokens."""
    out: dict[str, Any] = {"type": "maintain_ship", "ship": ship, "pay": pay}
    return out | ({"tokens": [{"area": area, "count": 1}]} if area else {})


def maintain_by_area(ship: str, area: str) -> dict[str, Any]:
    """A maintenance paid with a token, in the deprecated spelling of ruleset version 1.0.0."""
    return {"type": "maintain_ship", "ship": ship, "pay": "token", "area": area}


def sail(ship: str, *path: str | tuple[str, int, int], embark: int = 0) -> dict[str, Any]:
    stops = [{"area": p} if isinstance(p, str) else
             {"area": p[0], "disembark": p[1], "embark": p[2]} for p in path]
    return {"type": "sail", "ship": ship, "embark": embark, "path": stops}


def destroy(ship: str) -> dict[str, Any]:
    return {"type": "destroy_ship", "ship": ship}


END_STEP = {"type": "end_movement"}
RED_MAINTAINS = maintain("argo")


def red(*steps: dict[str, Any]) -> dict[str, Any]:
    return plan("red", *steps)


def players(red: dict[str, Any] | None = None, blue: dict[str, Any] | None = None,
            green: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """An expected ``players`` list: a subset for each, in state order."""
    return [red or {}, blue or {}, green or {}]


def case(name: str, description: str, source: str, action: dict[str, Any], codes: list[str],
         *, st: dict[str, Any] | None = None, events: list[str] | None = None,
         result: dict[str, Any] | None = None, derived: dict[str, Any] | None = None,
         mode: str | None = None, applied: bool | None = None) -> tuple[str, dict[str, Any]]:
    expect: dict[str, Any] = {"legal": not codes, "codes": sorted(codes)}
    if applied is not None:
        expect["applied"] = applied
    elif not codes:
        expect["applied"] = True
    for key, value in (("events", events), ("state", result), ("derived", derived)):
        if value is not None:
            expect[key] = value
    if not codes:
        expect["reversible"] = True
    body: dict[str, Any] = {"description": description, "source": source,
                            "state": st if st is not None else state(), "action": action}
    if mode:
        body["mode"] = mode
    return name, body | {"expect": expect}


def query(name: str, description: str, source: str, which: str, request: dict[str, Any],
          expect: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return name, {"description": description, "source": source, "query": which,
                  "request": request, "expect": expect}


def malformed(name: str, description: str, action: dict[str, Any], pointers: list[str], *,
              st: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    return name, {"description": description, "source": READING_MAP,
                  "state": st if st is not None else state(), "action": action,
                  "expect": {"status": 422, "pointers": pointers}}


# -- the cases --------------------------------------------------------------------------------

BLUE_MOVING = {"movement_ended": False}


def order_cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        case("highest_census_moves_first", "Nobody has moved yet: blue, highest census (tied "
             "with red, A.S.T. rank 1), declares the end of his movement first.", ORDER_HIGHEST,
             plan("blue", END_STEP), [], st=state(blue=BLUE_MOVING),
             events=["movement_ended", "moved_marks_cleared"],
             result={"players": players(blue={"movement_ended": True})}),
        case("next_census_moves_after", "Blue has declared his end: red, next in census order, "
             "moves.", ORDER_NEXT, red(move("athens", "thebes", 1)), [],
             events=["tokens_moved"],
             result={"players": players(red={"tokens": {"athens": 5, "thebes": 3},
                                             "moved_by_land": {"thebes": 1}})}),
        case("out_of_turn", "Green (census 3) sends a plan while red (census 9) has not "
             "declared the end of his movement.", ORDER_1,
             plan("green", move("ionia", "troy", 1)), ["out_of_turn"], applied=False),
        case("out_of_turn_tie_broken_by_ast", "Red and blue both have census 9; blue is first "
             "on the A.S.T., so red waits for blue.", ORDER_TIES,
             red(move("athens", "thebes", 1)), ["out_of_turn"], st=state(blue=BLUE_MOVING),
             derived={"plan": {"steps": 1, "first_illegal_step": None}}),
        case("out_of_turn_refused_unless_simultaneous", "Without the simultaneous option the "
             "service refuses green's plan before red has moved.", READING_ORDER,
             plan("green", move("macedon", "thebes", 1)), ["out_of_turn"]),
        case("simultaneous_movement", "With simultaneous movement green moves before blue and "
             "red; his token stepping into Troy (4 blue tokens, limit 4) causes a conflict.",
             SIMULTANEOUS, plan("green", move("ionia", "troy", 1)), [],
             st=state({"simultaneous_movement": True}, blue=BLUE_MOVING),
             events=["tokens_moved", "conflict_caused"]),
        case("simultaneous_as_soon_as_they_like", "With simultaneous movement red moves while "
             "blue, before him in census order, waits.", AS_SOON,
             red(move("athens", "thebes", 1)), [],
             st=state({"simultaneous_movement": True}, blue=BLUE_MOVING),
             events=["tokens_moved"]),
        case("plan_without_end_can_be_reverted", "A plan without end_movement leaves the "
             "movement open: the client may send another plan from the same state.", REVERT,
             red(move("athens", "thebes", 2)), [],
             result={"players": players(red={"movement_ended": False,
                                             "moved_by_land": {"thebes": 2}})},
             derived={"plan": {"steps": 1, "first_illegal_step": None}}),
        case("movement_ended_cannot_change", "Red has declared the end of his movement: he "
             "cannot move again this turn (the code is not the event's name, movement_ended).",
             NO_CHANGE, red(move("athens", "thebes", 1)),
             ["movement_already_ended"], st=state(red={"movement_ended": True}),
             derived={"plan": {"steps": 1, "first_illegal_step": None,
                               "whole_plan_violations": 1}}),
        case("whole_plan_refusal_listed_first", "Green's plan is out of turn, and its second "
             "step is illegal too: the refusal of the whole plan comes first (at.step null), "
             "then the first illegal step's.", ORDER_1,
             plan("green", move("ionia", "troy", 1), move("troy", "athens", 1)),
             ["out_of_turn", "not_adjacent_by_land", "token_already_moved"],
             derived={"plan": {"steps": 2, "first_illegal_step": 1,
                               "whole_plan_violations": 1}}),
        case("turn_passes_when_the_movement_ends", "Red declares his end: green, next in "
             "census order, moves once it is applied.", ORDER_NEXT, red(END_STEP), [],
             events=["movement_ended", "unmaintained_ship_destroyed", "moved_marks_cleared"],
             derived={"turn": {"moving": "red", "may_move": ["red"], "simultaneous": False},
                      "turn_after": {"moving": "green", "may_move": ["green"],
                                     "simultaneous": False}}),
        case("turn_with_simultaneous_movement", "With simultaneous movement every player who "
             "has not declared his end may move, in census order.", AS_SOON,
             plan("green", move("ionia", "troy", 1)), [],
             st=state({"simultaneous_movement": True}, blue=BLUE_MOVING),
             events=["tokens_moved", "conflict_caused"],
             derived={"turn": {"moving": "blue", "may_move": ["blue", "red", "green"],
                               "simultaneous": True},
                      "turn_after": {"moving": "blue", "may_move": ["blue", "red", "green"],
                                     "simultaneous": True}}),
        case("step_after_end_movement", "A step after end_movement is refused, at its index.",
             NO_CHANGE, red(END_STEP, move("athens", "thebes", 1)), ["step_after_end"],
             derived={"plan": {"steps": 2, "first_illegal_step": 1}}),
        case("first_illegal_step_reported", "The second step is illegal; the third (a move to "
             "an area out of play) is not judged.", READING_PLAN,
             red(move("athens", "thebes", 1), move("athens", "delphi", 1),
                 move("corinth", "argos", 1)),
             ["not_adjacent_by_land"],
             derived={"plan": {"steps": 3, "first_illegal_step": 1}}),
        case("barbarians_do_not_move", "Red steps two tokens into Macedon beside green and two "
             "barbarians: a conflict, and the barbarians stay.", BARBARIANS,
             red(move("thebes", "macedon", 2)), [], events=["tokens_moved", "conflict_caused"],
             result={"barbarians": {"macedon": 2}}),
    ]


def step_cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        case("step_by_land_to_adjacent_area", "One token steps from Athens to Corinth, adjacent "
             "by land.", STEP, red(move("athens", "corinth", 1)), [], events=["tokens_moved"],
             result={"players": players(red={"tokens": {"athens": 5, "corinth": 2},
                                             "moved_by_land": {"corinth": 1}})}),
        case("not_adjacent_by_land", "Delphi borders Thebes, not Athens.", STEP,
             red(move("athens", "delphi", 1)), ["not_adjacent_by_land"],
             derived={"plan": {"steps": 1, "first_illegal_step": 0}}),
        case("not_enough_tokens", "Red's only token in Corinth paid for a ship: none is left to "
             "move.", STEP,
             red(build("ship-1", "corinth", "tokens", corinth=1, athens=1),
                 move("corinth", "thebes", 1)),
             ["not_enough_tokens"], derived={"plan": {"steps": 2, "first_illegal_step": 1}}),
        case("not_enough_tokens_as_sent", "Red has one token in Corinth and moves two: the "
             "same verdict as when a payment destroyed them, on the first step as on any.",
             STEP, red(move("corinth", "thebes", 2)), ["not_enough_tokens"],
             derived={"plan": {"steps": 1, "first_illegal_step": 0}}),
        case("not_enough_tokens_to_embark", "Argo takes seven of the six tokens in Athens "
             "aboard.", STEP, red(RED_MAINTAINS, sail("argo", "corinth", embark=7)),
             ["not_enough_tokens"], derived={"plan": {"steps": 2, "first_illegal_step": 1}}),
        case("land_and_ship", "Two of red's tokens in Athens came by ship this turn: only four "
             "can step by land.", NOT_BOTH, red(move("athens", "thebes", 5)), ["land_and_ship"],
             st=state(red={"moved_by_ship": {"athens": 2}})),
        case("token_moves_only_once", "The two tokens that stepped into Thebes cannot step on; "
             "Thebes's own two have left.", READING_ONCE,
             red(move("athens", "thebes", 2), move("thebes", "corinth", 2),
                 move("thebes", "delphi", 1)),
             ["token_already_moved"], derived={"plan": {"steps": 3, "first_illegal_step": 2}}),
        case("no_step_into_out_of_play", "Argos is out of play: tokens cannot step there.",
             OUT_OF_PLAY, red(move("corinth", "argos", 1)), ["area_out_of_play"]),
    ]


def build_cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        case("build_paying_two_treasury", "A ship in Corinth for 2 treasury tokens.", WAY_1,
             red(build("ship-1", "corinth", "treasury")), [], events=["ship_built"],
             result={"players": players(red={"treasury": 1, "tokens": {"corinth": 1}}),
                     "ships": [{"id": "argo"}, {"id": "trireme"},
                               {"id": "ship-1", "owner": "red", "area": "corinth",
                                "built_this_turn": True}]}),
        case("treasury_short_for_ship", "Red holds 1 treasury token.", WAY_1,
             red(build("ship-1", "corinth", "treasury")), ["treasury_short_for_ship"],
             st=state(red={"treasury": 1})),
        case("build_paying_treasury_and_token", "A ship in Athens for 1 treasury token and one "
             "of the six tokens there.", WAY_2,
             red(build("ship-1", "athens", "treasury_and_token")), [], events=["ship_built"],
             result={"players": players(red={"treasury": 2, "tokens": {"athens": 5}})}),
        case("treasury_short_for_ship_and_token", "Red's treasury is empty.", WAY_2,
             red(build("ship-1", "athens", "treasury_and_token")),
             ["treasury_short_for_ship_and_token"], st=state(red={"treasury": 0})),
        case("no_population_token", "Red's token in Corinth stepped away: none is left there to "
             "destroy (nor to build beside).", WAY_2,
             red(move("corinth", "thebes", 1), build("ship-1", "corinth", "treasury_and_token")),
             ["no_population_token", "no_token_in_area"],
             derived={"plan": {"steps": 2, "first_illegal_step": 1}}),
        case("build_destroying_two_tokens", "A ship in Corinth for the token there and one from "
             "Athens.", WAY_3, red(build("ship-1", "corinth", "tokens", corinth=1, athens=1)),
             [], events=["ship_built"],
             result={"players": players(red={"treasury": 3, "tokens": {"athens": 5}})}),
        case("payment_not_two_tokens", "One token named where the way takes two.", WAY_3,
             red(build("ship-1", "athens", "tokens", athens=1)), ["payment_not_two_tokens"]),
        case("payment_none_from_ship_area", "Both tokens come from Athens for a ship in "
             "Corinth.", WAY_3, red(build("ship-1", "corinth", "tokens", athens=2)),
             ["payment_none_from_ship_area"]),
        case("payment_tokens_missing", "Corinth holds one of red's tokens, not two.", WAY_3,
             red(build("ship-1", "corinth", "tokens", corinth=2)), ["payment_tokens_missing"]),
        case("not_coastal", "Thebes has no coast.", BUILD_WHERE,
             red(build("ship-1", "thebes", "treasury")), ["not_coastal"]),
        case("no_token_in_area", "Crete is coastal but holds no token of red's.", BUILD_WHERE,
             red(build("ship-1", "crete", "treasury")), ["no_token_in_area"]),
        case("too_many_ships", "Red has built four ships this turn already.", BUILD_FOUR,
             red(build("ship-5", "corinth", "treasury")), ["too_many_ships"],
             st=four_ships_built()),
        case("build_at_any_time", "A ship built between two token steps.", BUILD_ANY_TIME,
             red(move("athens", "thebes", 1), build("ship-1", "athens", "treasury"),
                 move("corinth", "athens", 1)), [],
             events=["tokens_moved", "ship_built", "tokens_moved"]),
        case("ship_used_the_turn_it_is_built", "The new ship needs no maintenance: it carries "
             "Corinth's token to Athens at once.", USED_WHEN_BUILT,
             red(build("ship-1", "corinth", "treasury"), sail("ship-1", "athens", embark=1)), [],
             events=["ship_built", "tokens_embarked", "ship_sailed", "tokens_landed"],
             result={"players": players(red={"tokens": {"athens": 7},
                                             "moved_by_ship": {"athens": 1}}),
                     "ships": [{"id": "argo"}, {"id": "trireme"},
                               {"id": "ship-1", "area": "athens", "sailed_this_turn": True}]}),
    ]


def four_ships_built() -> dict[str, Any]:
    out = state()
    out["ships"] += [{"id": f"s{k}", "owner": "red", "area": "athens", "built_this_turn": True}
                     for k in range(1, 5)]
    return out


def maintain_cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        case("ship_not_maintained", "Argo was built in an earlier turn and is not maintained.",
             MAINTAIN, red(sail("argo", "aegean")), ["ship_not_maintained"]),
        case("maintain_with_treasury_then_sail", "One treasury token, then Argo carries two "
             "tokens to Corinth.", MAINTAIN,
             red(RED_MAINTAINS, sail("argo", "corinth", embark=2)), [],
             events=["ship_maintained", "tokens_embarked", "ship_sailed", "tokens_landed"],
             result={"players": players(red={"treasury": 2, "tokens": {"athens": 4,
                                                                        "corinth": 3}}),
                     "ships": [{"id": "argo", "area": "corinth", "maintained_this_turn": True,
                                "sailed_this_turn": True}, {"id": "trireme"}]}),
        case("maintain_with_a_token_from_anywhere", "A token in Thebes, far from the ship, pays "
             "its maintenance.", MAINTAIN, red(maintain("argo", "token", "thebes")), [],
             events=["ship_maintained"],
             result={"players": players(red={"treasury": 3, "tokens": {"thebes": 1}})}),
        case("maintenance_treasury_short", "Red's treasury is empty.", MAINTAIN,
             red(RED_MAINTAINS), ["maintenance_treasury_short"], st=state(red={"treasury": 0})),
        case("maintenance_token_missing", "Corinth's token stepped away before paying.",
             MAINTAIN, red(move("corinth", "thebes", 1), maintain("argo", "token", "corinth")),
             ["maintenance_token_missing"]),
        case("maintenance_not_due", "A ship built this turn needs no maintenance.", MAINTAIN,
             red(build("ship-1", "corinth", "treasury"), maintain("ship-1")),
             ["maintenance_not_due"]),
        case("maintain_at_any_moment", "Tokens step first; Argo is maintained later, just "
             "before it sails.", MAINTAIN_ANY_MOMENT,
             red(move("athens", "thebes", 1), RED_MAINTAINS, move("corinth", "thebes", 1),
                 sail("argo", "corinth", embark=2)), [],
             events=["tokens_moved", "ship_maintained", "tokens_moved", "tokens_embarked",
                     "ship_sailed", "tokens_landed"]),
        case("maintain_and_not_move", "Argo is maintained and stays in port: it survives the "
             "end of the movement.", MAINTAIN_NO_MOVE, red(RED_MAINTAINS, END_STEP), [],
             events=["ship_maintained", "movement_ended", "moved_marks_cleared"],
             result={"ships": [{"id": "argo", "area": "athens", "maintained_this_turn": True},
                               {"id": "trireme"}]}),
        case("maintain_with_deprecated_area", "The spelling of version 1.0.0, `area`, is "
             "still read as `tokens: [{area, count: 1}]`: a token in Thebes pays.", MAINTAIN,
             red(maintain_by_area("argo", "thebes")), [], events=["ship_maintained"],
             result={"players": players(red={"tokens": {"athens": 6, "thebes": 1,
                                                        "corinth": 1}})}),
        case("maintenance_not_one_token", "Two tokens named for one maintenance: the token "
             "way destroys exactly one.", MAINTAIN,
             red({"type": "maintain_ship", "ship": "argo", "pay": "token",
                  "tokens": [{"area": "thebes", "count": 2}]}), ["maintenance_not_one_token"]),
        case("maintenance_token_not_named", "Paying with a token without naming it: the token "
             "way destroys exactly one, named in `tokens`.", MAINTAIN,
             red(maintain("argo", "token")), ["maintenance_not_one_token"]),
        case("maintenance_once_per_ship", "Argo is maintained twice.", MAINTAIN_ONCE,
             red(RED_MAINTAINS, RED_MAINTAINS), ["already_maintained"]),
        case("destroy_unmaintained_to_rebuild", "Argo is left unmaintained, destroyed and built "
             "again with two tokens from Athens.", DESTROY_REBUILD,
             red(destroy("argo"), build("argo", "athens", "tokens", athens=2)), [],
             events=["ship_destroyed", "ship_built"],
             result={"players": players(red={"tokens": {"athens": 4}, "treasury": 3}),
                     "ships": [{"id": "argo", "built_this_turn": True}, {"id": "trireme"}]}),
        case("maintained_ship_cannot_be_destroyed", "Argo, maintained this turn, cannot be "
             "destroyed.", NO_DESTROY, red(RED_MAINTAINS, destroy("argo")),
             ["ship_cannot_be_destroyed"]),
        case("new_ship_cannot_be_destroyed", "A ship built this turn cannot be destroyed.",
             NO_DESTROY, red(build("ship-1", "corinth", "treasury"), destroy("ship-1")),
             ["ship_cannot_be_destroyed"]),
    ]


def voyage_cases() -> list[tuple[str, dict[str, Any]]]:
    argo_at_crete = state()
    argo_at_crete["ships"][0] = {"id": "argo", "owner": "red", "area": "crete",
                                 "maintained_this_turn": True}
    open_sea_allowed = copy.deepcopy(argo_at_crete) | {"options": {"open_sea_travel": True}}
    return [
        case("voyage_of_four_areas", "Argo carries three tokens four areas, past blue's city "
             "in Sparta, to Crete, where they land beside blue's two tokens (limit 3).",
             FOUR_AREAS,
             red(RED_MAINTAINS, sail("argo", "corinth", "sparta", "ionian", "crete", embark=3)),
             [], events=["ship_maintained", "tokens_embarked", "ship_sailed", "tokens_landed",
                         "conflict_caused"],
             result={"players": players(red={"tokens": {"athens": 3, "crete": 3},
                                             "moved_by_ship": {"crete": 3}}),
                     "ships": [{"id": "argo", "area": "crete"}, {"id": "trireme"}]}),
        case("voyage_too_long", "Five areas by water.", FOUR_AREAS,
             red(RED_MAINTAINS, sail("argo", "aegean", "ionia", "troy", "aegean", "athens")),
             ["voyage_too_long"], derived={"plan": {"steps": 2, "first_illegal_step": 1}}),
        case("not_adjacent_by_water", "The Ionian Sea does not touch Athens.", FOUR_AREAS,
             red(RED_MAINTAINS, sail("argo", "ionian")), ["not_adjacent_by_water"]),
        case("ship_already_sailed", "Argo's voyage is made; a second one is refused.",
             FOUR_AREAS, red(RED_MAINTAINS, sail("argo", "aegean"), sail("argo", "athens")),
             ["ship_already_sailed"], derived={"plan": {"steps": 3, "first_illegal_step": 2}}),
        case("open_sea", "The Libyan Sea is open sea.", OPEN_SEA,
             red(sail("argo", "libyan", "cyprus")), ["open_sea"], st=argo_at_crete),
        case("open_sea_allowed_by_option", "With open-sea travel allowed, Argo crosses the "
             "Libyan Sea.", OPEN_SEA, red(sail("argo", "libyan", "cyprus")), [],
             st=open_sea_allowed, events=["ship_sailed"],
             result={"ships": [{"id": "argo", "area": "cyprus"}, {"id": "trireme"}]}),
    ]


def landing_cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        case("embark_and_disembark_midway", "Two tokens board in Athens; in Corinth one lands "
             "and Corinth's token boards; both land in Sparta.", EMBARK,
             red(RED_MAINTAINS, sail("argo", ("corinth", 1, 1), "sparta", embark=2)), [],
             events=["ship_maintained", "tokens_embarked", "ship_sailed", "tokens_disembarked",
                     "tokens_embarked", "tokens_landed", "conflict_caused"],
             result={"players": players(red={
                 "tokens": {"athens": 4, "thebes": 2, "corinth": 1, "sparta": 2},
                 "moved_by_ship": {"corinth": 1, "sparta": 2}})}),
        case("over_capacity", "Six tokens board a ship that carries five.", CAPACITY,
             red(RED_MAINTAINS, sail("argo", "corinth", embark=6)), ["over_capacity"]),
        case("capacity_raised_by_option", "The options raise the capacity to six.", CAPACITY,
             red(RED_MAINTAINS, sail("argo", "corinth", embark=6)), [],
             st=state({"ship_capacity": 6}),
             result={"players": players(red={"tokens": {"corinth": 7}})}),
        case("tokens_land_after_last_step", "The token aboard lands in Corinth, the voyage's "
             "last area.", LAST_STEP, red(RED_MAINTAINS, sail("argo", "corinth", embark=1)), [],
             events=["ship_maintained", "tokens_embarked", "ship_sailed", "tokens_landed"],
             result={"players": players(red={"tokens": {"athens": 5, "corinth": 2},
                                             "moved_by_ship": {"corinth": 1}})}),
        case("no_token_stays_aboard", "One token lands in Corinth; the two still aboard land in "
             "Athens, where the voyage ends.", NO_STAY,
             red(RED_MAINTAINS, sail("argo", ("corinth", 1, 0), "athens", embark=3)), [],
             events=["ship_maintained", "tokens_embarked", "ship_sailed", "tokens_disembarked",
                     "tokens_landed"],
             result={"players": players(red={"tokens": {"athens": 5, "corinth": 2},
                                             "moved_by_ship": {"corinth": 1, "athens": 2}})}),
        case("voyage_through_out_of_play", "Argo passes Rhodes, out of play, and lands its "
             "token in Crete.", OUT_OF_PLAY,
             red(RED_MAINTAINS, sail("argo", "aegean", "rhodes", "crete", embark=1)), [],
             events=["ship_maintained", "tokens_embarked", "ship_sailed", "tokens_landed"]),
        case("voyage_ends_out_of_play", "Argo would stop in Rhodes, out of play.", OUT_OF_PLAY,
             red(RED_MAINTAINS, sail("argo", "aegean", "rhodes")), ["voyage_ends_out_of_play"]),
        case("disembark_out_of_play", "Tokens would land in Rhodes, out of play.", OUT_OF_PLAY,
             red(RED_MAINTAINS, sail("argo", "aegean", ("rhodes", 2, 0), "crete", embark=2)),
             ["disembark_out_of_play"]),
        case("disembark_at_sea", "The voyage ends in the Aegean Sea with a token aboard, which "
             "cannot land on water.", NO_STAY,
             red(RED_MAINTAINS, sail("argo", "aegean", embark=1)), ["disembark_at_sea"]),
    ]


def end_cases() -> list[tuple[str, dict[str, Any]]]:
    sailed = state(red={"moved_by_land": {"thebes": 1}})
    sailed["ships"][0] |= {"built_this_turn": True, "sailed_this_turn": True}
    ended = {"players": players(red={"movement_ended": True}), "ships": [{"id": "trireme"}]}
    return [
        case("end_destroys_unmaintained_ships", "Red declares the end: Argo, neither built nor "
             "maintained this turn, is destroyed.", END, red(END_STEP), [],
             events=["movement_ended", "unmaintained_ship_destroyed", "moved_marks_cleared"],
             result=ended),
        case("end_movement_action", "The end declared on its own, as the action end_movement.",
             END, {"type": "end_movement", "player": "red"}, [],
             events=["movement_ended", "unmaintained_ship_destroyed", "moved_marks_cleared"],
             result=ended),
        case("moved_marks_cleared_at_end", "Red's moved token and sailed ship are flipped "
             "back when he declares the end.", TIP, red(END_STEP), [], st=sailed,
             events=["movement_ended", "moved_marks_cleared"],
             result={"ships": [{"id": "argo", "sailed_this_turn": False,
                                "built_this_turn": True}, {"id": "trireme"}]}),
        case("no_city_built_during_movement", "Six tokens on Athens's city site: the movement "
             "ends and no city is built.", CITY_PHASE, red(END_STEP), [],
             result={"cities": [{"area": "sparta", "owner": "blue"},
                                {"area": "megara", "owner": None}]}),
    ]


def conflict_cases() -> list[tuple[str, dict[str, Any]]]:
    voided = state(red={"tokens": {"athens": 6, "thebes": 1, "corinth": 1, "macedon": 2},
                        "moved_by_land": {"macedon": 2}, "movement_ended": True})
    return [
        case("conflict_with_enemy_city", "Red steps into Sparta: blue's city, and four tokens "
             "against a limit of 3.", CONFLICT, red(move("corinth", "sparta", 1)), [],
             events=["tokens_moved", "conflict_caused"]),
        case("conflict_with_pirate_city", "Red steps into Megara, where a pirate city stands.",
             CONFLICT, red(move("athens", "megara", 1)), [],
             events=["tokens_moved", "conflict_caused"]),
        case("conflict_resolved_later", "The conflict in Sparta is only reported: every token "
             "stays.", RESOLVED_LATER, red(move("corinth", "sparta", 1)), [],
             result={"players": players(red={"tokens": {"sparta": 1}},
                                        blue={"tokens": {"sparta": 3}})}),
        case("entering_by_disembarking", "A token disembarks in Ionia beside green's two "
             "(limit 2); the ship goes on, empty, to Troy.", ENTERING,
             red(RED_MAINTAINS, sail("argo", "aegean", ("ionia", 1, 0), "troy", embark=1)), [],
             events=["ship_maintained", "tokens_embarked", "ship_sailed", "tokens_disembarked",
                     "conflict_caused"]),
        case("ship_moving_in_does_not_enter", "Argo carries a token through Sparta (blue's "
             "city and tokens) and lands it in Crete within its limit: no conflict.",
             SHIP_NOT_ENTERING,
             red(RED_MAINTAINS, sail("argo", "corinth", "sparta", "ionian", "crete", embark=1)),
             [], events=["ship_maintained", "tokens_embarked", "ship_sailed", "tokens_landed"]),
        case("landing_after_last_step_is_entering", "Two tokens still aboard land in Ionia "
             "beside green's two: that is entering, and a conflict.", READING_LANDING,
             red(RED_MAINTAINS, sail("argo", "aegean", "ionia", embark=2)), [],
             events=["ship_maintained", "tokens_embarked", "ship_sailed", "tokens_landed",
                     "conflict_caused"]),
        case("conflict_voided_by_later_move", "Green, moving after red, steps out of Macedon: "
             "two barbarians and two red tokens are within its limit of 4.", VOIDED,
             plan("green", move("macedon", "thebes", 1)), [], st=voided,
             events=["tokens_moved", "conflict_voided"]),
    ]


def query_cases() -> list[tuple[str, dict[str, Any]]]:
    reach = [{"area": "aegean", "steps": 1, "path": ["aegean"], "can_end": True,
              "can_disembark": False},
             {"area": "corinth", "steps": 1, "path": ["corinth"], "can_disembark": True},
             {"area": "ionia", "steps": 2, "path": ["aegean", "ionia"]},
             {"area": "rhodes", "steps": 2, "can_end": False, "can_disembark": False},
             {"area": "sparta", "steps": 2, "path": ["corinth", "sparta"]},
             {"area": "troy", "steps": 2, "path": ["aegean", "troy"]},
             {"area": "crete", "steps": 3, "path": ["aegean", "rhodes", "crete"]},
             {"area": "ionian", "steps": 3, "path": ["corinth", "sparta", "ionian"]}]
    ways = ["treasury", "treasury_and_token", "tokens"]
    return [
        query("census_order", "Blue and red tie on census 9; blue's A.S.T. rank 1 puts him "
              "first. Blue has declared his end: red moves.", READING_ORDER, "census-order",
              {"state": state()},
              {"order": [{"player": "blue", "position": 1, "census": 9, "ast_rank": 1,
                          "movement_ended": True},
                         {"player": "red", "position": 2}, {"player": "green", "position": 3}],
               "ties": [{"census": 9, "players": ["blue", "red"], "broken_by": "ast_rank"}],
               "moving": "red", "may_move": ["red"], "simultaneous": False}),
        query("census_order_simultaneous", "With simultaneous movement, red and green (who "
              "have not declared their end) may both move now; red is still first in census "
              "order.", AS_SOON, "census-order",
              {"state": state({"simultaneous_movement": True})},
              {"moving": "red", "may_move": ["red", "green"], "simultaneous": True}),
        query("reachable", "Red's unmoved tokens, where they step by land (Argos is out of "
              "play), where Argo reaches within 4 water steps once maintained, and where red "
              "could build.", FOUR_AREAS, "reachable", {"state": state(), "player": "red"},
              {"may_move_now": True, "waiting_for": [],
               "land": [{"area": "athens", "unmoved": 6, "to": ["corinth", "megara", "thebes"]},
                        {"area": "thebes", "unmoved": 2,
                         "to": ["athens", "corinth", "delphi", "macedon"]},
                        {"area": "corinth", "unmoved": 1, "to": ["athens", "sparta", "thebes"]}],
               "ships": [{"ship": "argo", "area": "athens", "status": "maintenance_due",
                          "maintenance": ["treasury", "token"], "reach": reach}],
               "builds": [{"area": "athens", "ways": ways}, {"area": "corinth", "ways": ways}]}),
    ]


def city_queries() -> list[tuple[str, dict[str, Any]]]:
    crete_conflict = state(red={"tokens": {"athens": 6, "thebes": 2, "corinth": 1, "crete": 6}})
    return [
        query("city_site_takes_six", "Red's six tokens in Athens (a city site) make a city "
              "possible; his two in Thebes are four short.", CITY_SIX, "city-eligibility",
              {"state": state(), "player": "red", "areas": ["athens", "thebes"]},
              {"eligibility": [
                  {"area": "athens", "player": "red", "tokens": 6, "kind": "city_site",
                   "required": 6, "eligible": True, "short_by": 0, "conflict_pending": False},
                  {"area": "thebes", "tokens": 2, "required": 6, "eligible": False,
                   "short_by": 4}]}),
        query("wilderness_takes_twelve", "Macedon has no city site: green's one token is 11 "
              "short of a wilderness city.", WILDERNESS, "city-eligibility",
              {"state": state(), "player": "green", "areas": ["macedon"]},
              {"eligibility": [{"area": "macedon", "tokens": 1, "kind": "wilderness",
                                "required": 12, "eligible": False, "short_by": 11}]}),
        query("no_wilderness_city_at_limit_zero", "Delphi's population limit is 0: never a "
              "wilderness city.", LIMIT_ZERO, "city-eligibility",
              {"state": state(), "player": "red", "areas": ["delphi"]},
              {"eligibility": [{"area": "delphi", "kind": "population_limit_zero",
                                "required": None, "eligible": False, "short_by": None}]}),
        query("city_after_conflict", "Red's six tokens in Crete stand beside blue's two over "
              "the limit: the Conflict phase decides whether six remain.",
              CITY_AFTER_CONFLICT, "city-eligibility",
              {"state": crete_conflict, "player": "red", "areas": ["crete"]},
              {"eligibility": [{"area": "crete", "tokens": 6, "eligible": True, "short_by": 0,
                                "conflict_pending": True}]}),
        query("city_eligibility_every_player", "Sparta already holds blue's city: no player may "
              "build another; players in census order.", READING_CITY, "city-eligibility",
              {"state": state(), "areas": ["sparta"]},
              {"eligibility": [
                  {"player": "blue", "kind": "city_present", "eligible": False, "tokens": 3},
                  {"player": "red", "kind": "city_present", "eligible": False},
                  {"player": "green", "kind": "city_present", "eligible": False}]}),
    ]


def net_state() -> dict[str, Any]:
    """Red has ended his movement with two tokens in Macedon (beside green's one and two
    barbarians, over the limit of 4) and six in Crete (beside blue's two, over 3)."""
    return state(red={"tokens": {"athens": 6, "thebes": 1, "corinth": 1, "macedon": 2,
                                 "crete": 6},
                      "moved_by_land": {"macedon": 2}, "movement_ended": True})


def conflict_queries() -> list[tuple[str, dict[str, Any]]]:
    return [
        query("conflicts_voided_by_later_move", "Red steps into Macedon (a conflict with green "
              "and the barbarians) and declares his end; green then steps out, and the "
              "conflict is void.", NO_LONGER, "conflicts",
              {"state": state(),
               "plans": [bare(red(move("thebes", "macedon", 2), END_STEP)),
                         bare(plan("green", move("macedon", "thebes", 1)))]},
              {"conflicts": [],
               "net": [{"area": "macedon", "stands": "caused_and_voided", "before": [],
                        "after": []}],
               "caused": [{"plan": 0, "step": 0, "player": "red", "area": "macedon"}],
               "voided": [{"plan": 1, "step": 0, "player": "green", "area": "macedon",
                           "how": "moved_out"}],
               "refused": None}),
        query("conflicts_net_after_the_plans", "Green steps out of Macedon (voiding the "
              "conflict there before the plans) and into Troy (a new one, 5 tokens against "
              "4); Crete's conflict, untouched, still stands.", NO_LONGER, "conflicts",
              {"state": net_state(),
               "plans": [bare(plan("green", move("macedon", "thebes", 1),
                                   move("ionia", "troy", 1)))]},
              {"net": [
                  {"area": "macedon", "stands": "voided",
                   "before": [{"cause": "population_limit", "limit": 4, "tokens": 5,
                               "excess": 1}], "after": []},
                  {"area": "crete", "stands": "standing",
                   "before": [{"cause": "population_limit", "limit": 3, "tokens": 8,
                               "excess": 5}],
                   "after": [{"cause": "population_limit", "limit": 3, "tokens": 8,
                              "excess": 5}]},
                  {"area": "troy", "stands": "new", "before": [],
                   "after": [{"cause": "population_limit", "limit": 4, "tokens": 5,
                              "excess": 1}]}],
               "caused": [{"plan": 0, "step": 1, "player": "green", "area": "troy"}],
               "voided": [{"plan": 0, "step": 0, "player": "green", "area": "macedon",
                           "how": "moved_out"}],
               "refused": None}),
        query("conflicts_with_causes", "Red steps into Megara (pirate city) and Sparta (blue's "
              "city, 4 tokens against 3).", CONFLICT, "conflicts",
              {"state": state(),
               "plans": [bare(red(move("athens", "megara", 1), move("corinth", "sparta", 1)))]},
              {"conflicts": [
                  {"area": "sparta",
                   "causes": [{"cause": "population_limit", "limit": 3, "tokens": 4,
                               "excess": 1}, {"cause": "enemy_city", "owner": "blue"}],
                   "tokens": {"blue": 3, "red": 1}, "barbarians": 0},
                  {"area": "megara", "causes": [{"cause": "pirate_city"}],
                   "tokens": {"red": 1}, "barbarians": 0}],
               "caused": [{"plan": 0, "step": 0, "area": "megara"},
                          {"plan": 0, "step": 1, "area": "sparta"}],
               "voided": [], "refused": None}),
        query("conflicts_refused_plan", "Green's plan comes before red has moved: it is not "
              "applied.", ORDER_1, "conflicts",
              {"state": state(), "plans": [bare(plan("green", move("ionia", "troy", 1)))]},
              {"conflicts": [], "net": [], "caused": [],
               "refused": {"plan": 0, "step": None, "whole_plan_violations": 1,
                           "codes": ["out_of_turn"],
                           "violations": [{
                               "code": "out_of_turn", "rule": "area_movement/order.1",
                               "message": "green moves after red in census order: wait "
                                          "until they have declared the end of their "
                                          "movement",
                               "at": {"step": None}}]}}),
        query("conflicts_refused_with_step_violations", "Green's plan is out of turn and "
              "its second step illegal: the refusal lists both, the whole plan's first, each "
              "with its message.", ORDER_1, "conflicts",
              {"state": state(), "plans": [bare(plan("green", move("ionia", "troy", 1),
                                                     move("troy", "athens", 1)))]},
              {"refused": {"plan": 0, "step": 1, "whole_plan_violations": 1,
                           "codes": ["out_of_turn", "not_adjacent_by_land",
                                     "token_already_moved"],
                           "violations": [
                               {"code": "out_of_turn", "at": {"step": None}},
                               {"code": "not_adjacent_by_land", "at": {"step": 1},
                                "message": "athens is not adjacent by land to troy: tokens "
                                           "step 1 area by land"},
                               {"code": "token_already_moved", "at": {"step": 1}}]}}),
    ]


def legal_action_queries() -> list[tuple[str, dict[str, Any]]]:
    return [
        query("legal_actions_first_steps", "Red's first four actions: the end of his "
              "movement, the same as a plan's step, then Argo's maintenance by treasury or "
              "by a token from Athens.", READING_PLAN,
              "legal-actions", {"state": state(), "player": "red", "limit": 4},
              {"player": "red", "truncated": True, "count": 4, "actions": [
                  {"type": "end_movement", "player": "red"},
                  {"type": "movement", "player": "red", "steps": [{"type": "end_movement"}]},
                  {"player": "red", "steps": [{"type": "maintain_ship", "ship": "argo",
                                               "pay": "treasury"}]},
                  {"player": "red", "steps": [{"type": "maintain_ship", "ship": "argo",
                                               "pay": "token",
                                               "tokens": [{"area": "athens", "count": 1}]}]}]}),
        query("legal_actions_out_of_turn", "Green waits for red: no step is his yet.",
              ORDER_1, "legal-actions", {"state": state(), "player": "green"},
              {"player": "green", "actions": [], "truncated": False}),
    ]


def malformed_cases() -> list[tuple[str, dict[str, Any]]]:
    seas_twice = state()
    seas_twice["seas"].append({"id": "athens"})
    asymmetric = state()
    asymmetric["seas"][0]["water"].remove("athens")
    inland_ship = state()
    inland_ship["ships"][0]["area"] = "thebes"
    return [
        malformed("malformed_unknown_area", "Atlantis is on no map.",
                  red(move("athens", "atlantis", 1)), ["/action/steps/0/to_area"]),
        malformed("malformed_ship_not_the_players", "The trireme is blue's.",
                  red(sail("trireme", "corinth")), ["/action/steps/0/ship"]),
        malformed("malformed_disembark_more_than_aboard", "Two tokens land from a ship that "
                  "took one aboard.", red(sail("argo", ("corinth", 2, 0), embark=1)),
                  ["/action/steps/0/path/0/disembark"]),
        malformed("malformed_ship_destroyed_earlier", "Argo sails after the plan destroyed it.",
                  red(destroy("argo"), sail("argo", "aegean")), ["/action/steps/1/ship"]),
        malformed("malformed_new_ship_id_taken", "A new ship cannot take the trireme's id.",
                  red(build("trireme", "corinth", "treasury")), ["/action/steps/0/ship"]),
        malformed("malformed_maintenance_area_beside_tokens", "The deprecated `area` beside "
                  "`tokens`: one spelling at a time.",
                  red(maintain("argo", "token", "thebes") | {"area": "athens"}),
                  ["/action/steps/0/area"]),
        malformed("malformed_maintenance_tokens_with_treasury", "Paying with treasury names "
                  "no token.", red(maintain("argo", "treasury") | {"tokens": [
                      {"area": "thebes", "count": 1}]}), ["/action/steps/0/tokens"]),
        malformed("malformed_unknown_player", "Purple does not play.",
                  plan("purple", END_STEP), ["/action/player"]),
        malformed("malformed_area_listed_twice", "A sea named like a land area.", END_ACTION,
                  ["/state/seas/3/id"], st=seas_twice),
        malformed("malformed_water_listed_from_one_end", "Athens lists the Aegean, which does "
                  "not list Athens back.", END_ACTION, ["/state/areas/0/water/1"],
                  st=asymmetric),
        malformed("malformed_tokens_at_sea", "Tokens stand only on land.", END_ACTION,
                  ["/state/players/0/tokens/aegean"],
                  st=state(red={"tokens": {"athens": 6, "aegean": 1}})),
        malformed("malformed_tokens_out_of_play", "Nothing stands on Rhodes, out of play.",
                  END_ACTION, ["/state/players/0/tokens/rhodes"],
                  st=state(red={"tokens": {"athens": 6, "rhodes": 1}})),
        malformed("malformed_shared_ast_rank", "Two players on one A.S.T. rank: census ties "
                  "could not be broken.", END_ACTION, ["/state/players/2/ast_rank"],
                  st=state(green={"ast_rank": 1})),
        malformed("malformed_ship_inland", "Thebes has no coast for a ship.", END_ACTION,
                  ["/state/ships/0/area"], st=inland_ship),
        malformed("malformed_more_moved_than_tokens", "Three tokens marked as moved where red "
                  "has two.", END_ACTION, ["/state/players/0/moved_by_land/thebes"],
                  st=state(red={"moved_by_land": {"thebes": 3}})),
    ]


END_ACTION = {"type": "end_movement", "player": "red"}


def advisory_cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        case("advisory_applies_a_step_to_a_far_area", "Advisory mode: the step to Delphi is "
             "applied, with its violation as a warning.", STEP,
             red(move("athens", "delphi", 1)), ["not_adjacent_by_land"], mode="advisory",
             applied=True, result={"players": players(red={"tokens": {"delphi": 1}})}),
        case("advisory_cannot_pay_missing_treasury", "Advisory mode cannot pay with treasury "
             "tokens red does not have.", WAY_1, red(build("ship-1", "corinth", "treasury")),
             ["treasury_short_for_ship"], st=state(red={"treasury": 1}), mode="advisory",
             applied=False),
        case("advisory_later_illegal_step_not_applied", "Advisory mode: the first illegal step "
             "is well defined, but a later step is illegal too and is not judged: nothing is "
             "applied unannounced.", READING_PLAN,
             red(move("athens", "delphi", 1), sail("argo", "aegean")),
             ["not_adjacent_by_land"], mode="advisory", applied=False),
    ]


def all_cases() -> list[tuple[str, dict[str, Any]]]:
    out = (order_cases() + step_cases() + build_cases() + maintain_cases() + voyage_cases()
           + landing_cases() + end_cases() + conflict_cases() + query_cases() + city_queries()
           + conflict_queries() + legal_action_queries() + malformed_cases()
           + advisory_cases())
    names = [name for name, _ in out]
    assert len(names) == len(set(names)), "a case name is used twice"
    return out


def rendered(body: dict[str, Any]) -> str:
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def write() -> None:
    CASES_DIR.mkdir(parents=True, exist_ok=True)
    wanted = dict(all_cases())
    for stale in CASES_DIR.glob("*.json"):
        if stale.stem not in wanted:
            stale.unlink()
    for name, body in wanted.items():
        (CASES_DIR / f"{name}.json").write_text(rendered(body))


if __name__ == "__main__":
    write()
    sys.stdout.write(f"{len(all_cases())} cases written to {CASES_DIR}\n")

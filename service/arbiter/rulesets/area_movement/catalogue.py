"""The rule ids of ``area_movement`` with their paraphrases, every violation code with the
rule it enforces and its message template, every event kind, and the game's fixed data
(the voyage's length, the ship limit, the build costs, the tokens a city takes).

Rule ids follow ``../shared/rules/area_movement.md``: ``area_movement/<section>.<n>``, one
per sentence (or pair of sentences saying one thing) of the source text and of its
"Reading to implement"; those marked "(reading)" settle what both leave open.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.catalogue import Entry, build_catalogue

from .models import AreaMovementConflictCause

VOYAGE_AREAS = 4
SHIPS_PER_TURN = 4
CITY_SITE_TOKENS = 6
WILDERNESS_TOKENS = 12
# Treasury tokens each way of building a ship takes, and the tokens it destroys.
BUILD_TREASURY = {"treasury": 2, "treasury_and_token": 1, "tokens": 0}
BUILD_TOKENS = {"treasury": 0, "treasury_and_token": 1, "tokens": 2}
MAINTENANCE_TREASURY = 1
# The tokens a maintenance paid the other way destroys.
MAINTENANCE_TOKENS = 1

RULES: list[tuple[str, str]] = [
    ("order.1", "The phase is resolved in census order: the player with the highest census "
                "takes all his steps, then the next highest, until all have; a player moves "
                "once every player before him has declared the end of his movement."),
    ("order.2", "A.S.T. ranking breaks census ties; rank 1 is the top and moves first."),
    ("order.3", "Players may move simultaneously, as soon as they like (the "
                "simultaneous_movement option); a player may still wait for his turn."),
    ("plan.1", "A player's movement is one plan, judged from the state it is sent with, "
               "step by step: the first illegal step is reported with its 0-based index "
               "(at.step, steps[i]); the player may revert freely, so nothing is final before "
               "he declares the end. Refusals of the whole plan (out_of_turn, "
               "movement_already_ended: at.step null) are listed before the first illegal "
               "step's violations; derived.plan.whole_plan_violations counts them. "
               "(reading) A step naming more tokens than the player "
               "holds in an area at that moment of the plan is illegal (not_enough_tokens), "
               "whether the state as sent or an earlier step (a move, a payment) made the "
               "count; only what the plan alone decides, such as more tokens disembarking "
               "than its voyage took aboard, makes it malformed."),
    ("plan.2", "Once a player has declared his movement ended he cannot change it: no step "
               "follows end_movement and no further plan is his this turn."),
    ("barbarian.1", "Barbarian tokens do not move: a plan moves only the player's own tokens."),
    ("step.1", "Each of a player's tokens on the board may move 1 step to an area adjacent by "
               "land, or onto a ship."),
    ("step.2", "Tokens move either by ship or by land, not both."),
    ("once.1", "Each token moves at most once per turn."),
    ("build.1", "A player may build ships at any time of his movement, before, during or after "
                "moving tokens, until he declares its end."),
    ("build.2", "A ship is built only in a coastal area holding 1 or more of the player's "
                "tokens."),
    ("build.3", "A player builds no more than 4 ships per turn."),
    ("build.4", "First way to build a ship: pay 2 treasury tokens."),
    ("build.5", "Second way: pay 1 treasury token and destroy 1 of the player's tokens in the "
                "ship's area."),
    ("build.6", "Third way: destroy 2 of the player's tokens from the board, at least 1 of them "
                "in the ship's area."),
    ("build.7", "A ship can be used in the turn it is built."),
    ("maintain.1", "Before a ship built in an earlier turn is used, the player pays 1 treasury "
                   "token or destroys one of his tokens anywhere on the board for it; a ship "
                   "built this turn needs no maintenance."),
    ("maintain.2", "Maintenance may be paid at any moment of the movement before the ship is "
                   "used, for each ship independently."),
    ("maintain.3", "A ship may be maintained and not moved, or moved later in the movement."),
    ("maintain.4", "Maintenance is paid at most once per ship per turn."),
    ("destroy.1", "A player may leave a ship unmaintained and destroy it, to rebuild it in the "
                  "same turn."),
    ("destroy.2", "A ship built or maintained this turn cannot be destroyed voluntarily "
                  "(reading: since it could only be destroyed to be built again)."),
    ("voyage.1", "A ship moves up to 4 areas by water per turn, each to an area adjacent by "
                 "water; (reading) its voyage is one sail step, and a ship makes one voyage "
                 "per turn: a second is refused (ship_already_sailed)."),
    ("voyage.2", "Ships cannot move through open sea areas unless the options allow it."),
    ("voyage.3", "At any moment of its voyage, a ship may embark or disembark any number of "
                 "tokens."),
    ("voyage.4", "After a ship's last step every token still aboard disembarks in its area: "
                 "tokens never stay on ships after movement."),
    ("voyage.5", "(reading) Tokens disembark only on land: a pure water area holds no tokens."),
    ("capacity.1", "A ship carries at most 5 tokens at the same time, unless the options "
                   "raise it."),
    ("out_of_play.1", "Ships may move through an area with an 'out of play' token, but cannot "
                      "end their voyage or disembark tokens there."),
    ("out_of_play.2", "(reading) No land step into an 'out of play' area either "
                      "(area_out_of_play): nothing of the players stands there."),
    ("end.1", "When a player declares his movement ended, every ship of his neither built nor "
              "maintained this turn is destroyed."),
    ("tip.1", "A moved token or ship is marked (flipped) as moved; when the player declares "
              "the end of his movement, the marks are cleared."),
    ("city.1", "Cities are built only in the City Construction phase: movement builds none."),
    ("city.2", "To build a city, a player needs at least 6 tokens in an area with a city site "
               "during the movement."),
    ("city.3", "Whether a player still has the tokens is settled after the conflicts: an area "
               "in conflict may yet change."),
    ("city.4", "A wilderness city (an area without a city site) takes 12 tokens."),
    ("city.5", "No wilderness city where the population limit is 0."),
    ("conflict.1", "A player causes a conflict when he enters an area holding other players' or "
                   "barbarian tokens so that its population limit is exceeded, or holding an "
                   "enemy city or a pirate city."),
    ("conflict.2", "The conflict is void again if, later, tokens move out of the area so that "
                   "none of this holds any more; (reading) whoever's move it is (the other "
                   "player's, or the one who caused it) and a payment destroying tokens "
                   "there alike: a situation is void as soon as it no longer holds."),
    ("conflict.3", "Conflicts are only reported here; they are resolved in the Conflict phase."),
    ("conflict.4", "Entering an area is moving a token into it by land or disembarking it "
                   "there (tokens landing after a voyage's last step disembark); a ship moving "
                   "into an area does not enter it."),
]

CODES: list[Entry] = [
    ("out_of_turn", "order.1",
     "{player} moves after {waiting_for} in census order: wait until they have declared the "
     "end of their movement"),
    ("movement_already_ended", "plan.2",
     "{player} has already declared the end of their movement this turn"),
    ("step_after_end", "plan.2",
     "steps[{step}] comes after end_movement: once the end is declared, the movement "
     "cannot change"),
    ("not_adjacent_by_land", "step.1",
     "{to_area} is not adjacent by land to {from_area}: tokens step 1 area by land"),
    ("not_enough_tokens", "step.1",
     "{count} token(s) to move from {area}, where you hold {held} at this step ({unmoved} "
     "not yet moved; {destroyed} destroyed by payments earlier in the plan)"),
    ("land_and_ship", "step.2",
     "{count} token(s) to move {means} from {area}, where {unmoved} have not moved yet and "
     "{other} came by {other_means}: a token moves by land or by ship, not both"),
    ("token_already_moved", "once.1",
     "{count} token(s) to move {means} from {area}, where {unmoved} have not moved yet: each "
     "token moves at most once"),
    ("area_out_of_play", "out_of_play.2",
     "{area} is out of play: tokens cannot step into it"),
    ("not_coastal", "build.2", "{area} is not coastal: ships are built only in coastal areas"),
    ("no_token_in_area", "build.2",
     "{area} holds none of your tokens: ships are built where you have a token"),
    ("too_many_ships", "build.3",
     "this would be ship {built} built this turn: no more than {limit} per turn"),
    ("treasury_short_for_ship", "build.4",
     "building a ship with treasury takes 2 treasury tokens; you hold {treasury}"),
    ("treasury_short_for_ship_and_token", "build.5",
     "building a ship with treasury and a token takes 1 treasury token; you hold {treasury}"),
    ("no_population_token", "build.5",
     "{area} holds none of your tokens to destroy for the ship"),
    ("payment_not_two_tokens", "build.6",
     "{named} token(s) named: building a ship with tokens destroys exactly 2"),
    ("payment_none_from_ship_area", "build.6",
     "none of the tokens destroyed is in {area}: at least 1 comes from the ship's area"),
    ("payment_tokens_missing", "build.6",
     "{count} token(s) to destroy in {area}, which holds {present} of yours now"),
    ("ship_not_maintained", "maintain.1",
     "ship {ship} was built in an earlier turn: maintain it before using it"),
    ("maintenance_treasury_short", "maintain.1",
     "maintaining ship {ship} takes 1 treasury token; you hold none"),
    ("maintenance_token_missing", "maintain.1",
     "{count} token(s) to destroy in {area} for ship {ship}, which holds {present} of yours "
     "now"),
    ("maintenance_not_one_token", "maintain.1",
     "{named} token(s) named: maintaining ship {ship} with a token destroys exactly 1"),
    ("maintenance_not_due", "maintain.1",
     "ship {ship} was built this turn: it needs no maintenance"),
    ("already_maintained", "maintain.4",
     "ship {ship} is already maintained this turn: maintenance is paid once per ship per turn"),
    ("ship_cannot_be_destroyed", "destroy.2",
     "ship {ship} was {why} this turn: it cannot be destroyed to be built again"),
    ("voyage_too_long", "voyage.1",
     "ship {ship} would move {areas} areas: at most {limit} by water per turn"),
    ("not_adjacent_by_water", "voyage.1",
     "{area} is not adjacent by water to {previous}"),
    ("ship_already_sailed", "voyage.1",
     "ship {ship} has already made its voyage this turn"),
    ("open_sea", "voyage.2",
     "{area} is open sea: ships do not pass through open sea unless the options allow it"),
    ("over_capacity", "capacity.1",
     "ship {ship} would carry {aboard} tokens in {area}: at most {capacity} at the same time"),
    ("disembark_at_sea", "voyage.5",
     "{count} token(s) would land in {area}, a pure water area: tokens disembark on land"),
    ("voyage_ends_out_of_play", "out_of_play.1",
     "ship {ship} would end its voyage in {area}, which is out of play"),
    ("disembark_out_of_play", "out_of_play.1",
     "{count} token(s) would disembark in {area}, which is out of play"),
]

EVENTS: list[Entry] = [
    ("tokens_moved", "step.1", "{count} token(s) of {player} moved by land from {from_area} "
     "to {to_area}"),
    ("ship_built", "build.1", "{player} built ship {ship} in {area} ({pay}): {treasury} "
     "treasury token(s) paid, {destroyed} token(s) destroyed", {"destroyed_from": dict[str, int]}),
    ("ship_maintained", "maintain.1", "ship {ship} maintained ({pay}): {treasury} treasury "
     "token(s) paid, {destroyed} token(s) destroyed",
     {"destroyed_from": dict[str, int], "player": str}),
    ("ship_destroyed", "destroy.1", "ship {ship} of {player} destroyed in {area}"),
    ("ship_sailed", "voyage.1", "ship {ship} sailed from {from_area} to {to_area} "
     "({areas} area(s))"),
    ("tokens_embarked", "voyage.3", "{count} token(s) embarked on ship {ship} in {area}"),
    ("tokens_disembarked", "voyage.3", "{count} token(s) disembarked from ship {ship} in {area}"),
    ("tokens_landed", "voyage.4", "{count} token(s) still aboard ship {ship} landed in {area} "
     "after its last step"),
    ("movement_ended", "plan.2", "{player} declared the end of their movement"),
    ("unmaintained_ship_destroyed", "end.1", "ship {ship} of {player}, neither built nor "
     "maintained this turn, destroyed in {area}"),
    ("moved_marks_cleared", "tip.1", "the moved marks of {player}'s tokens and ships are "
     "cleared"),
    ("conflict_caused", "conflict.1", "{player} entered {area}: conflict ({reason})",
     {"causes": list[AreaMovementConflictCause]}),
    ("conflict_voided", "conflict.2", "the conflict in {area} is void after a step of "
     "{player} ({how})", {"was": list[AreaMovementConflictCause]}),
]

# The type of each word a template fills (an entry may declare its own, and facts beside).
PARAM_TYPES: dict[str, Any] = {
    "aboard": int,
    "area": str,
    "areas": int,
    "built": int,
    "capacity": int,
    "count": int,
    "destroyed": int,
    "from_area": str,
    "held": int,
    "how": str,
    "limit": int,
    "means": str,
    "named": int,
    "other": int,
    "other_means": str,
    "pay": str,
    "player": str,
    "present": int,
    "previous": str,
    "reason": str,
    "ship": str,
    "step": int,
    "to_area": str,
    "treasury": int,
    "unmoved": int,
    "waiting_for": list[str],
    "why": str,
}


CATALOGUE = build_catalogue(
    "area_movement", "1.1.0",
    "Area movement (Mega Civilization, movement phase): census order, token steps, ships "
    "(build, maintain, sail, carry), city eligibility and conflicts",
    rules=RULES, codes=CODES, events=EVENTS, param_types=PARAM_TYPES, data={
        "voyage_areas": VOYAGE_AREAS,
        "ships_per_turn": SHIPS_PER_TURN,
        "build_ways": {way: {"treasury": BUILD_TREASURY[way], "tokens": BUILD_TOKENS[way]}
                       for way in BUILD_TREASURY},
        "maintenance": {"treasury": MAINTENANCE_TREASURY, "or_tokens": MAINTENANCE_TOKENS},
        "city_tokens": {"city_site": CITY_SITE_TOKENS, "wilderness": WILDERNESS_TOKENS},
        "step_types": ["build_ship", "maintain_ship", "move_tokens", "sail", "destroy_ship",
                       "end_movement"],
    })

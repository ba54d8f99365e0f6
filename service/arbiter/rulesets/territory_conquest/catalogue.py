"""The rule ids of ``territory_conquest`` with their paraphrases, every violation code with
the rule it enforces and its message template, every event kind, and the game's fixed
data: the army pawns each player has, how each bonus effect reads in a message and which
effects come with a token.

Rule ids follow ../shared/rules/territory_conquest.md: ``territory_conquest/<section>.<n>``.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.catalogue import Entry, build_catalogue

from .models import BonusEffect

# "Take the 12 Army pawns of your color": every pawn is in reserve or on the board.
ARMY_PAWNS = 12

RULES: list[tuple[str, str]] = [
    ("board.1", "The board is divided into territories; seas work just like land territories."),
    ("pawns.1", "Each player has 12 army pawns, each in reserve or in a territory, optionally "
                "on one of its bonus locations."),
    ("control.1", "A territory is controlled by the player with armies in it, one player at a "
                  "time."),
    ("castle.1", "You always control your castle, even with no pawn there; you can never move "
                 "onto or seize your opponent's castle."),
    ("order.1", "The player with more soldier tokens takes the first action of the Conquest "
                "phase; on a tie, the round's first player does."),
    ("order.2", "Players alternate single actions (recruit, move or stop); every action names "
                "its player, and only the player to act may act."),
    ("recruit.1", "Recruiting costs 1 soldier token per army recruited."),
    ("recruit.2", "Recruited pawns come from your reserve and are placed in your castle's "
                  "territory."),
    ("recruit.3", "You cannot recruit if all your armies are already on the board."),
    ("move.1", "A move takes pawns from any number of your territories adjacent to the "
               "destination territory."),
    ("move.2", "You can move into a territory only with more armies than the enemy armies "
               "already there."),
    ("move.3", "Moving costs 1 soldier token per army moved from the starting territories."),
    ("losses.1", "All enemy armies in the destination return to their castle, and the same "
                 "number of the mover's armies there return to the mover's castle."),
    ("double_move.1", "With double move, starting territories may also be your territories "
                      "adjacent to those adjacent to the destination, as long as the pawns do "
                      "not move through enemy territories."),
    ("bonus.1", "Each bonus location holds a single army pawn."),
    ("bonus.2", "The surviving pawns may be placed on the destination's bonus locations, "
                "taking their bonuses; the others stand in the territory without a bonus."),
    ("bonus.3", "A pawn removed from a bonus location, or returned to its castle, loses that "
                "bonus at once; a trap or spy token it gave is discarded."),
    ("bonus.4", "Placing a pawn on a trap or spy bonus location gives its token at once."),
    ("stop.1", "Stopping your conquest does nothing; if your opponent then recruits or moves, "
               "you carry on playing."),
    ("stop.2", "The Conquest phase ends when both players stop one right after the other."),
    ("production.1", "In the Production phase you also count the icons of the bonus locations "
                     "you control and those in your castle territory."),
    ("scoring.1", "At the end of the game each territory you control earns the victory points "
                  "in your colour."),
]

CODES: list[Entry] = [
    ("phase_over", "stop.2",
     "the Conquest phase has ended: both players stopped one after the other"),
    ("not_first_to_act", "order.1",
     "{first} takes the first action of the Conquest phase ({reason}), not {player}",
     {"soldier_tokens": dict[str, int], "round_first_player": str}),
    ("not_your_turn", "order.2",
     "it is {to_act}'s action, not {player}'s"),
    ("recruit_short_of_soldier_tokens", "recruit.1",
     "recruiting {count} armies costs {count} soldier tokens, but {player} has "
     "{soldier_tokens}"),
    ("recruit_exceeds_reserve", "recruit.2",
     "{player} recruits {count} armies but has only {reserve} in reserve"),
    ("reserve_empty", "recruit.3",
     "all of {player}'s armies are already on the board: there is none to recruit"),
    ("source_not_adjacent", "move.1",
     "{source} is not adjacent to the destination {destination}"),
    ("needs_double_move", "double_move.1",
     "{source} is two territories from {destination}: only a double move reaches it, "
     "and {player} holds no double move bonus"),
    ("double_move_blocked", "double_move.1",
     "{source} is two territories from {destination}, but a double move cannot pass "
     "through {via}"),
    ("not_a_majority", "move.2",
     "{moved} armies move into {destination}, which is not more than the {enemy} "
     "enemy armies there"),
    ("move_short_of_soldier_tokens", "move.3",
     "moving {moved} armies costs {moved} soldier tokens, but {player} has "
     "{soldier_tokens}"),
    ("enters_opponent_castle", "castle.1",
     "{destination} is {opponent}'s castle: you cannot move your army pawns onto it"),
    ("bonus_location_occupied", "bonus.1",
     "bonus location {location} already holds one of {player}'s pawns: it holds a "
     "single pawn"),
    ("bonus_location_named_twice", "bonus.1",
     "bonus location {location} is named twice in the placement: it holds a single "
     "pawn"),
    ("placement_exceeds_survivors", "bonus.2",
     "{placed} pawns are placed on bonus locations, but only {survivors} survive the "
     "move into {destination}"),
]

EVENTS: list[Entry] = [
    ("armies_recruited", "recruit.2",
     "{player} spent {count} soldier tokens and recruited {count} armies into "
     "{castle}"),
    ("armies_moved", "move.1",
     "{player} spent {moved} soldier tokens and moved {moved} armies from {sources} "
     "into {destination}"),
    ("armies_returned", "losses.1",
     "{count} of {player}'s armies returned from {territory} to {castle}"),
    ("bonus_lost", "bonus.3",
     "{player} lost the {effect_name} bonus of {location} in {territory}", {"effect": str}),
    ("token_discarded", "bonus.3", "{player} discarded a {token} token", {"location": str}),
    ("bonus_gained", "bonus.2",
     "{player} placed a pawn on {location} in {territory}: {effect_name}", {"effect": str}),
    ("token_taken", "bonus.4", "{player} took a {token} token", {"location": str}),
    ("territory_taken", "control.1", "{player} now controls {territory}",
     {"previous": str | None}),
    ("territory_abandoned", "control.1",
     "{player} no longer controls {territory}: no army of theirs is left there"),
    ("conquest_stopped", "stop.1", "{player} stopped their conquest"),
    ("conquest_phase_ended", "stop.2",
     "both players stopped one after the other: the Conquest phase ends"),
]

# How an effect reads in a message ("lost the card destruction bonus").
EFFECT_NAMES: dict[BonusEffect, str] = {
    BonusEffect.trap_token: "additional trap token",
    BonusEffect.spy_token: "spy token",
    BonusEffect.card_destruction: "card destruction",
    BonusEffect.double_move: "double move",
    BonusEffect.krystallium_production: "krystallium production",
    BonusEffect.production: "production",
}

# The effects that come with a physical token, and the token's name.
TOKENS: dict[BonusEffect, str] = {
    BonusEffect.trap_token: "trap",
    BonusEffect.spy_token: "spy",
}

# The type of each word a template fills (an entry may declare its own, and facts beside).
PARAM_TYPES: dict[str, Any] = {
    "castle": str,
    "count": int,
    "destination": str,
    "effect_name": str,
    "enemy": int,
    "first": str,
    "location": str,
    "moved": int,
    "opponent": str,
    "placed": int,
    "player": str,
    "reason": str,
    "reserve": int,
    "soldier_tokens": int,
    "source": str,
    "sources": dict[str, int],
    "survivors": int,
    "territory": str,
    "to_act": str,
    "token": str,
    "via": list[str],
}


CATALOGUE = build_catalogue(
    "territory_conquest", "1.0.0",
    "The two-player Conquest board: recruit, move and stop in the Conquest phase",
    rules=RULES, codes=CODES, events=EVENTS, param_types=PARAM_TYPES, data={
        "army_pawns_per_player": ARMY_PAWNS,
        "bonus_effects": {effect.value: name for effect, name in EFFECT_NAMES.items()},
    })

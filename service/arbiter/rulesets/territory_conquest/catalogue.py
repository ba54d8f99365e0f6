"""The rule ids of ``territory_conquest`` with their paraphrases, every violation code with
the rule it enforces and its message template, and every event kind. Ids follow
``territory_conquest/<section>.<n>`` as in ../shared/rules/territory_conquest.md."""

from __future__ import annotations

from arbiter.engine.outcome import CodeRef, EventRef, RuleRef

from .models import BonusEffect

RULESET_ID = "territory_conquest"
VERSION = "1.0.0"


def _rule(section: str) -> str:
    return f"{RULESET_ID}/{section}"


RULES: list[RuleRef] = [RuleRef(_rule(i), p) for i, p in [
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
]]

CODES: dict[str, CodeRef] = {c.code: c for c in [
    CodeRef("phase_over", _rule("stop.2"),
            "the Conquest phase has ended: both players stopped one after the other"),
    CodeRef("not_first_to_act", _rule("order.1"),
            "{first} takes the first action of the Conquest phase ({reason}), not {player}"),
    CodeRef("not_your_turn", _rule("order.2"),
            "it is {to_act}'s action, not {player}'s"),
    CodeRef("recruit_short_of_soldier_tokens", _rule("recruit.1"),
            "recruiting {count} armies costs {count} soldier tokens, but {player} has "
            "{soldier_tokens}"),
    CodeRef("recruit_exceeds_reserve", _rule("recruit.2"),
            "{player} recruits {count} armies but has only {reserve} in reserve"),
    CodeRef("reserve_empty", _rule("recruit.3"),
            "all of {player}'s armies are already on the board: there is none to recruit"),
    CodeRef("source_not_adjacent", _rule("move.1"),
            "{source} is not adjacent to the destination {destination}"),
    CodeRef("needs_double_move", _rule("double_move.1"),
            "{source} is two territories from {destination}: only a double move reaches it, "
            "and {player} holds no double move bonus"),
    CodeRef("double_move_blocked", _rule("double_move.1"),
            "{source} is two territories from {destination}, but a double move cannot pass "
            "through {via}"),
    CodeRef("not_a_majority", _rule("move.2"),
            "{moved} armies move into {destination}, which is not more than the {enemy} "
            "enemy armies there"),
    CodeRef("move_short_of_soldier_tokens", _rule("move.3"),
            "moving {moved} armies costs {moved} soldier tokens, but {player} has "
            "{soldier_tokens}"),
    CodeRef("enters_opponent_castle", _rule("castle.1"),
            "{destination} is {opponent}'s castle: you cannot move your army pawns onto it"),
    CodeRef("bonus_location_occupied", _rule("bonus.1"),
            "bonus location {location} already holds one of {player}'s pawns: it holds a "
            "single pawn"),
    CodeRef("bonus_location_named_twice", _rule("bonus.1"),
            "bonus location {location} is named twice in the placement: it holds a single "
            "pawn"),
    CodeRef("placement_exceeds_survivors", _rule("bonus.2"),
            "{placed} pawns are placed on bonus locations, but only {survivors} survive the "
            "move into {destination}"),
]}

EVENTS: dict[str, EventRef] = {e.kind: e for e in [
    EventRef("armies_recruited", _rule("recruit.2"),
             "{player} spent {count} soldier tokens and recruited {count} armies into "
             "{castle}"),
    EventRef("armies_moved", _rule("move.1"),
             "{player} spent {moved} soldier tokens and moved {moved} armies from {sources} "
             "into {destination}"),
    EventRef("armies_returned", _rule("losses.1"),
             "{count} of {player}'s armies returned from {territory} to {castle}"),
    EventRef("bonus_lost", _rule("bonus.3"),
             "{player} lost the {effect_name} bonus of {location} in {territory}"),
    EventRef("token_discarded", _rule("bonus.3"), "{player} discarded a {token} token"),
    EventRef("bonus_gained", _rule("bonus.2"),
             "{player} placed a pawn on {location} in {territory}: {effect_name}"),
    EventRef("token_taken", _rule("bonus.4"), "{player} took a {token} token"),
    EventRef("territory_taken", _rule("control.1"), "{player} now controls {territory}"),
    EventRef("territory_abandoned", _rule("control.1"),
             "{player} no longer controls {territory}: no army of theirs is left there"),
    EventRef("conquest_stopped", _rule("stop.1"), "{player} stopped their conquest"),
    EventRef("conquest_phase_ended", _rule("stop.2"),
             "both players stopped one after the other: the Conquest phase ends"),
]}

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

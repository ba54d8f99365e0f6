"""The rule ids of ``region_conquest`` with their paraphrases, every violation code with
the rule it enforces and its message template, every event kind, and the game's fixed
data: the markers that defend a region, the water kinds, the reinforcement die.

Rule ids follow ``../shared/rules/region_conquest.md``: ``region_conquest/<section>.<n>``.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.catalogue import Entry, build_catalogue

# Each adds one token to a conquest's cost (encampments stack: one per encampment).
COST_MARKERS: tuple[str, ...] = ("encampment", "fortress", "mountain", "troll_lair")
# "Seas and Lakes cannot usually be conquered"; only a sea at the edge makes its shores
# border regions, a lake never does.
WATER_KINDS = frozenset({"sea", "lake"})
SEA = "sea"
REINFORCEMENT_DIE: tuple[int, ...] = (0, 0, 0, 1, 2, 3)
REINFORCEMENT_MAX = max(REINFORCEMENT_DIE)

KNOWN_KINDS: tuple[str, ...] = ("farmland", "forest", "hill", "swamp", "mountain", "sea", "lake")
KNOWN_MARKERS: tuple[str, ...] = (*COST_MARKERS, "hole_in_the_ground")


RULES: list[tuple[str, str]] = [
    ("turn.1", "Every action names the player who takes it; only the player whose turn it is "
               "may act."),
    ("cost.1", "Conquering a region takes 2 tokens + 1 per encampment, fortress, mountain and "
               "troll's lair marker + 1 per Lost Tribe token or other player's race token "
               "(active or in decline) in it; never fewer than 1."),
    ("cost.2", "A player's own in-decline token in the target region adds nothing to the cost."),
    ("water.1", "Seas and lakes cannot be conquered."),
    ("target.1", "A conquest targets a region the player's active tokens do not already "
                 "occupy; the only region of their own a player may conquer is one held by "
                 "their in-decline token."),
    ("first.1", "A race's first conquest (no active tokens on the map) must be a border "
                "region: adjacent to the board's edge, or with a shore on a sea adjacent to "
                "the edge, even an occupied sea."),
    ("adjacent.1", "Every following conquest must be adjacent to a region already occupied by "
                   "the player's active tokens."),
    ("hand.1", "The player must hold in hand the tokens a conquest takes; they are deployed in "
               "the conquered region and stay there until redeployment."),
    ("hand.2", "A player must always have at least one token in hand to start a new "
               "conquest."),
    ("losses.1", "A defending player takes all their tokens in the conquered region back in "
                 "hand and permanently discards one to the storage tray."),
    ("losses.2", "The defender keeps the other tokens in hand and redeploys them, as the final "
                 "action of the current player's turn, in regions still occupied by their race."),
    ("losses.3", "A defender left with tokens in hand but no region redeploys them as a first "
                 "conquest on their next turn."),
    ("losses.4", "A region defended by a single token (a Lost Tribe, an in-decline token) loses "
                 "it to the discard; Lost Tribe tokens are always discarded."),
    ("decline.1", "A player may conquer a region held by their own in-decline token; they lose "
                  "that token."),
    ("markers.1", "Markers such as mountains stay in the region for its new owner."),
    ("reinforce.1", "Once per turn, as the last conquest attempt, a player who lacks enough "
                    "tokens but holds at least one may roll the reinforcement die (faces 0, 0, "
                    "0, 1, 2, 3) and add the result."),
    ("reinforce.2", "If tokens and die suffice, all tokens in hand are deployed in the region; "
                    "otherwise they stay in hand. Either way the conquests for the turn end."),
    ("reinforce.4", "Table mode: the client reports the die's result; digital mode: the "
                    "service rolls it with the state's seed."),
    ("redeploy.1", "When the conquests are over, the active player may move active tokens "
                   "between regions they occupy, leaving at least one token in each."),
    ("redeploy.2", "The active player may place tokens still in hand on regions they occupy; "
                   "tokens not placed stay in hand."),
    ("redeploy.3", "Redeployment ends the conquests of the turn; the turn ends once the "
                   "defenders' kept tokens are redeployed."),
    ("score.1", "At the end of the turn the player scores 1 victory coin per region their race "
                "tokens (active or in decline) occupy; the turn passes to the next player."),
]

CODES: list[Entry] = [
    ("not_your_turn", "turn.1", "it is the turn of {turn_player}, not of {player}"),
    ("water_region", "water.1",
            "{region} is a {kind}: seas and lakes cannot be conquered"),
    ("already_yours", "target.1",
            "{region} is already held by {tokens} of your active tokens"),
    ("not_on_border", "first.1",
            "{region} is not a border region: a first conquest enters the board at its edge or "
            "from a sea at the edge"),
    ("not_adjacent", "adjacent.1",
            "{region} borders none of the regions your active tokens occupy"),
    ("not_enough_tokens", "hand.1",
            "conquering {region} takes {cost} tokens but you hold {hand}"),
    ("no_token_to_start", "hand.2",
            "you hold no race token: a conquest needs at least one to start"),
    ("conquests_ended", "reinforce.2",
            "the final conquest of this turn has been made: the conquests for the turn are over"),
    ("reinforcement_not_needed", "reinforce.1",
            "you hold {hand} tokens, enough for the {cost} that {region} takes: conquer it "
            "without the die"),
    ("die_roll_missing", "reinforce.4",
            "name the reinforcement die's result, or give the state an rng seed for the service "
            "to roll it"),
    ("already_redeployed", "redeploy.3",
            "troops were already redeployed this turn: only end_turn remains"),
    ("redeploy_outside_your_regions", "redeploy.1",
            "{region} is not held by your active tokens: redeployment only moves tokens between "
            "your regions"),
    ("move_exceeds_tokens", "redeploy.1",
            "moves[{step}] takes {tokens} tokens from {region}, which holds {available} then"),
    ("region_left_empty", "redeploy.1",
            "{region} would be left without a token: redeployment leaves at least one in each "
            "of your regions"),
    ("placement_exceeds_hand", "redeploy.2",
            "{placed} tokens placed from the hand of {player}, which holds {hand}"),
    ("placement_exceeds_kept", "losses.2",
            "{placed} tokens placed for {player}, who kept {kept} after losses this turn"),
    ("defender_region_not_held", "losses.2",
            "the active race of {player} does not occupy {region}: kept tokens go back to "
            "regions still occupied by their race"),
    ("kept_tokens_not_redeployed", "losses.2",
            "{kept} token(s) kept by {player} after losses, {placed} redeployed: all of them go "
            "back to regions their race still occupies"),
    ("redeployment_pending", "redeploy.3",
            "{tokens} token(s) of {player} still to redeploy ({reason}): redeploy before ending "
            "the turn"),
]

EVENTS: list[Entry] = [
    ("region_conquered", "hand.1",
             "{region} conquered by {player} with {tokens} tokens"),
    ("lost_tribe_discarded", "losses.4",
             "{tokens} Lost Tribe token(s) in {region} discarded"),
    ("lone_defender_discarded", "losses.4",
             "the single {race} token of {owner} in {region} discarded to the storage tray"),
    ("defender_token_discarded", "losses.1",
             "{tokens} tokens of {owner} taken back from {region}; 1 discarded to the storage "
             "tray"),
    ("defender_tokens_kept", "losses.2",
             "{tokens} token(s) of {owner} kept in hand, to redeploy at the end of the turn"),
    ("own_decline_token_lost", "decline.1",
             "the in-decline token of {player} in {region} lost to the storage tray"),
    ("markers_stay", "markers.1", "the markers in {region} ({markers}) stay for "
             "{player}"),
    ("reinforcement_die_rolled", "reinforce.1",
             "the reinforcement die shows {die}: {hand} tokens + {die} against {cost}"),
    ("final_conquest_failed", "reinforce.2",
             "{region} takes {cost}; {hand} tokens + {die} fall short: the tokens stay in hand "
             "and the conquests for the turn end"),
    ("tokens_moved", "redeploy.1",
             "{tokens} tokens moved from {from_region} to {to_region}"),
    ("tokens_placed", "redeploy.2",
             "{tokens} token(s) of {player} placed from hand in {region}"),
    ("kept_tokens_redeployed", "losses.2",
             "{tokens} kept token(s) of {player} redeployed in {region}"),
    ("kept_for_first_conquest", "losses.3",
             "no region left for {player}: {tokens} token(s) stay in hand for a first conquest "
             "on their next turn"),
    ("coins_scored", "score.1",
             "{coins} victory coin(s) for {player}, 1 for each region their race tokens "
             "occupy"),
    ("turn_passed", "score.1", "the turn passes to {player}"),
]

# The type of each word a template fills (an entry may declare its own, and facts beside).
PARAM_TYPES: dict[str, Any] = {
    "available": int,
    "coins": int,
    "cost": int,
    "die": int,
    "from_region": str,
    "hand": int,
    "kept": int,
    "kind": str,
    "markers": dict[str, int],
    "owner": str,
    "placed": int,
    "player": str,
    "race": str,
    "reason": str,
    "region": str,
    "step": int,
    "to_region": str,
    "tokens": int,
    "turn_player": str,
}


CATALOGUE = build_catalogue(
    "region_conquest", "1.0.0",
    "Region conquest (Small World): conquest cost, first and following conquests, losses, "
    "reinforcement die and redeployment",
    rules=RULES, codes=CODES, events=EVENTS, param_types=PARAM_TYPES, data={
        "cost_markers": list(COST_MARKERS),
        "water_kinds": sorted(WATER_KINDS),
        "region_kinds": list(KNOWN_KINDS),
        "markers": list(KNOWN_MARKERS),
        "reinforcement_die": list(REINFORCEMENT_DIE),
    })

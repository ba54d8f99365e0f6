"""Where mechanisms meet, over sequences of actions (``validate_batch`` in sequence mode,
which golden cases cannot express): a whole Conquest phase of territory_conquest with its
tokens and pawns conserved, a double move whose bonus is lost by the move it enables,
conquest-cost plans checked against validate at every step; a whole turn of
region_conquest (first conquest at the border, following conquests, the final conquest
with the die, redeployment, end of turn) and a defender who loses every region and comes
back next turn by a first conquest. (That the combos golden cases quote their rules text
is checked outside the suite, where the texts are: .ci/source_texts/.)"""

from __future__ import annotations

import copy
from typing import Any

from arbiter.engine.outcome import Outcome
from arbiter.rulesets import builtin_registry

from .region_conquest_boards import tokens_of
from .territory_conquest_boards import RED, mid_phase_state, player, setup_state, state

REGISTRY = builtin_registry()
TC: Any = REGISTRY.get("territory_conquest")
RC: Any = REGISTRY.get("region_conquest")


def run(ruleset: Any, start: dict[str, Any], actions: list[Any], *,
        sequence: bool = True, mode: str = "strict") -> list[Outcome]:
    return list(ruleset.validate_batch(ruleset.state_model.model_validate(start),
                          [ruleset.action_model.model_validate(a) for a in actions],
                          sequence=sequence, mode=mode))


def codes(outcome: Outcome) -> list[str]:
    return sorted(v.code for v in outcome.violations)


def states(start: dict[str, Any], outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """The start state and every state the applied actions produced, as JSON data."""
    out = [start]
    for outcome in outcomes:
        if outcome.applied and outcome.state is not None:
            out.append(outcome.state)
    return out


# --- territory_conquest ----------------------------------------------------------------------

TRAP_OR_SPY = {"trap_tokens": "-trap", "spy_tokens": "-spy"}


def assert_pieces_consistent(st: dict[str, Any]) -> None:
    """12 pawns a player, never a negative token count, one trap (spy) token per trap (spy)
    location held, and never two colours in one territory."""
    seen: dict[str, str] = {}
    for p in st["players"]:
        assert p["reserve"] + sum(p["armies"].values()) == 12, p
        assert p["soldier_tokens"] >= 0
        for field, suffix in TRAP_OR_SPY.items():
            assert p[field] == sum(1 for loc in p["on_bonus_locations"] if loc.endswith(suffix))
        for territory in p["armies"]:
            assert seen.setdefault(territory, p["id"]) == p["id"]


def test_a_whole_conquest_phase_recruit_stop_move_stop_stop() -> None:
    start = setup_state(6, 4)
    actions = [
        {"type": "recruit", "player": "red", "count": 2},
        {"type": "stop", "player": "blue"},
        {"type": "move", "player": "red", "destination": "south-east",
         "sources": [{"territory": "red-castle", "count": 2},
                     {"territory": "south-west", "count": 1,
                      "from_bonus_locations": ["south-west-trap"]}]},
        {"type": "stop", "player": "blue"},    # Red moved: Blue's first stop no longer counts
        {"type": "stop", "player": "red"},     # just after Blue's: the phase ends
        {"type": "recruit", "player": "blue", "count": 1},
    ]
    outcomes = run(TC, start, actions)
    assert [o.legal for o in outcomes] == [True, True, True, True, True, False]
    assert codes(outcomes[-1]) == ["phase_over"] and not outcomes[-1].applied
    assert [o.derived["phase_ends"] for o in outcomes[:5]] == [False] * 4 + [True]
    assert [o.derived["to_act_next"] for o in outcomes[:5]] == ["blue", "red", "blue", "red",
                                                                None]
    after = states(start, outcomes)
    for st in after:
        assert_pieces_consistent(st)
    final = after[-1]
    red, blue = final["players"]
    # 2 recruited + 3 moved = 5 of Red's 6 tokens; Blue only stopped.
    assert (red["soldier_tokens"], blue["soldier_tokens"]) == (1, 4)
    assert red["armies"] == {"south-east": 5, "south-west": 1} and red["reserve"] == 6
    assert red["trap_tokens"] == 1    # the south-west trap pawn left its location
    assert final["conquest"] == {"to_act": None, "ended": True, "stopped": ["blue", "red"],
                                 "last_actions": [{"player": "blue", "type": "stop"},
                                                  {"player": "red", "type": "stop"}]}


def test_the_double_move_is_lost_by_the_move_its_pawn_makes() -> None:
    """The double-move pawn may leave in the move it enables (the sources are chosen while
    the bonus is held), but the bonus is lost at once: Red's next double move is refused."""
    start = mid_phase_state()
    actions = [
        {"type": "move", "player": "red", "destination": "north-west",
         "sources": [{"territory": "inner-sea", "count": 2},
                     {"territory": "south-west", "count": 1,
                      "from_bonus_locations": ["south-west-trap"]}],
         "placement": ["north-west-trap"]},
        {"type": "stop", "player": "blue"},
        {"type": "move", "player": "red", "destination": "west",
         "sources": [{"territory": "red-castle", "count": 1}]},
    ]
    outcomes = run(TC, start, actions)
    assert [o.legal for o in outcomes] == [True, True, False]
    assert outcomes[0].derived["double_move_used"] is True
    assert codes(outcomes[2]) == ["needs_double_move"]
    for st in states(start, outcomes):
        assert_pieces_consistent(st)


def test_advisory_sequence_carries_on_after_a_warning() -> None:
    """Advisory mode applies an out-of-turn recruit; the sequence goes on from the state it
    made, and alternation resumes from the player who acted."""
    start = setup_state(4, 4)
    actions = [
        {"type": "recruit", "player": "blue", "count": 1},     # Red is first on the tie
        {"type": "stop", "player": "red"},
        {"type": "stop", "player": "blue"},
    ]
    outcomes = run(TC, start, actions, mode="advisory")
    assert [codes(o) for o in outcomes] == [["not_first_to_act"], [], []]
    assert all(o.applied for o in outcomes)
    assert outcomes[-1].derived["phase_ends"] is True


def test_a_sequence_stops_at_the_first_action_not_applied() -> None:
    start = setup_state(1, 1)
    actions = [
        {"type": "recruit", "player": "red", "count": 2},      # 1 soldier token only
        {"type": "stop", "player": "blue"},
    ]
    outcomes = run(TC, start, actions)
    assert len(outcomes) == 1 and codes(outcomes[0]) == ["recruit_short_of_soldier_tokens"]
    # Judged each against the same state, the second is Blue's, out of turn.
    alone = run(TC, start, actions, sequence=False)
    assert [codes(o) for o in alone] == [["recruit_short_of_soldier_tokens"],
                                         ["not_first_to_act"]]


def _cost_plans_validate(st: dict[str, Any]) -> int:
    """Every feasible plan conquest-cost gives the player to act is a legal move there."""
    query = TC.queries["standing"]
    to_act = query.run(query.request.model_validate({"state": st})).to_act
    if to_act is None:
        return 0
    cost = TC.queries["conquest-cost"]
    answer = cost.run(cost.request.model_validate({"state": st, "player": to_act}))
    checked = 0
    for target in answer.targets:
        route = target.with_double_move if answer.holds_double_move else target.without_double_move
        if target.status.value not in ("neutral", "enemy") or not route.feasible:
            continue
        move = {"type": "move", "player": to_act, "destination": target.territory,
                "sources": [s.model_dump(mode="json") for s in route.plan],
                "placement": target.free_bonus_locations[:1]}
        outcome = run(TC, st, [move])[0]
        assert outcome.legal, (move, codes(outcome))
        assert outcome.derived["moved"] == target.pawns_needed
        checked += 1
    return checked


def test_conquest_cost_plans_stay_legal_along_sequences() -> None:
    double_move_castle = state(
        player(RED, armies={"red-castle": 2, "south-west": 2, "inner-sea": 1},
               on=["south-west-trap", "south-west-materials", "inner-sea-double-move"],
               soldier_tokens=5),
        player("blue", armies={"centre": 2, "north-west": 2, "north-east": 1},
               on=["centre-destruction", "centre-krystallium", "north-west-trap",
                   "north-west-materials", "north-east-trap"], soldier_tokens=2),
        conquest={"to_act": RED, "last_actions": [{"player": "blue", "type": "move"}]})
    runs: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [
        (setup_state(6, 4), [
            {"type": "recruit", "player": "red", "count": 2},
            {"type": "recruit", "player": "blue", "count": 1},
            {"type": "move", "player": "red", "destination": "centre",
             "sources": [{"territory": "south-west", "count": 2}],
             "placement": ["centre-gold"]},
            {"type": "move", "player": "blue", "destination": "centre",
             "sources": [{"territory": "north-west", "count": 2},
                         {"territory": "north-east", "count": 1,
                          "from_bonus_locations": ["north-east-energy"]}],
             "placement": ["centre-destruction"]},     # 3 against 2: one survivor
        ]),
        (mid_phase_state(), [
            {"type": "move", "player": "red", "destination": "north-west",
             "sources": [{"territory": "inner-sea", "count": 2},
                         {"territory": "south-west", "count": 1,
                          "from_bonus_locations": ["south-west-trap"]}],
             "placement": ["north-west-trap"]},
            {"type": "recruit", "player": "blue", "count": 2},
        ]),
        (double_move_castle, [
            {"type": "move", "player": "red", "destination": "centre",
             "sources": [{"territory": "red-castle", "count": 2},
                         {"territory": "south-west", "count": 1,
                          "from_bonus_locations": ["south-west-materials"]}],
             "placement": ["centre-krystallium"]},
        ]),
    ]
    checked = 0
    for start, actions in runs:
        outcomes = run(TC, start, actions)
        assert all(o.legal for o in outcomes), [codes(o) for o in outcomes]
        for st in states(start, outcomes):
            assert_pieces_consistent(st)
            checked += _cost_plans_validate(st)
    assert checked > 10


# --- region_conquest -------------------------------------------------------------------------

def _region(id_: str, kind: str, adjacent: list[str], *, edge: bool = False,
            markers: dict[str, int] | None = None, lost_tribe: int = 0) -> dict[str, Any]:
    return {"id": id_, "kind": kind, "edge": edge, "adjacent": adjacent,
            "markers": markers or {}, "lost_tribe": lost_tribe}


# The valley of the combos cases: the coast and the ford touch the edge; the grove's shore
# lies on the edge sea, so it is a border region too; the rest is inland.
VALLEY = [
    _region("sea", "sea", ["coast", "grove"], edge=True),
    _region("coast", "hill", ["sea", "fields"], edge=True,
            markers={"mountain": 1, "fortress": 1}, lost_tribe=1),
    _region("fields", "farmland", ["coast", "ridge", "grove"], markers={"encampment": 1}),
    _region("grove", "forest", ["sea", "fields", "marsh"]),
    _region("ridge", "mountain", ["fields", "ford", "marsh"], markers={"mountain": 1}),
    _region("marsh", "swamp", ["grove", "ridge"], markers={"fortress": 1}),
    _region("ford", "swamp", ["ridge"], edge=True),
]


def valley(players: list[dict[str, Any]], turn: str, **extra: Any) -> dict[str, Any]:
    return {"regions": copy.deepcopy(VALLEY), "players": players, "turn": {"player": turn},
            **extra}


def totals(st: dict[str, Any]) -> dict[str, int]:
    return {p["id"]: tokens_of(st, p["id"]) for p in st["players"]}


def _player(st: dict[str, Any], who: str) -> dict[str, Any]:
    return next(p for p in st["players"] if p["id"] == who)


def test_a_whole_turn_first_following_final_redeploy_end() -> None:
    start = valley([{"id": "orcs", "hand": 11},
                    {"id": "elves", "active": {"grove": 2, "ridge": 3}, "in_decline": {"marsh": 1}},
                    {"id": "dwarves", "active": {"ford": 2}}], "orcs")
    actions: list[dict[str, Any]] = [
        # First conquest: the coast is at the edge; 2 + mountain + fortress + Lost Tribe = 5.
        {"type": "conquer", "player": "orcs", "region": "coast"},
        # Following conquest next to the coast: 2 + encampment = 3.
        {"type": "conquer", "player": "orcs", "region": "fields"},
        # 3 tokens left against the grove's 2 + 2 elves = 4: the die's 1 makes it.
        {"type": "final_conquest", "player": "orcs", "region": "grove", "die": 1},
        {"type": "redeploy", "player": "orcs",
         "moves": [{"from_region": "coast", "to_region": "grove", "tokens": 2}],
         "placements": [{"player": "elves", "region": "ridge", "tokens": 1}]},
        {"type": "end_turn", "player": "orcs"},
        # The elves' turn: the fields border their ridge; 2 + encampment + 3 orcs = 6 > 0 in
        # hand, so nothing to conquer; they end the turn and score the ridge and the marsh.
        {"type": "end_turn", "player": "elves"},
    ]
    outcomes = run(RC, start, actions)
    assert [codes(o) for o in outcomes] == [[]] * 6
    assert [e.kind for e in outcomes[0].events] == ["region_conquered", "lost_tribe_discarded",
                                                   "markers_stay"]
    assert outcomes[2].derived["conquest"]["total"] == 4
    assert outcomes[2].reversible is False
    after = states(start, outcomes)
    # Tokens are conserved: hand + kept + board + tray (the Lost Tribe is no player's).
    for st in after:
        assert totals(st) == totals(start)
    end_of_orcs = after[5]
    orcs, elves = _player(end_of_orcs, "orcs"), _player(end_of_orcs, "elves")
    assert orcs["active"] == {"coast": 3, "fields": 3, "grove": 5} and orcs["hand"] == 0
    assert orcs["coins"] == 3
    assert elves["active"] == {"ridge": 4} and elves["tray"] == 1
    assert elves["awaiting_redeployment"] == 0
    assert end_of_orcs["turn"] == {"player": "elves", "conquered": [],
                                   "reinforcement_used": False, "redeployed": False}
    final = after[6]
    assert _player(final, "elves")["coins"] == 2      # ridge + in-decline marsh
    assert final["turn"]["player"] == "dwarves"
    # The coast keeps its markers; the Lost Tribe is gone.
    coast = next(r for r in final["regions"] if r["id"] == "coast")
    assert coast["markers"] == {"mountain": 1, "fortress": 1} and coast["lost_tribe"] == 0


def test_a_defender_losing_every_region_comes_back_by_a_first_conquest() -> None:
    start = valley([{"id": "orcs", "hand": 9, "active": {"fields": 3}},
                    {"id": "elves", "active": {"ridge": 3}, "in_decline": {"marsh": 1}}],
                   "orcs")
    start["regions"][1]["lost_tribe"] = 0
    outcomes = run(RC, start, [
        # 2 + mountain + 3 elves = 6: the elves discard one and keep two, with no region left.
        {"type": "conquer", "player": "orcs", "region": "ridge"},
        {"type": "end_turn", "player": "orcs"},
    ])
    assert [codes(o) for o in outcomes] == [[], []]
    assert [e.kind for e in outcomes[1].events] == ["kept_for_first_conquest", "coins_scored",
                                                   "turn_passed"]
    their_turn = states(start, outcomes)[-1]
    elves = _player(their_turn, "elves")
    assert (elves["hand"], elves["awaiting_redeployment"], elves["tray"]) == (2, 0, 1)
    assert their_turn["turn"]["player"] == "elves"
    # A first conquest: the inland marsh (their own in-decline region) and the ridge next to
    # it are refused as no border regions; the grove, on the edge sea's shore, is open.
    refused = run(RC, their_turn, [{"type": "conquer", "player": "elves", "region": "marsh"},
                                   {"type": "conquer", "player": "elves", "region": "fields"}],
                  sequence=False)
    assert all("not_on_border" in codes(o) for o in refused)
    outcomes = run(RC, their_turn, [
        {"type": "conquer", "player": "elves", "region": "grove"},
        # Now a following conquest: the marsh borders the grove (fortress: 3; 0 in hand).
        {"type": "conquer", "player": "elves", "region": "marsh"},
    ])
    assert codes(outcomes[0]) == []
    assert codes(outcomes[1]) == ["no_token_to_start", "not_enough_tokens"]
    assert totals(states(their_turn, outcomes)[-1]) == totals(start)


def test_digital_final_conquest_in_a_sequence_advances_the_seed() -> None:
    start = valley([{"id": "orcs", "hand": 1, "active": {"fields": 3}},
                    {"id": "elves", "active": {"ridge": 3}}], "orcs", rng=12345)
    start["regions"][1]["lost_tribe"] = 0
    actions = [{"type": "final_conquest", "player": "orcs", "region": "grove"},
               {"type": "redeploy", "player": "orcs"},
               {"type": "end_turn", "player": "orcs"}]
    first = run(RC, start, actions)
    again = run(RC, start, actions)
    assert [o.model_dump(mode="json") for o in first] == [o.model_dump(mode="json")
                                                          for o in again]
    assert all(o.legal for o in first)
    rolled = next(e for e in first[0].events if e.kind == "reinforcement_die_rolled")
    seeds = [st.get("rng") for st in states(start, first)]
    assert seeds[0] == 12345 and seeds[1] != 12345 and seeds[1] == seeds[2] == seeds[3]
    won = any(e.kind == "region_conquered" for e in first[0].events)
    assert won == (1 + rolled.params["die"] >= 2)


def test_after_a_failed_final_conquest_the_sequence_stops_at_the_next_conquest() -> None:
    start = valley([{"id": "orcs", "hand": 2, "active": {"fields": 3}},
                    {"id": "elves", "active": {"ridge": 3}}], "orcs")
    start["regions"][1]["lost_tribe"] = 0
    outcomes = run(RC, start, [
        {"type": "final_conquest", "player": "orcs", "region": "ridge", "die": 0},   # 6: short
        {"type": "conquer", "player": "orcs", "region": "grove"},                    # affordable
        {"type": "end_turn", "player": "orcs"},
    ])
    assert len(outcomes) == 2
    assert codes(outcomes[0]) == [] and outcomes[0].applied
    assert [e.kind for e in outcomes[0].events] == ["reinforcement_die_rolled",
                                                   "final_conquest_failed"]
    assert codes(outcomes[1]) == ["conquests_ended"] and not outcomes[1].applied


def test_region_conquest_cost_agrees_with_validate_along_a_turn() -> None:
    """At every step of a turn, for every region and both players, what conquest-cost says
    blocks a conquest is what validate refuses it for, tokens aside; and affordable means
    the hand rules pass."""
    start = valley([{"id": "orcs", "hand": 11},
                    {"id": "elves", "active": {"grove": 2, "ridge": 3}, "in_decline": {"marsh": 1},
                     "hand": 2}], "orcs")
    outcomes = run(RC, start, [
        {"type": "conquer", "player": "orcs", "region": "coast"},
        {"type": "conquer", "player": "orcs", "region": "fields"},
        {"type": "final_conquest", "player": "orcs", "region": "grove", "die": 1},
        {"type": "redeploy", "player": "orcs",
         "placements": [{"player": "elves", "region": "ridge", "tokens": 1}]},
        {"type": "end_turn", "player": "orcs"},
    ])
    assert all(o.legal for o in outcomes)
    cost = RC.queries["conquest-cost"]
    token_codes = {"no_token_to_start", "not_enough_tokens"}
    checked = 0
    for st in states(start, outcomes):
        for who in ("orcs", "elves"):
            answer = cost.run(cost.request.model_validate({"state": st, "player": who}))
            for c in answer.costs:
                outcome = run(RC, st, [{"type": "conquer", "player": who, "region": c.region}])[0]
                got = codes(outcome)
                assert [x for x in got if x not in token_codes] == sorted(c.blocked_by), c
                if "not_your_turn" not in got:
                    assert c.affordable == (not token_codes & set(got)), c
                    assert outcome.derived["conquest"]["total"] == c.total
                checked += 1
    assert checked == 6 * 2 * len(VALLEY)

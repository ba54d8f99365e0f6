"""Random turns of phased_orders for the property tests: a small map with roads, two to
four players with random relations, units of every kind (flyers, archers, caravans, mages,
leaders, bandits, uncontrolled undead) on distinct hexes, strongholds and capitals, the
small data catalogues, a seed, and one order for each player unit drawn from the
ruleset's own pseudo-legal generator (orders no rule refuses). ``settle`` answers the
pending decisions of a turn, choosing among their options by a list of picks, until the
turn resolves."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import strategies as st

from arbiter.engine.outcome import Outcome
from arbiter.rulesets.phased_orders import RULESET
from arbiter.rulesets.phased_orders.board import compile_board
from arbiter.rulesets.phased_orders.candidates import commissions, unit_orders
from arbiter.rulesets.phased_orders.models import PhasedOrdersState
from arbiter.rulesets.phased_orders.orders import refusals_of

Json = dict[str, Any]

UNIT_TYPES = [{"id": "spearmen", "cost": 3, "move": 2, "hit_points": 3, "strength": 2},
              {"id": "griffins", "cost": 5, "move": 5, "flying": True, "hit_points": 4,
               "strength": 2}]
SPELLS = [{"id": "firebolt", "gems": 2, "range": 3, "effect": "damage", "amount": 2},
          {"id": "mend", "gems": 1, "range": 2, "effect": "heal", "amount": 2}]
ABILITIES = [{"id": "scavenging", "effect": "gain_resources", "amount": 2},
             {"id": "gem_finding", "effect": "gain_gems", "amount": 1},
             {"id": "stargazing", "effect": "report"},
             {"id": "field_medic", "effect": "heal", "amount": 2, "range": 1}]
KINDS = ("infantry", "cavalry", "flyer", "archer", "caravan", "mage", "leader")


@st.composite
def unit_of(draw: st.DrawFn, uid: str, owner: str, spot: tuple[int, int]) -> Json:
    kind = draw(st.sampled_from(KINDS))
    hp = draw(st.integers(1, 6))
    out: Json = {"id": uid, "owner": owner, "type": kind, "hex": {"q": spot[0], "r": spot[1]},
                 "move": draw(st.integers(0, 6)), "hit_points": hp,
                 "max_hit_points": hp + draw(st.integers(0, 3)),
                 "strength": draw(st.integers(1, 4)), "free_upkeep": draw(st.booleans()),
                 "undead": owner == "undead" or draw(st.integers(0, 4)) == 0}
    if kind == "flyer":
        out["flying"] = True
    if kind == "archer":
        out.update(archer=True, range=draw(st.integers(1, 3)))
    if kind == "caravan":
        out["caravan"] = {"durability": draw(st.integers(0, 5)),
                          "resources": draw(st.integers(0, 4))}
    if kind == "mage":
        out["spells"] = ["firebolt", "mend"]
    if kind == "leader":
        out["abilities"] = draw(st.lists(st.sampled_from([a["id"] for a in ABILITIES]),
                                         unique=True, max_size=2))
    return out


@st.composite
def positions(draw: st.DrawFn) -> Json:
    """A whole random state."""
    width, height = draw(st.integers(3, 7)), draw(st.integers(1, 4))
    roads = draw(st.integers(0, 2 ** (width * height) - 1))
    cells = [(q, r) for r in range(height) for q in range(width)]
    hexes = [{"q": q, "r": r, **({"road": True} if roads >> i & 1 else {})}
             for i, (q, r) in enumerate(cells)]
    ids = [f"p{i}" for i in range(draw(st.integers(2, 4)))]
    relations: dict[str, dict[str, str]] = {p: {} for p in ids}
    for a, b in combinations(ids, 2):
        stance = draw(st.sampled_from(["allied", "war", None]))
        if stance:
            relations[a][b] = relations[b][a] = stance
    players = [{"id": p, "resources": draw(st.integers(0, 6)), "gems": draw(st.integers(0, 3)),
                "relations": relations[p]} for p in ids]
    spots = draw(st.permutations(cells))
    count = draw(st.integers(1, min(12, len(cells))))
    owners = st.sampled_from([*ids, *ids, "bandits", "undead"])
    units = [draw(unit_of(f"u{i}", draw(owners), spots[i])) for i in range(count)]
    free = draw(st.permutations(cells))
    strongholds = [{"id": f"s{i}", "owner": draw(st.sampled_from(ids)),
                    "hex": {"q": free[i][0], "r": free[i][1]}, "capital": draw(st.booleans()),
                    "resources": draw(st.integers(0, 9)), "maximum": draw(st.integers(0, 9))}
                   for i in range(draw(st.integers(0, min(3, len(cells)))))]
    return {"hexes": hexes, "players": players, "units": units, "strongholds": strongholds,
            "unit_types": UNIT_TYPES, "spells": SPELLS, "abilities": ABILITIES,
            "rng": draw(st.integers(0, 2 ** 64 - 1))}


@st.composite
def turns(draw: st.DrawFn) -> tuple[Json, Json]:
    """A state and a resolve action: for each player unit and stronghold, maybe an order
    drawn among those the generator proposes and no rule refuses."""
    start = draw(positions())
    board = compile_board(PhasedOrdersState.model_validate(start))
    orders = []
    # Half the turns are marches: every order a move, so units meet, contest hexes, fly
    # over archers and stack with allies.
    march = draw(st.booleans())
    for player in board.players:
        by_subject: dict[str, list[Any]] = {}
        for order in [*unit_orders(board, player), *commissions(board, player)]:
            if not refusals_of(board, order) and (not march or order.order == "move"):
                subject = getattr(order, "unit", None) or getattr(order, "stronghold", "")
                by_subject.setdefault(subject, []).append(order)
        for options in by_subject.values():
            if draw(st.integers(0, 4)):
                orders.append(options[draw(st.integers(0, len(options) - 1))]
                              .model_dump(mode="json"))
    level_ups = [{"unit": u["id"], "strength": 1} for u in start["units"][:draw(
        st.integers(0, 2))]]
    return start, {"type": "resolve", "orders": orders, "level_ups": level_ups}


def settle(state: Json, action: Json, picks: list[int], rounds: int = 40
           ) -> tuple[Outcome, list[Json]]:
    """Resolve the turn, answering pending decisions (the option ``picks[k]`` for the k-th
    question, placements on distinct hexes) until it resolves."""
    decisions: list[Json] = []
    k = 0
    for _ in range(rounds):
        outcome = RULESET.validate(state, {**action, "decisions": decisions})
        pending = outcome.derived.get("pending_decisions")
        if not pending:
            return outcome, decisions
        taken: list[Any] = []
        for question in pending:
            options = [o for o in question["options"] if o.get("hex") is None
                       or o["hex"] not in taken] or question["options"]
            option = options[picks[k % len(picks)] % len(options)] if picks else options[0]
            k += 1
            taken.append(option.get("hex"))
            decisions.append({"id": question["id"],
                              **{key: v for key, v in option.items() if v is not None}})
    raise AssertionError(f"the decisions of {action} never settle")

"""Which regions a player may conquer now, and why not: the checks that do not depend on
the tokens in hand. Whose turn it is and whether the conquests are over; water; a region
the player already holds; a border region for a first conquest, an adjacent one after.

``validate`` turns these refusals into violations and the ``conquest-cost`` and
``legal-actions`` queries report them, from this one place, so the answers can never
disagree (the pseudo-legal layer under the token checks of ``conquest.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board


@dataclass(frozen=True, slots=True)
class Refusal:
    """A reason a conquest is refused: a violation code, its message params, and whether
    the action's effect is undefined with it (advisory mode then cannot apply it).

    Not the engine's ``Violation``, on purpose: ``conquest-cost`` asks these of every
    region of the map and reads only their codes, and making each a ``Violation`` (its
    message rendered, its model validated) cost about 20 µs against 1.6 µs, which nearly
    doubled a 40-region conquest-cost (0.96 ms measured). ``validate`` turns the few it
    reports into violations (``conquest.py``)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    fatal: bool = False


@dataclass(frozen=True, slots=True)
class Reach:
    """Where a player's race may strike from. A race with no active token on the map makes a
    first conquest; otherwise it conquers next to a region its active tokens occupy."""

    player: str
    first_conquest: bool
    frontier: frozenset[str]

    @classmethod
    def of(cls, board: Board, player: str) -> Reach:
        held = board.players[player].active
        frontier: set[str] = set()
        for region in held:
            frontier.update(board.graph.neighbours(region))
        return cls(player=player, first_conquest=not held, frontier=frozenset(frontier))


def turn_refusals(board: Board, player: str) -> list[Refusal]:
    """Refusals of any conquest by ``player`` at this point of the turn. Out of turn, that
    is the only one: see ``off_turn``."""
    turn = board.state.turn
    if player != turn.player:
        return [Refusal("not_your_turn", {"player": player, "turn_player": turn.player},
                        fatal=True)]
    out = []
    if turn.reinforcement_used:
        out.append(Refusal("conquests_ended"))
    if turn.redeployed:
        out.append(Refusal("already_redeployed"))
    return out


def region_refusals(board: Board, reach: Reach, region: str) -> list[Refusal]:
    """Refusals of a conquest of ``region`` by the player of ``reach``, tokens aside."""
    holder = board.holders.get(region)
    if holder is not None and holder.kind == "active" and holder.player == reach.player:
        # Conquering one's own active region has no defined effect; where it lies on the
        # map does not matter then.
        return [Refusal("already_yours", {"region": region, "tokens": holder.tokens},
                        fatal=True)]
    out = []
    if board.is_water(region):
        out.append(Refusal("water_region", {"region": region,
                                            "kind": board.regions[region].kind}))
    if reach.first_conquest:
        if region not in board.border:
            out.append(Refusal("not_on_border", {"region": region}))
    elif region not in reach.frontier:
        out.append(Refusal("not_adjacent", {"region": region}))
    return out


def off_turn(refusals: list[Refusal]) -> bool:
    """Whether ``turn_refusals`` refused the player for acting out of turn. Then nothing more
    is said, as for ``redeploy`` and ``end_turn``: the border, adjacency and hand checks
    describe a turn of the player's that is not under way (an off-turn player's hand is
    usually empty, their race's first conquest long past), so they would only bury the one
    reason that matters."""
    return any(r.code == "not_your_turn" for r in refusals)

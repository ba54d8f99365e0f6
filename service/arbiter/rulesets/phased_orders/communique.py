"""Phase 0 - Emergency Communique, as it interrupts movement: "If the armies are not allied
but not at war this can trigger an emergency communique to be resolved with either
combat or ejection. If this ends in combat war is declared immediately."

Reading: a communique arises when units of players who are neither allied nor at war
step into the same hex in the same subphase and that hex ends both paths
(communique.1). It is asked per contested hex, of each player involved: before the step,
the player's units contesting the hex may halt adjacent to it (where they stand) or
proceed, the decision ``communique:<q>,<r>:<player>`` (the contested hex and the player,
so a client builds it from the orders: the hex where two such players' moves end). Both
may halt, and the hex stays empty. If more than one of those players proceed, the
communique ends in combat: war is declared between them at once (communique.2), and they
fight in phase 12. A request that cannot reach the players asks for the original orders
to be followed (``unanswered_communiques: follow_orders``): every unanswered player
proceeds (communique.3), so a game master resolves the turn in one round. A player's
answer about a hex holds for the whole turn (the same question in a later subphase takes
the same answer). The events are labelled phase 0, with the phase and subphase they
interrupt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.engine.hexgrid import Hex, as_dict

from .decisions import PendingQuestion
from .models import PhasedOrdersOption

if TYPE_CHECKING:
    from .movement import Mover
    from .world import World

HALT = PhasedOrdersOption(choice="halt")
PROCEED = PhasedOrdersOption(choice="proceed")


def contests(world: World, stepping: list[Mover]) -> list[tuple[Hex, list[Mover]]]:
    """The hexes this step contests, in map order, each with the units involved: those whose
    path ends there and whose owner is neither allied with nor at war with another's."""
    by_hex: dict[Hex, list[Mover]] = {}
    for m in stepping:
        if m.last_step:
            by_hex.setdefault(m.next_hex, []).append(m)
    out = []
    for h in sorted(by_hex, key=world.board.hex_order.__getitem__):
        group = by_hex[h]
        involved = [m for m in group if any(
            world.relation(m.piece.owner, o.piece.owner) == "neutral" for o in group)]
        if involved:
            out.append((h, involved))
    return out


def resolve_communiques(world: World, stepping: list[Mover]) -> list[Mover]:
    """The units that halt; the others step. Stops the turn while answers are missing."""
    found = contests(world, stepping)
    if not found:
        return []
    follow = PROCEED if world.action.unanswered_communiques == "follow_orders" else None
    answers: list[tuple[Hex, Mover, str, str]] = []
    for h, group in found:
        units = [m.piece.id for m in group]
        players = list(dict.fromkeys(m.piece.owner for m in group))
        world.trace.communique("communique_raised", hex=as_dict(h), units=units,
                               players=sorted(players))
        for player in players:
            own = [m for m in group if m.piece.owner == player]
            decision = communique_id(h, player)
            question = PendingQuestion(
                decision, "communique", [HALT, PROCEED], phase=0,
                subphase=world.trace.subphase, hex=h, units=units, player=player,
                players=players,
                params={"decision": decision, "units": units, "hex": as_dict(h),
                        "player": player, "own": [m.piece.id for m in own]})
            answer = world.decisions.ask(question, follow)
            if answer is not None:
                answers += [(h, m, answer.choice, decision) for m in own]
    world.decisions.stop_if_pending()
    halted = []
    for h, m, choice, decision in answers:
        world.trace.communique("communique_answered", unit=m.piece.id, choice=choice,
                               contested=as_dict(h),
                               followed_orders=decision not in world.decisions.given)
        if choice == "halt":
            halted.append(m)
            m.halt(world, "halted_by_communique", contested=as_dict(h))
    _declare_wars(world, [(h, m) for h, m, choice, _ in answers if choice == "proceed"])
    return halted


def communique_id(h: Hex, player: str) -> str:
    """The decision of ``player`` about the contested hex ``h``."""
    return f"communique:{h[0]},{h[1]}:{player}"


def _declare_wars(world: World, proceeding: list[tuple[Hex, Mover]]) -> None:
    for i, (h, m) in enumerate(proceeding):
        for h2, other in proceeding[i + 1:]:
            a, b = m.piece.owner, other.piece.owner
            if h2 == h and world.relation(a, b) == "neutral":
                world.declare_war(a, b)
                world.trace.communique("war_declared", players=sorted((a, b)),
                                       hex=as_dict(h))

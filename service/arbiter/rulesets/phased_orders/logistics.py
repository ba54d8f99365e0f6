"""Phase 11 - Logistics: "See rules on unit Shunting. If two allied units occupy the same
location, one is ejected one space backward. If this would cause it to be in the same
location as an allied unit, this process is repeated. The allied players may choose who
is ejected."

Reading: units of one player count as allied with each other. Hexes are taken in map
order; on a hex, the units joined by alliances form a stack. Only a unit that moved this
turn can be ejected: it goes back one hex along its own path, and again while it shares a
hex with an ally (logistics.1), until it reaches the hex it started from. When more than
one unit of the stack could be ejected, the players choose (logistics.2: the decision
``ejection:<q>,<r>:<n>``, the n-th unit ejected from hex (q,r), counted from 1, so a
client builds it ahead: the first choice on (2,0) is ``ejection:2,0:1``); with a single
candidate there is nothing to choose, and it is ejected without a decision (as any
question with one option, ``decisions.py``). A stack none of whose units can be ejected any
further stays for the game master's shunting in phase 18. An ejected unit's move ends
partly carried out, with the steps it kept (0 when it is back where it started).
"""

from __future__ import annotations

from arbiter.engine.hexgrid import Hex, as_dict

from .decisions import PendingQuestion
from .models import RESERVED_OWNERS, PhasedOrdersMove, PhasedOrdersOption
from .world import Piece, World


def stacks(world: World) -> list[tuple[Hex, list[Piece]]]:
    """Allied units sharing a hex, by hex in map order."""
    out = []
    for h in sorted(world.at, key=world.board.hex_order.__getitem__):
        if len(world.at[h]) > 1:
            out += [(h, g) for g in world.allied_groups(world.occupants(h)) if len(g) > 1]
    return out


def phase_logistics(world: World) -> None:
    asked: set[str] = set()
    ejected: dict[Hex, int] = {}
    while _eject_one(world, asked, ejected):
        pass
    world.decisions.stop_if_pending()


def ejection_id(h: Hex, n: int) -> str:
    """The choice of the n-th unit ejected from hex ``h`` (from 1)."""
    return f"ejection:{h[0]},{h[1]}:{n}"


def _eject_one(world: World, asked: set[str], ejected: dict[Hex, int]) -> bool:
    """Resolve the first stack that can be resolved now; False when none is left."""
    for h, group in stacks(world):
        ejectable = [p for p in group if len(p.route) > 1]
        decision = ejection_id(h, ejected.get(h, 0) + 1)
        if not ejectable or decision in asked:
            continue
        if len(ejectable) > 1:  # a question asked once; one candidate is no question
            asked.add(decision)
        units = [p.id for p in group]
        owners = {p.owner for p in group}
        answer = world.decisions.ask(PendingQuestion(
            decision, "ejection",
            [PhasedOrdersOption(choice="eject", unit=p.id) for p in ejectable],
            phase=11, subphase=None, hex=h, units=units,
            player=next(iter(owners)) if len(owners) == 1 and not owners & RESERVED_OWNERS
            else None,
            params={"decision": decision, "units": units, "hex": as_dict(h)}))
        if answer is None or answer.unit is None:
            asked.add(decision)  # pending, or answered wrongly: asked once all the same
            continue
        ejected[h] = ejected.get(h, 0) + 1
        eject(world, world.pieces[answer.unit])
        return True
    return False


def eject(world: World, piece: Piece) -> None:
    """Back along its own path, one hex at a time, while it shares a hex with an ally."""
    while len(piece.route) > 1:
        frm = piece.hex
        piece.route.pop()
        world.place(piece, piece.route[-1])
        world.trace.event("unit_ejected", unit=piece.id, to=as_dict(piece.hex),
                          **{"from": as_dict(frm)})
        if not any(o is not piece and world.allied(piece.owner, o.owner)
                   for o in world.occupants(piece.hex)):
            break
    index = world.plan.unit_order.get(piece.id)
    if index is None:
        return
    order = world.plan.orders[index]
    if isinstance(order, PhasedOrdersMove):
        kept = len(piece.route) - 1
        world.results.settle(index, "ejected", 11, reached=piece.hex, kept=kept,
                             unit=piece.id, hex=as_dict(piece.hex), steps=kept,
                             ordered=len(order.path))

"""Phase 3 - Rot & Ruin: "Caravans suffer one point of Rot & Ruin damage in this phase. If
they have none left, they lose 1 Resource. If they have no Resources, then they are
disbanded."

Reading: a caravan's durability is its store of Rot & Ruin points. The point of damage
is taken from it (rot.1); a caravan with none left takes it from its resources instead
(rot.2); one with neither is disbanded (rot.3). So a caravan at durability 1 ends the
phase at 0 and loses a resource only on a later turn.
"""

from __future__ import annotations

from arbiter.engine.hexgrid import as_dict

from .world import World


def phase_rot(world: World) -> None:
    for piece in list(world.pieces.values()):
        if piece.durability is None or piece.carried is None:
            continue
        if piece.durability > 0:
            world.alter(piece, durability=piece.durability - 1)
            world.trace.event("caravan_rotted", unit=piece.id, durability=piece.durability)
        elif piece.carried > 0:
            world.alter(piece, carried=piece.carried - 1)
            world.trace.event("caravan_lost_resource", unit=piece.id, resources=piece.carried)
        else:
            world.remove(piece)
            world.trace.event("caravan_disbanded", unit=piece.id, hex=as_dict(piece.hex))

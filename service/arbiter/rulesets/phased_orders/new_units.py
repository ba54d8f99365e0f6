"""Phase 15 - New Units: "Newly created units appear on the game board in this phase."
(new_units.1)

A unit paid for in phase 6 appears on its stronghold's hex. Reading: it appears even if
another unit stands there; the two then share the hex, an illegal position the game
master resolves in phase 18 (the newcomer gives way).
"""

from __future__ import annotations

from arbiter.engine.hexgrid import as_dict

from .world import World


def phase_new_units(world: World) -> None:
    for waiting in world.recruits:
        piece = waiting.piece
        world.add(piece)
        world.trace.event("unit_created", unit=piece.id, hex=as_dict(piece.hex),
                          data=piece.to_json())

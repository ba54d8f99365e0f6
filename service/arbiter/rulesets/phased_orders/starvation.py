"""Phase 5 - Starvation: "If player could not pay the entirety of their upkeep in Phase 4,
the difference in armies are disbanded at random. Armies disbanded in this way are
guaranteed to become Bandits."

Reading: the number disbanded is the unpaid amount in units' upkeep (the unpaid
resources, divided by the upkeep per unit and rounded up: with the default upkeep of 1,
the unpaid amount itself), at most every army the player has; "armies" are the player's
units that cost upkeep and are not caravans. They are drawn one at a time from the
state's seed, uniformly among those left, in the order the state lists them
(starvation.1). Each becomes a bandit where it stood, created in phase 16
(starvation.2); its orders fail.
"""

from __future__ import annotations

from arbiter.engine.hexgrid import as_dict

from .models import BANDITS
from .world import Piece, Waiting, World


def phase_starvation(world: World) -> None:
    per_unit = max(world.options.upkeep, 1)
    for player in world.board.players:
        unpaid = world.unpaid.get(player, 0)
        if unpaid == 0:
            continue
        armies = [p for p in world.pieces.values()
                  if p.owner == player and not p.spec.free_upkeep and not p.caravan]
        for _ in range(min(-(-unpaid // per_unit), len(armies))):
            piece = armies.pop(world.draw(len(armies)))
            world.remove(piece)
            world.bandits.append(Waiting(_bandit(piece)))
            world.trace.event("unit_starved", unit=piece.id, player=player,
                              hex=as_dict(piece.hex), rng=world.rng.state)


def _bandit(piece: Piece) -> Piece:
    """The bandit a starved army becomes: the same unit, owned by no player."""
    return Piece(spec=piece.spec, owner=BANDITS, hex=piece.hex, hit_points=piece.hit_points,
                 max_hit_points=piece.max_hit_points, strength=piece.strength,
                 level=piece.level, durability=None, carried=None, route=[piece.hex])

"""Phase 16 - Bandits: "If a unit being disbanded caused it to become a bandit, it is
created in this phase. Bandits cannot spawn in hexes that are occupied by another player.
If a Bandit would spawn on a Stronghold, they are instead spawned adjacent to it, in a
random legal, unoccupied hex. If not such hex exists, the Bandit does not spawn."

Reading: the only disbanding the source says makes a bandit is starvation (phase 5). A
bandit spawns where its army stood (bandits.1). A hex holding a unit of a player - any
player: a bandit is no player's, so every player is "another player" - blocks it, and it
does not spawn (bandits.2). A hex held only by units no player controls (bandits,
uncontrolled undead) is not "occupied by another player": the bandit spawns there, and
the two then share the hex, an illegal position (one unit per hex) that phase 18
shunts at the game master's discretion (``finishing.py``: the bandit, which came last,
gives way; the decision ``placement:<unit>``). On a stronghold's hex it spawns instead on
an adjacent hex that is on the map, holds no stronghold and no unit at all ("a random
legal, unoccupied hex"), drawn from the seed among those (in the order E, NE, NW, W, SW,
SE; no draw when there is only one), or not at all (bandits.3). Bandits spawn in the
order they starved, each taking its hex before the next.
"""

from __future__ import annotations

from arbiter.engine.hexgrid import as_dict, neighbours

from .models import RESERVED_OWNERS
from .world import World


def phase_bandits(world: World) -> None:
    for waiting in world.bandits:
        bandit = waiting.piece
        h = bandit.hex
        stronghold = world.board.stronghold_at.get(h)
        if stronghold is None:
            players = sorted({o.owner for o in world.occupants(h)} - RESERVED_OWNERS)
            if players:
                world.trace.event("bandit_blocked", unit=bandit.id, hex=as_dict(h),
                                  players=players)
                continue
            world.add(bandit)
            world.trace.event("bandit_spawned", unit=bandit.id, hex=as_dict(h),
                              data=bandit.to_json())
            continue
        free = [n for n in neighbours(h) if world.on_map(n)
                and n not in world.board.stronghold_at and n not in world.at]
        if not free:
            world.trace.event("bandit_no_room", unit=bandit.id, stronghold=stronghold)
            continue
        spot = free[world.draw(len(free))] if len(free) > 1 else free[0]
        bandit.hex = spot
        bandit.route = [spot]
        world.add(bandit)
        extra = {"rng": world.rng.state} if len(free) > 1 else {}
        world.trace.event("bandit_spawned_adjacent", unit=bandit.id, stronghold=stronghold,
                          hex=as_dict(spot), data=bandit.to_json(), **extra)

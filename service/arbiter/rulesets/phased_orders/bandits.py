"""Phase 16 - Bandits: "If a unit being disbanded caused it to become a bandit, it is
created in this phase. Bandits cannot spawn in hexes that are occupied by another player.
If a Bandit would spawn on a Stronghold, they are instead spawned adjacent to it, in a
random legal, unoccupied hex. If not such hex exists, the Bandit does not spawn."

Reading: the only disbanding the source says makes a bandit is starvation (phase 5). A
bandit spawns where its army stood (bandits.1). A hex holding any unit blocks it - a
player's, or another bandit (no turn leaves two units on one hex) - and it does not
spawn (bandits.2). On a stronghold's hex it spawns instead on an adjacent hex that is on
the map, holds no stronghold and no unit, drawn from the seed among those (in the order
E, NE, NW, W, SW, SE; no draw when there is only one), or not at all (bandits.3).
Bandits spawn in the order they starved, each taking its hex before the next.
"""

from __future__ import annotations

from arbiter.engine.hexgrid import as_dict, neighbours

from .world import World


def phase_bandits(world: World) -> None:
    for waiting in world.bandits:
        bandit = waiting.piece
        h = bandit.hex
        stronghold = world.board.stronghold_at.get(h)
        if stronghold is None:
            if h in world.at:
                world.trace.event("bandit_blocked", unit=bandit.id, hex=as_dict(h))
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

"""Phase 4 - Upkeep: "Each unit that does not have free upkeep incurs a 1 resource
charge." (upkeep.1)

Reading: the charge goes to the player's resource pool, which pays what it holds, down to
0 and never below; what is left unpaid is remembered for phase 5 (starvation). Every
unit on the board counts, caravans too, unless it has free upkeep; units that disbanded
in phases 2 and 3 no longer count, units commissioned this turn not yet.
"""

from __future__ import annotations

from .world import World


def phase_upkeep(world: World) -> None:
    per_unit = world.options.upkeep
    units: dict[str, int] = {}
    for piece in world.pieces.values():
        if piece.owner in world.players and not piece.spec.free_upkeep:
            units[piece.owner] = units.get(piece.owner, 0) + 1
    for player in world.board.players:
        charge = units.get(player, 0) * per_unit
        if charge == 0:
            continue
        pool = world.resources(player)
        paid = min(pool, charge)
        world.set_resources(player, pool - paid)
        world.unpaid[player] = charge - paid
        world.trace.event("upkeep_charged", player=player, charge=charge, paid=paid,
                          unpaid=charge - paid, resources=pool - paid)

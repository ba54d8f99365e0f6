"""The turn sequence: phases 1 to 19 in the source's order, each a function of its own
module, run over one ``World``. Phase 10b (predation) runs after phase 10's subphases;
phase 0 (the emergency communique) is no step of the sequence: it interrupts movement
(``communique.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter.engine.bounds import checkpoint

from .abilities import phase_abilities
from .bandits import phase_bandits
from .caravans import phase_caravans
from .combat import phase_combat
from .commission import phase_commission
from .disband import phase_disband
from .excess import phase_excess
from .finishing import phase_finishing
from .healing import phase_healing
from .income import phase_income
from .logistics import phase_logistics
from .movement import phase_movement
from .new_units import phase_new_units
from .orders import phase_orders
from .predation import phase_predation
from .ranged import phase_ranged
from .repair import phase_repair
from .rot import phase_rot
from .starvation import phase_starvation
from .upkeep import phase_upkeep
from .world import World

Phase = Callable[[World], None]

PHASES: tuple[tuple[int, Phase], ...] = (
    (1, phase_orders),
    (2, phase_disband),
    (3, phase_rot),
    (4, phase_upkeep),
    (5, phase_starvation),
    (6, phase_commission),
    (7, phase_ranged),
    (8, phase_abilities),
    (9, phase_caravans),
    (10, phase_movement),
    (10, phase_predation),
    (11, phase_logistics),
    (12, phase_combat),
    (13, phase_healing),
    (14, phase_repair),
    (15, phase_new_units),
    (16, phase_bandits),
    (17, phase_excess),
    (18, phase_finishing),
    (19, phase_income),
)


def run_turn(world: World) -> None:
    """Every phase in order. Raises ``DecisionsPending`` where the turn stops for decisions
    missing or answered with something they do not offer."""
    for number, phase in PHASES:
        checkpoint()
        world.trace.enter(number)
        phase(world)

"""Phase 10 - Movement: "This includes flight. Units can move into a hex occupied by another
unit in this phase. Units can move through space occupied by non-enemy units. A ground
unit cannot, however, move past a space occupied by an enemy and will instead halt it's
movement there." With its subphases (3a-3e), road priority subphases, flight over
non-archer ground units and the archers' option to attack a unit flying over.

The clock (movement.2): a unit's subphase comes from the movement it has left (its move
minus the steps it has taken), not from the length of its order. While any moving unit
has more than 4 left, those units step once each, all together, in ``3a`` rounds; then
the units with 4 left step once (``3b``), then those with 3 (``3c``: a move-4 unit steps
again here), 2 (``3d``) and 1 (``3e``). A unit that enters a road hex in subphase X takes
its next step in an ``X-priority`` subphase run at once, before the next regular one, and
again while it keeps entering road hexes (movement.3). X is the regular subphase (the
source's "3a-Priority, for example, which would occur before 3b"): a unit that enters a
road hex in ``3b-priority`` steps next in another ``3b-priority`` subphase, still before
``3c``, so a chain of road hexes reads 3b, 3b-priority, 3b-priority, ... in the trace.

Each step is simultaneous: first the emergency communiques it raises are answered
(``communique.py``), then every unit steps, then each looks at the hex it entered, as
it is after the step: a ground unit that entered a hex holding an enemy halts there
(movement.4); a flying unit flies over enemy ground units (movement.5) but halts on
entering a hex holding an enemy flying unit, and each enemy archer it flies over may
attack it, halting it there (movement.6: the decision ``archer:<archer>:<flyer>``).
Non-enemy units never stop anyone. A unit always completes the step that ends its path,
whoever holds the hex (melee then comes in phase 12). Two enemy units that swap hexes in
one step pass each other: neither entered a hex the other held after the step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.engine.hexgrid import Hex, as_dict

from .catalogue import FAST, FAST_ABOVE, SUBPHASE_BY_REMAINING
from .communique import resolve_communiques
from .decisions import PendingQuestion
from .models import RESERVED_OWNERS, PhasedOrdersMove, PhasedOrdersOption
from .world import Piece, World

ATTACK = PhasedOrdersOption(choice="attack")
LET_PASS = PhasedOrdersOption(choice="let_pass")


@dataclass(slots=True, eq=False)
class Mover:
    """A unit carrying out its move order."""

    index: int
    piece: Piece
    path: list[Hex]
    remaining: int
    taken: int = 0
    done: bool = False
    halted: bool = False

    @property
    def next_hex(self) -> Hex:
        return self.path[self.taken]

    @property
    def last_step(self) -> bool:
        """The coming step ends the path."""
        return self.taken == len(self.path) - 1

    def halt(self, world: World, code: str, **extra: Any) -> None:
        """The unit stops where it stands: its order is partly carried out, as the
        catalogue declares each halting code - also when it halts before its first step
        (``steps`` 0 says how far it got; the code says why)."""
        self.done = self.halted = True
        world.results.settle(self.index, code, world.trace.phase, reached=self.piece.hex,
                             kept=self.taken, unit=self.piece.id, hex=as_dict(self.piece.hex),
                             steps=self.taken, ordered=len(self.path), **extra)


def phase_movement(world: World) -> None:
    movers = _movers(world)
    priority: list[Mover] = []
    base = FAST
    while True:
        active = [m for m in movers if not m.done]
        if not active:
            break
        if priority:
            label, stepping = f"{base}-priority", priority
        else:
            top = max(m.remaining for m in active)
            base = FAST if top > FAST_ABOVE else SUBPHASE_BY_REMAINING[top]
            stepping = [m for m in active
                        if (m.remaining > FAST_ABOVE if base == FAST else m.remaining == top)]
            label = base
        world.trace.enter(10, label)
        priority = _step_all(world, stepping, base)
    for m in movers:
        if not m.halted:
            world.results.settle(m.index, "moved", 10, reached=m.piece.hex, kept=m.taken,
                                 unit=m.piece.id, steps=m.taken, ordered=len(m.path),
                                 hex=as_dict(m.piece.hex))


def _movers(world: World) -> list[Mover]:
    movers = []
    for i, order in world.orders(PhasedOrdersMove):
        piece = world.actor(i, order.unit)
        if piece is not None:
            movers.append(Mover(index=i, piece=piece, path=[h.key for h in order.path],
                                remaining=piece.spec.move))
    return movers


def _step_all(world: World, stepping: list[Mover], base: str) -> list[Mover]:
    """One simultaneous step; the units that entered a road hex and go on, for the
    priority subphase that follows."""
    halted = resolve_communiques(world, stepping)
    steppers = [m for m in stepping if m not in halted]
    for m in steppers:
        frm = m.piece.hex
        world.place(m.piece, m.next_hex)
        m.piece.route.append(m.piece.hex)
        m.taken += 1
        m.remaining -= 1
        world.trace.event("unit_moved", unit=m.piece.id, to=as_dict(m.piece.hex),
                          remaining=m.remaining, **{"from": as_dict(frm)})
    for m in steppers:
        _arrive(world, m)
    world.decisions.stop_if_pending()
    priority = [m for m in steppers if not m.done and world.board.hexes[m.piece.hex].road]
    for m in priority:
        world.trace.event("road_priority", unit=m.piece.id, hex=as_dict(m.piece.hex),
                          next=f"{base}-priority")
    return priority


def _arrive(world: World, m: Mover) -> None:
    """What the unit finds in the hex it entered: the end of its path, or an enemy."""
    if m.taken == len(m.path):
        m.done = True
        return
    here = m.piece.hex
    foes = [o for o in world.occupants(here)
            if o is not m.piece and world.hostile(m.piece.owner, o.owner)]
    if not foes:
        return
    at = as_dict(here)
    if not m.piece.flying:
        world.trace.event("halted_by_enemy", unit=m.piece.id, hex=at)
        m.halt(world, "halted_by_enemy")
        return
    if any(o.flying for o in foes):
        world.trace.event("halted_by_enemy_flyer", unit=m.piece.id, hex=at)
        m.halt(world, "halted_by_enemy_flyer")
        return
    attacker = archers_flown_over(world, m.piece, [o for o in foes if o.archer])
    if attacker is not None:
        m.halt(world, "halted_by_archer", archer=attacker)
        return
    world.trace.event("flew_over", unit=m.piece.id, hex=at, units=[o.id for o in foes])


def archers_flown_over(world: World, flyer: Piece, archers: list[Piece]) -> str | None:
    """movement.6: each enemy archer flown over (on the flyer's hex) may attack; the first
    that does halts the flying unit. None when every archer answered and let it pass (or
    an answer is missing: the turn then stops after this step). A player's flyer in its
    subphase and a flying predator in 10b alike."""
    here = flyer.hex
    attacker = None
    for archer in archers:
        decision = f"archer:{archer.id}:{flyer.id}"
        question = PendingQuestion(
            decision, "archer", [ATTACK, LET_PASS], phase=10, subphase=world.trace.subphase,
            hex=here, units=[archer.id, flyer.id], unit=archer.id,
            player=None if archer.owner in RESERVED_OWNERS else archer.owner,
            params={"decision": decision, "archer": archer.id, "unit": flyer.id,
                    "hex": as_dict(here)})
        answer = world.decisions.ask(question)
        if answer is None:
            continue
        attacks = answer.choice == "attack"
        world.trace.event("archer_attacked" if attacks else "archer_let_pass",
                          archer=archer.id, unit=flyer.id, hex=as_dict(here))
        if attacks and attacker is None:
            attacker = archer.id
    return attacker

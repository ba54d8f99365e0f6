"""What a ``phased_orders`` state looks like (``render``): the hex map, road hexes in a
colour of their own (coordinates and road in each hex's tooltip); units as pieces in their
owner's colour - bandits and uncontrolled undead in colours of their own, listed after the
players - each labelled with its hit points, its type, stats, caravan load, spells and
abilities in its description; strongholds (``S``) and capitals (``C``) as squares with
their resources in their description.

Overlays:

- ``reachable``: the hexes a unit's move order can end on, shaded by steps: the ruleset's
  own generator proposes them (``candidates.paths``: one shortest path to each hex within
  the unit's move) and ``judge`` accepts them, each as a ``submit`` of that one order (the
  action the shade carries, for a frontend to propose on a click); one path is drawn (to
  ``to``, else to the farthest hex). Clicking a player's unit asks for it. An order is not
  a journey: on the way the unit may halt (an enemy, an archer, a communique), which only
  the turn tells - the ``trace`` overlay.
- ``trace``: the turn resolved from the overlay's orders and decisions by the ruleset's
  ``judge`` (the picture reads the trace's events and re-derives nothing): every step of a
  move (phase 10, predation, ejection, shunting) and every ranged attack and spell as an
  arrow numbered by its phase or subphase in the order they ran (the key is in the
  caption: ``1 3b, 2 3c, 3 3c-priority``); halts, communiques, melees and losses written on
  the hex where they happened; orders that break a rule marked; and when the turn stopped
  for decisions, each pending decision marked on its hex and listed in the legend with its
  options.
- ``action`` (every ruleset's, from ``render``): a proposed ``resolve`` or ``submit`` drawn
  order by order - a move along its path, an attack or a spell at its target, a
  commission on its stronghold - each arrow numbered by the order's index; ``render``
  judges it and marks its violations.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field

from arbiter.engine.errors import Problems
from arbiter.engine.hexgrid import Axial, Hex
from arbiter.engine.index import check_ref
from arbiter.engine.legal import legal
from arbiter.engine.outcome import Event, Location, Violation
from arbiter.engine.wire import Frozen, Id
from arbiter.pictures.scene import (
    Arrow,
    Cell,
    Glyph,
    Mark,
    Note,
    Picture,
    Piece,
    Place,
    Scene,
    Shade,
    within,
)

from .board import Board
from .candidates import paths
from .catalogue import PHASE_NAMES
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE
from .judge import from_action, judge
from .models import (
    BANDITS,
    MAX_DECISIONS,
    MAX_HEXES,
    MAX_ORDERS,
    MAX_UNITS,
    RESERVED_OWNERS,
    UNDEAD,
    PhasedOrdersAnyAction,
    PhasedOrdersAnyOrder,
    PhasedOrdersCast,
    PhasedOrdersCombatResult,
    PhasedOrdersCommission,
    PhasedOrdersDecision,
    PhasedOrdersLevelUp,
    PhasedOrdersMove,
    PhasedOrdersOrder,
    PhasedOrdersRangedAttack,
    PhasedOrdersResolve,
    PhasedOrdersStronghold,
    PhasedOrdersSubmit,
    PhasedOrdersUnit,
    PhasedOrdersUseAbility,
)


class PhasedOrdersReachableOverlay(Frozen):
    unit: Id = Field(description="A player's unit.")
    to: Axial | None = Field(default=None, description="Draw the path to this hex; to the "
                             "farthest hex the move reaches when omitted.")


class PhasedOrdersTraceOverlay(Frozen):
    """A turn to resolve and draw: the fields of a ``resolve`` action."""

    orders: list[PhasedOrdersOrder] = Field(default_factory=list, max_length=MAX_ORDERS)
    decisions: list[PhasedOrdersDecision] = Field(default_factory=list,
                                                  max_length=MAX_DECISIONS)
    combat_results: list[PhasedOrdersCombatResult] = Field(default_factory=list,
                                                           max_length=MAX_HEXES)
    level_ups: list[PhasedOrdersLevelUp] = Field(default_factory=list, max_length=MAX_UNITS)
    unanswered_communiques: Literal["pending", "follow_orders"] = "pending"

    def action(self) -> PhasedOrdersResolve:
        return PhasedOrdersResolve(
            type="resolve", orders=self.orders, decisions=self.decisions,
            combat_results=self.combat_results, level_ups=self.level_ups,
            unanswered_communiques=self.unanswered_communiques)


class PhasedOrdersOverlay(Frozen):
    """What to draw over a phased_orders map."""

    reachable: PhasedOrdersReachableOverlay | None = Field(
        default=None, description="Shade the hexes a unit's move order can end on by steps, "
        "with one path.")
    trace: PhasedOrdersTraceOverlay | None = Field(
        default=None, description="Resolve this turn and draw its trace: moves as arrows "
        "numbered by phase and subphase, halts and melees where they happened, and the "
        "pending decisions when the turn stops for them.")


@dataclass(frozen=True, slots=True)
class Layer:
    """What an overlay adds to the board."""

    caption: str = ""
    shades: tuple[Shade, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    notes: tuple[Note, ...] = ()
    marks: tuple[Mark, ...] = ()


GLYPHS = (
    Glyph("army", "5", "a unit, with its hit points"),
    Glyph("caravan", "3", "a caravan, with its hit points"),
    Glyph("castle", "C", "a capital"),
    Glyph("structure", "S", "a stronghold"),
)


def scene(board: Board, overlay: PhasedOrdersOverlay | None,
          action: PhasedOrdersAnyAction | None) -> Scene:
    state = board.state
    layers: list[Layer] = []
    if overlay is not None and overlay.reachable is not None:
        with within("reachable"):
            layers.append(_reachable(board, overlay.reachable))
    if overlay is not None and overlay.trace is not None:
        with within("trace"), from_action():
            layers.append(_trace(board, overlay.trace.action()))
    if action is not None:
        layers.append(Layer(arrows=tuple(_order_arrows(board, action.orders))))
    caption = "; ".join(layer.caption for layer in layers if layer.caption)
    roads = sum(1 for h in state.hexes if h.road)
    return Scene(
        glyphs=GLYPHS,
        title=f"phased_orders: {len(state.hexes)} hexes, {len(state.units)} units, "
              f"{len(state.strongholds)} strongholds",
        desc=f"A hex map with {roads} road hexes; players "
             f"{', '.join(p.id for p in state.players)}, then bandits and uncontrolled "
             "undead; units labelled with their hit points; strongholds (S) and capitals "
             "(C) as squares." + (f" Overlay: {caption}." if caption else ""),
        players=(*(p.id for p in state.players), BANDITS, UNDEAD),
        cells=tuple(Cell(hex=(h.q, h.r), terrain="road" if h.road else "open",
                         title=f"({h.q},{h.r})" + (" road" if h.road else ""))
                    for h in state.hexes),
        pieces=(*map(_unit_piece, state.units), *map(_stronghold_piece, state.strongholds)),
        shades=tuple(s for layer in layers for s in layer.shades),
        arrows=tuple(a for layer in layers for a in layer.arrows),
        notes=tuple(n for layer in layers for n in layer.notes),
        marks=tuple(m for layer in layers for m in layer.marks),
        caption=caption, shade_unit="steps")


# -- pieces ---------------------------------------------------------------------------------

def _unit_piece(u: PhasedOrdersUnit) -> Piece:
    owner = {BANDITS: "bandits", UNDEAD: "uncontrolled undead"}.get(u.owner, u.owner)
    return Piece(id=u.id, at=u.hex.key, owner=u.owner, label=str(u.hit_points),
                 title=f"{u.type} {u.id} ({owner}) at ({u.hex.q},{u.hex.r})",
                 desc=_unit_facts(u), kind="caravan" if u.caravan is not None else "army",
                 select=None if u.owner in RESERVED_OWNERS
                 else {"reachable": {"unit": u.id}})


def _unit_facts(u: PhasedOrdersUnit) -> str:
    facts = [f"{u.hit_points}/{u.max_hit_points} hit points", f"strength {u.strength}",
             f"move {u.move}"]
    facts += [word for word, on in (("flying", u.flying), ("undead", u.undead),
                                    ("free upkeep", u.free_upkeep)) if on]
    if u.archer:
        facts.append(f"archer (range {u.range})")
    if u.level:
        facts.append(f"level {u.level}")
    if u.caravan is not None:
        facts.append(f"caravan: durability {u.caravan.durability}, carrying "
                     f"{u.caravan.resources} resources")
    if u.spells:
        facts.append(f"spells {', '.join(u.spells)}")
    if u.abilities:
        facts.append(f"abilities {', '.join(u.abilities)}")
    return "; ".join(facts)


def _stronghold_piece(s: PhasedOrdersStronghold) -> Piece:
    what = "capital" if s.capital else "stronghold"
    return Piece(id=s.id, at=s.hex.key, owner=s.owner, label="C" if s.capital else "S",
                 title=f"{what} {s.id} ({s.owner}) at ({s.hex.q},{s.hex.r})",
                 desc=f"{s.resources} resources stored, {s.maximum} at most",
                 kind="castle" if s.capital else "structure")


# -- reachable ------------------------------------------------------------------------------

def _reachable(board: Board, ask: PhasedOrdersReachableOverlay) -> Layer:
    problems = Problems()
    check_ref(ask.unit, board.units, ("unit",), "unit", problems)
    problems.raise_if_any()
    unit = board.units[ask.unit]
    if unit.owner in RESERVED_OWNERS:
        return Layer(caption=f"{unit.id} belongs to the {unit.owner}: no player orders it")
    orders = (PhasedOrdersSubmit(type="submit", player=unit.owner, orders=[PhasedOrdersMove(
        order="move", player=unit.owner, unit=unit.id, path=[Axial.of(h) for h in path])])
        for path in paths(board, unit))
    moves = [_path_of(a) for a in legal(judge, board, orders)]
    shades = tuple(Shade(at=path[-1], cost=len(path), label=_steps(board, unit, path),
                         action=a.model_dump(mode="json"))
                   for a, path in moves)
    arrows: tuple[Arrow, ...] = ()
    target = _path_end([path for _, path in moves], ask.to)
    if target is not None:
        end = target[-1]
        arrows = (Arrow(path=(unit.hex.key, *target), owner=unit.owner, kind="path",
                        label=f"one shortest path to ({end[0]},{end[1]}): "
                              f"{len(target)} step(s)"),)
    caption = (f"where a move order can take {unit.id} (move {unit.move}): {len(shades)} "
               "hexes; it may still halt on the way")
    return Layer(caption=caption, shades=shades, arrows=arrows)


def _path_of(action: PhasedOrdersSubmit) -> tuple[PhasedOrdersSubmit, list[Hex]]:
    [order] = action.orders
    assert isinstance(order, PhasedOrdersMove)
    return action, [h.key for h in order.path]


def _steps(board: Board, unit: PhasedOrdersUnit, path: list[Hex]) -> str:
    """The steps, and who holds the hex at the start of the turn (a fact of the board:
    what becomes of the unit there is the turn's to tell)."""
    label = f"{len(path)} step(s)"
    held = board.unit_at.get(path[-1])
    if held is not None:
        other = board.units[held]
        label += f"; {held} ({board.relation(unit.owner, other.owner)}) stands there"
    return label


def _path_end(found: list[list[Hex]], to: Axial | None) -> list[Hex] | None:
    if to is not None:
        return next((p for p in found if p[-1] == to.key), None)
    longest = max((len(p) for p in found), default=None)
    return next((p for p in found if len(p) == longest), None)


# -- the trace ------------------------------------------------------------------------------

MOVES = ("unit_moved", "predator_moved", "unit_ejected", "unit_shunted")
STRIKES = {"ranged_attack": "strike", "spell_cast": "spell", "spell_healed": "spell"}
# The word written on the hex where an event happened, most telling first: a hex shows
# its two most telling words (every event there is in its tooltip); "" adds the event to
# the tooltip only (it comes with another event that has a word: a melee's outcome, say).
WORDS: dict[str, str] = {
    "combat_began": "melee", "unit_slain": "slain", "unit_destroyed": "destroyed",
    "halted_by_enemy": "halt", "halted_by_enemy_flyer": "halt", "archer_attacked": "halt",
    "communique_raised": "communique", "war_declared": "war", "melee_declares_war": "war",
    "unit_starved": "starved", "unit_dismissed": "dismissed", "unit_disbanded": "disbanded",
    "caravan_disbanded": "disbanded", "bandit_spawned": "bandit",
    "bandit_spawned_adjacent": "bandit", "unit_created": "new", "flew_over": "flown over",
    "archer_let_pass": "", "combat_won": "",
}
RANK = {word: n for n, word in enumerate(dict.fromkeys(WORDS.values()))}
NOTE_WORDS = 2


@dataclass(slots=True)
class Reading:
    """The trace read event by event: where each unit stands and who owns it as the turn
    goes, the arrows with the key of their numbers, what happened on each hex."""

    at: dict[str, Hex]
    owner: dict[str, str]
    arrows: list[Arrow] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    words: dict[Hex, list[str]] = field(default_factory=dict)
    told: dict[Hex, list[str]] = field(default_factory=dict)

    def number(self, event: Event) -> int:
        """The arrow's number: its phase or subphase's place in the turn."""
        phase = int(event.params.get("phase", 0))
        sub = event.params.get("subphase")
        key = str(sub) if phase == 10 and sub else f"phase {phase}"
        if not self.keys or self.keys[-1] != key:
            self.keys.append(key)
        return len(self.keys)

    def where(self, event: Event) -> Hex | None:
        if event.at.hex is not None:
            return event.at.hex.key
        unit = event.params.get("unit")
        return self.at.get(unit) if isinstance(unit, str) else None


def _trace(board: Board, action: PhasedOrdersResolve) -> Layer:
    judgement = judge(board, action)
    verdict = judgement.verdict
    facts = judgement.facts()
    reading = Reading(at={u.id: u.hex.key for u in board.state.units},
                      owner={u.id: u.owner for u in board.state.units})
    for event in verdict.events:
        _read(reading, event)
    notes = tuple(Note(at=h, text=_note(words), title="; ".join(reading.told[h]))
                  for h, words in reading.words.items() if any(words))
    marks = tuple(_mark(board, v) for v in verdict.violations) + tuple(
        _question_mark(board, d) for d in facts.get("pending_decisions", []))
    return Layer(caption=_trace_caption(facts, verdict.violations, reading),
                 arrows=tuple(reading.arrows), notes=notes, marks=marks)


def _read(r: Reading, event: Event) -> None:
    p = event.params
    unit = str(p.get("unit", ""))
    if event.kind in MOVES:
        to = _hex(p["to"])
        frm = _hex(p.get("from")) or r.at.get(unit)
        if to is not None:
            r.arrows.append(_trace_arrow(r, event, (to,) if frm is None else (frm, to)))
            r.at[unit] = to
    elif event.kind in STRIKES:
        start, end = r.at.get(unit), r.at.get(str(p.get("target", "")))
        if start is not None and end is not None:
            r.arrows.append(_trace_arrow(r, event, (start, end), STRIKES[event.kind]))
    elif event.kind == "unit_changed_sides":
        r.owner[unit] = str(p["to"])
    data = p.get("data")
    if isinstance(data, Mapping):   # a unit appears: a new unit, a bandit
        r.owner[unit] = str(data.get("owner", ""))
        spot = _hex(data.get("hex"))
        if spot is not None:
            r.at[unit] = spot
    if event.kind in WORDS:
        h = r.where(event)
        if h is not None:
            r.words.setdefault(h, []).append(WORDS[event.kind])
            r.told.setdefault(h, []).append(f"{_phase(event)}: {event.message}")


def _note(words: list[str]) -> str:
    told = sorted({w for w in words if w}, key=RANK.__getitem__)
    more = f" +{len(told) - NOTE_WORDS}" if len(told) > NOTE_WORDS else ""
    return " · ".join(told[:NOTE_WORDS]) + more


def _trace_arrow(r: Reading, event: Event, path: tuple[Hex, ...], kind: str = "move") -> Arrow:
    n = r.number(event)
    return Arrow(path=path, owner=r.owner.get(str(event.params.get("unit", ""))), step=n,
                 kind=kind, label=f"{n} ({r.keys[n - 1]}): {event.message}")


def _hex(value: Any) -> Hex | None:
    return (value["q"], value["r"]) if isinstance(value, Mapping) else None


def _phase(event: Event) -> str:
    phase = int(event.params.get("phase", 0))
    sub = event.params.get("subphase")
    return f"phase {phase} ({PHASE_NAMES.get(phase, '')}" + (f", {sub})" if sub else ")")


def _mark(board: Board, v: Violation) -> Mark:
    """A violation where it occurred."""
    return Mark(at=_violation_place(board, v.at), code=v.code, rule=v.rule,
                message=v.message, severity=v.severity)


def _question_mark(board: Board, pending: Mapping[str, Any]) -> Mark:
    """A pending decision on its hex (code ``pending``: it is a question, not a broken
    rule), saying first (the legend shows the start of a line) who answers it and with
    what."""
    who = pending.get("player") or "the game master"
    options = " or ".join(_option(o) for o in pending["options"])
    spot = _hex(pending.get("hex"))
    return Mark(at=spot if spot in board.hexes else None, code="pending",
                rule=pending["rule"], severity="question",
                message=f"{who}: {options}? {pending['id']}. {pending['question']}")


def _option(option: Mapping[str, Any]) -> str:
    words = [str(option["choice"])]
    if option.get("unit"):
        words.append(str(option["unit"]))
    spot = _hex(option.get("hex"))
    if spot is not None:
        words.append(f"({spot[0]},{spot[1]})")
    return " ".join(words)


def _violation_place(board: Board, at: Location) -> Place | None:
    if at.hex is not None and at.hex.key in board.hexes:
        return at.hex.key
    if at.piece in board.units:
        return board.units[at.piece].hex.key
    if at.piece in board.strongholds:
        return board.strongholds[at.piece].hex.key
    return None


def _trace_caption(derived: Mapping[str, Any], violations: list[Violation],
                   r: Reading) -> str:
    stopped = derived.get("stopped_at")
    broken = len(violations)
    if stopped is not None:
        phase = int(stopped["phase"])
        sub = f", {stopped['subphase']}" if stopped.get("subphase") else ""
        parts = [f"the turn stopped in phase {phase} ({PHASE_NAMES.get(phase, '')}{sub}): "
                 f"{len(derived.get('pending_decisions', []))} decision(s) pending"]
    else:
        parts = ["the turn resolved"]
    if broken:
        parts.append(f"{broken} order(s) break a rule")
    if r.keys:
        parts.append("arrows by (sub)phase: "
                     + ", ".join(f"{n} {key}" for n, key in enumerate(r.keys, start=1)))
    return "; ".join(parts)


# -- a proposed action ----------------------------------------------------------------------

def _order_arrows(board: Board, orders: Iterable[PhasedOrdersAnyOrder]) -> Iterator[Arrow]:
    """Each order that goes somewhere, numbered by its index (a violation's ``step``)."""
    for i, order in enumerate(orders):
        if isinstance(order, PhasedOrdersCommission):
            held = board.strongholds.get(order.stronghold)
            if held is not None:
                yield Arrow(path=(held.hex.key,), owner=order.player, step=i, kind="commission",
                            label=f"order {i}: {order.stronghold} commissions "
                                  f"{order.unit_type} {order.new_unit}")
            continue
        unit = board.units.get(order.unit)
        if unit is None:
            continue
        if isinstance(order, PhasedOrdersMove):
            path = (unit.hex.key, *(h.key for h in order.path))
            yield Arrow(path=path, owner=order.player, step=i,
                        label=f"order {i}: {order.unit} moves along "
                              f"{', '.join(f'({q},{r})' for q, r in path[1:])}")
        elif isinstance(order, PhasedOrdersRangedAttack | PhasedOrdersCast
                        | PhasedOrdersUseAbility):
            target = board.units.get(order.target or order.unit)
            if target is not None and target.id != unit.id:
                what = {"ranged_attack": "shoots", "cast": "casts at"}.get(order.order,
                                                                            "uses an ability on")
                yield Arrow(path=(unit.hex.key, target.hex.key), owner=order.player, step=i,
                            kind="strike", label=f"order {i}: {order.unit} {what} {target.id}")


EXAMPLES: tuple[dict[str, Any], ...] = (
    {"state": EXAMPLE_STATE},
    {"state": EXAMPLE_STATE, "overlay": {"reachable": {"unit": "red-cavalry"}}},
    {"state": EXAMPLE_STATE, "overlay": {"trace": {"orders": EXAMPLE_ACTION["orders"]}}},
    {"state": EXAMPLE_STATE, "overlay": {"action": EXAMPLE_ACTION}},
)

PICTURE: Picture[Board] = Picture(overlay=PhasedOrdersOverlay, scene=scene, examples=EXAMPLES)

"""The state compiled for fast questions, and the consistency checks that make a state
malformed (422) rather than merely a position to resolve.

A state is malformed when it cannot be resolved: an id listed twice, a reference to a
player, spell, ability or hex that is not there, relations that two players list
differently, two units or two strongholds on one hex (no turn ends with units sharing a
hex: logistics, combat and the shunting of phase 18 see to it), a unit with more hit
points than its maximum, a unit id holding a separator of the decision ids (``:`` or
``+``: two decisions could share an id). ``compile_board`` finds every such problem, raises them
together as ``InvalidInput`` with JSON pointers into ``/state``, and otherwise returns a
``Board``: every piece by id, who stands where, the map with its roads. Built once per
request and never mutated; a turn's changes are entered in its ledger (``ledger.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.hexgrid import Hex
from arbiter.engine.index import check_ref, index_by_id

from .models import (
    RESERVED_OWNERS,
    UNDEAD,
    UNIT_ID_FORBIDDEN,
    PhasedOrdersAbility,
    PhasedOrdersHex,
    PhasedOrdersPlayer,
    PhasedOrdersSpell,
    PhasedOrdersState,
    PhasedOrdersStronghold,
    PhasedOrdersUnit,
    PhasedOrdersUnitType,
    Stance,
)

Relation = Literal["same", "allied", "war", "neutral"]


@dataclass(frozen=True, slots=True)
class Board:
    state: PhasedOrdersState
    hexes: dict[Hex, PhasedOrdersHex]
    hex_order: dict[Hex, int]
    players: dict[str, PhasedOrdersPlayer]
    units: dict[str, PhasedOrdersUnit]
    unit_index: dict[str, int]
    unit_at: dict[Hex, str]
    strongholds: dict[str, PhasedOrdersStronghold]
    stronghold_at: dict[Hex, str]
    unit_types: dict[str, PhasedOrdersUnitType]
    spells: dict[str, PhasedOrdersSpell]
    abilities: dict[str, PhasedOrdersAbility]
    stances: dict[str, dict[str, Stance]]

    def relation(self, a: str, b: str) -> Relation:
        """How the owners ``a`` and ``b`` stand at the start of the turn."""
        return relation_of(self.stances, a, b)


def relation_of(stances: Mapping[str, Mapping[str, Stance]], a: str, b: str) -> Relation:
    """``same`` for one owner; bandits and uncontrolled undead are at war with every other
    owner; players as their relations say (``stances``: by player, by other player),
    ``neutral`` (neither allied nor at war) when unlisted."""
    if a == b:
        return "same"
    if a in RESERVED_OWNERS or b in RESERVED_OWNERS:
        return "war"
    return stances.get(a, {}).get(b, "neutral")


def check_unit_id(uid: str, at: tuple[object, ...], problems: Problems) -> None:
    """A unit id may not hold a separator of the decision ids (models.UNIT_ID_FORBIDDEN):
    every decision must have an id of its own."""
    held = [c for c in UNIT_ID_FORBIDDEN if c in uid]
    if held:
        problems.add(pointer(*at), f"unit id {uid} contains {' and '.join(map(repr, held))}: "
                     "unit ids may not contain ':' or '+', which separate the parts of a "
                     "decision id")


def compile_board(state: PhasedOrdersState) -> Board:
    """Check the state's consistency and index it. Raises InvalidInput (422)."""
    problems = Problems()
    hexes, hex_order = _hexes(state, problems)
    player_index = index_by_id(state.players, ("state", "players"), "player", problems)
    players = {pid: state.players[i] for pid, i in player_index.items()}
    _check_players(state, players, player_index, problems)
    catalogues = _catalogues(state, problems)
    unit_index = index_by_id(state.units, ("state", "units"), "unit", problems)
    units = {uid: state.units[i] for uid, i in unit_index.items()}
    unit_at = _check_units(state, hexes, players, catalogues, unit_index, problems)
    sh_index = index_by_id(state.strongholds, ("state", "strongholds"), "stronghold", problems)
    strongholds = {sid: state.strongholds[i] for sid, i in sh_index.items()}
    stronghold_at = _check_strongholds(state, hexes, players, sh_index, problems)
    problems.raise_if_any()
    unit_types, spells, abilities = catalogues
    return Board(state=state, hexes=hexes, hex_order=hex_order, players=players, units=units,
                 unit_index=unit_index, unit_at=unit_at, strongholds=strongholds,
                 stronghold_at=stronghold_at, unit_types=unit_types, spells=spells,
                 abilities=abilities,
                 stances={pid: dict(p.relations) for pid, p in players.items()})


def _hexes(state: PhasedOrdersState, problems: Problems
           ) -> tuple[dict[Hex, PhasedOrdersHex], dict[Hex, int]]:
    hexes: dict[Hex, PhasedOrdersHex] = {}
    order: dict[Hex, int] = {}
    for i, h in enumerate(state.hexes):
        key = (h.q, h.r)
        if key in hexes:
            problems.add(pointer("state", "hexes", i), f"hex ({h.q},{h.r}) is listed twice")
            continue
        hexes[key] = h
        order[key] = i
    return hexes, order


def _check_players(state: PhasedOrdersState, players: dict[str, PhasedOrdersPlayer],
                   player_index: dict[str, int], problems: Problems) -> None:
    for pid, i in player_index.items():
        if pid in RESERVED_OWNERS:
            problems.add(pointer("state", "players", i, "id"),
                         f"{pid} is the owner of units no player controls; no player takes it")
        for other, stance in players[pid].relations.items():
            at = ("state", "players", i, "relations", other)
            if other == pid:
                problems.add(pointer(*at), "a player has no relation with itself")
            elif check_ref(other, players, at, "player", problems):
                back = players[other].relations.get(pid)
                if back != stance:
                    problems.add(pointer(*at), f"{pid} lists {other} as {stance}, but {other} "
                                 f"lists {pid} as {back or 'neither'}")
    # A relation listed by one end only is as asymmetric as a different one.
    for pid, i in player_index.items():
        for other, p in players.items():
            if other != pid and pid in p.relations and other not in players[pid].relations:
                problems.add(pointer("state", "players", i, "relations"),
                             f"{other} lists {pid} as {p.relations[pid]}, but {pid} does not "
                             f"list {other}")


Catalogues = tuple[dict[str, PhasedOrdersUnitType], dict[str, PhasedOrdersSpell],
                   dict[str, PhasedOrdersAbility]]


def _catalogues(state: PhasedOrdersState, problems: Problems) -> Catalogues:
    types = index_by_id(state.unit_types, ("state", "unit_types"), "unit type", problems)
    spells = index_by_id(state.spells, ("state", "spells"), "spell", problems)
    abilities = index_by_id(state.abilities, ("state", "abilities"), "ability", problems)
    return ({k: state.unit_types[i] for k, i in types.items()},
            {k: state.spells[i] for k, i in spells.items()},
            {k: state.abilities[i] for k, i in abilities.items()})


def _check_units(state: PhasedOrdersState, hexes: dict[Hex, PhasedOrdersHex],
                 players: dict[str, PhasedOrdersPlayer], catalogues: Catalogues,
                 unit_index: dict[str, int], problems: Problems) -> dict[Hex, str]:
    owners = set(players) | RESERVED_OWNERS
    _, spells, abilities = catalogues
    unit_at: dict[Hex, str] = {}
    for uid, i in unit_index.items():
        unit = state.units[i]
        at = ("state", "units", i)
        check_unit_id(uid, (*at, "id"), problems)
        check_ref(unit.owner, owners, (*at, "owner"), "owner", problems)
        if unit.owner == UNDEAD and not unit.undead:
            problems.add(pointer(*at, "undead"), "a unit of the uncontrolled undead is undead")
        if unit.hit_points > unit.max_hit_points:
            problems.add(pointer(*at, "hit_points"), f"{unit.hit_points} hit points; its "
                         f"maximum is {unit.max_hit_points}")
        for j, spell in enumerate(unit.spells):
            check_ref(spell, spells, (*at, "spells", j), "spell", problems)
        for j, ability in enumerate(unit.abilities):
            check_ref(ability, abilities, (*at, "abilities", j), "ability", problems)
        key = unit.hex.key
        if key not in hexes:
            problems.add(pointer(*at, "hex"), f"no hex ({key[0]},{key[1]}) on the map")
        elif key in unit_at:
            problems.add(pointer(*at, "hex"), f"hex ({key[0]},{key[1]}) already holds "
                         f"{unit_at[key]}: no turn leaves two units on one hex")
        else:
            unit_at[key] = uid
    return unit_at


def _check_strongholds(state: PhasedOrdersState, hexes: dict[Hex, PhasedOrdersHex],
                       players: dict[str, PhasedOrdersPlayer], index: dict[str, int],
                       problems: Problems) -> dict[Hex, str]:
    at_hex: dict[Hex, str] = {}
    for sid, i in index.items():
        stronghold = state.strongholds[i]
        at = ("state", "strongholds", i)
        check_ref(stronghold.owner, players, (*at, "owner"), "player", problems)
        key = stronghold.hex.key
        if key not in hexes:
            problems.add(pointer(*at, "hex"), f"no hex ({key[0]},{key[1]}) on the map")
        elif key in at_hex:
            problems.add(pointer(*at, "hex"), f"hex ({key[0]},{key[1]}) already holds "
                         f"stronghold {at_hex[key]}")
        else:
            at_hex[key] = sid
    return at_hex

"""The turn's trace: every change as an event labelled with its phase (and, in movement,
its subphase: ``3b``, ``3b-priority``, ``10b``), and the replay of a trace.

Events that change the state carry the values the state takes (a unit's new hex, a
player's resources after upkeep, the seed after a draw), not only the difference, so the
trace is replayable: ``replay(start_state, events)`` gives the resulting state without
running a rule. The property tests hold the resolution to it, which keeps the trace
complete (a change the trace forgot would make the two disagree).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from arbiter.engine.hexgrid import Hex, as_dict
from arbiter.engine.outcome import Location, Verdict, location

COMMUNIQUE_PHASE = 0


class Trace:
    """Records events into the verdict with the phase and subphase under way. An event's
    ``at`` comes from its params: the hex it happens on (``hex``, or ``to`` for a move) and
    the unit it is about (``unit``)."""

    __slots__ = ("phase", "subphase", "verdict")

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.phase = 1
        self.subphase: str | None = None

    def enter(self, phase: int, subphase: str | None = None) -> None:
        self.phase = phase
        self.subphase = subphase

    def event(self, kind: str, **params: Any) -> None:
        labels: dict[str, Any] = {"phase": self.phase}
        if self.subphase is not None:
            labels["subphase"] = self.subphase
        self.verdict.event(kind, at=_where(params), **labels, **params)

    def communique(self, kind: str, **params: Any) -> None:
        """An event of the emergency communique (phase 0), which interrupts a phase."""
        labels: dict[str, Any] = {"phase": COMMUNIQUE_PHASE, "interrupts": self.phase}
        if self.subphase is not None:
            labels["subphase"] = self.subphase
        self.verdict.event(kind, at=_where(params), **labels, **params)


def _where(params: Mapping[str, Any]) -> Location:
    spot = params.get("hex", params.get("to"))
    unit = params.get("unit")
    return location(hex=(spot["q"], spot["r"]) if isinstance(spot, Mapping) else None,
                    piece=unit if isinstance(unit, str) else None)


# -- replay -------------------------------------------------------------------------------------

Json = dict[str, Any]


class _Replayed:
    """The state being replayed, indexed by id."""

    def __init__(self, state: Json) -> None:
        self.state = state
        self.units: dict[str, Json] = {u["id"]: u for u in state["units"]}
        self.players: dict[str, Json] = {p["id"]: p for p in state["players"]}
        self.strongholds: dict[str, Json] = {s["id"]: s for s in state["strongholds"]}

    def remove(self, unit: str) -> None:
        del self.units[unit]

    def add(self, data: Json) -> None:
        self.units[data["id"]] = copy.deepcopy(data)

    def payer(self, p: Mapping[str, Any]) -> Json:
        return self.strongholds[p["payer"]] if p["paid_from"] == "stronghold" \
            else self.players[p["payer"]]

    def war(self, players: list[str]) -> None:
        a, b = players
        self.players[a].setdefault("relations", {})[b] = "war"
        self.players[b].setdefault("relations", {})[a] = "war"


def _set(target: Callable[[_Replayed, Mapping[str, Any]], Json], *fields: str
         ) -> Callable[[_Replayed, Mapping[str, Any]], None]:
    def apply(r: _Replayed, p: Mapping[str, Any]) -> None:
        obj = target(r, p)
        for f in fields:
            obj[f] = p[f]
    return apply


def _unit(r: _Replayed, p: Mapping[str, Any]) -> Json:
    return r.units[p["unit"]]


def _player(r: _Replayed, p: Mapping[str, Any]) -> Json:
    return r.players[p["player"]]


def _stronghold(r: _Replayed, p: Mapping[str, Any]) -> Json:
    return r.strongholds[p["stronghold"]]


def _caravan(r: _Replayed, p: Mapping[str, Any]) -> Json:
    caravan: Json = r.units[p["unit"]]["caravan"]
    return caravan


def _moved(r: _Replayed, p: Mapping[str, Any]) -> None:
    r.units[p["unit"]]["hex"] = dict(p["to"])


def _caravan_trade(r: _Replayed, p: Mapping[str, Any]) -> None:
    _caravan(r, p)["resources"] = p["carried"]
    r.strongholds[p["stronghold"]]["resources"] = p["stored"]


def _levelled(r: _Replayed, p: Mapping[str, Any]) -> None:
    unit = r.units[p["unit"]]
    for f in ("level", "strength", "max_hit_points", "hit_points"):
        unit[f] = p[f]


def _spell_healed(r: _Replayed, p: Mapping[str, Any]) -> None:
    r.units[p["target"]]["hit_points"] = p["hit_points"]
    r.players[p["player"]]["gems"] = p["gems"]


def _paid(r: _Replayed, p: Mapping[str, Any]) -> None:
    r.payer(p)["resources"] = p["resources"]


def _removed(r: _Replayed, p: Mapping[str, Any]) -> None:
    r.remove(p["unit"])


def _created(r: _Replayed, p: Mapping[str, Any]) -> None:
    r.add(p["data"])


REPLAY: dict[str, Callable[[_Replayed, Mapping[str, Any]], None]] = {
    "unit_disbanded": _removed, "caravan_disbanded": _removed, "unit_starved": _removed,
    "unit_destroyed": _removed, "unit_slain": _removed, "unit_dismissed": _removed,
    "spell_healed": _spell_healed,
    "spell_cast": _set(_player, "gems"),
    "caravan_rotted": _set(_caravan, "durability"),
    "caravan_lost_resource": _set(_caravan, "resources"),
    "caravan_repaired": _set(_caravan, "durability"),
    "upkeep_charged": _set(_player, "resources"),
    "resources_gained": _set(_player, "resources"),
    "gems_gained": _set(_player, "gems"),
    "unit_commissioned": _paid,
    "unit_damaged": _set(_unit, "hit_points"),
    "melee_damage": _set(_unit, "hit_points"),
    "unit_healed": _set(_unit, "hit_points"),
    "caravan_loaded": _caravan_trade, "caravan_unloaded": _caravan_trade,
    "unit_moved": _moved, "predator_moved": _moved, "unit_ejected": _moved,
    "unit_shunted": _moved,
    "war_declared": lambda r, p: r.war(p["players"]),
    "melee_declares_war": lambda r, p: r.war(p["players"]),
    "unit_created": _created, "bandit_spawned": _created, "bandit_spawned_adjacent": _created,
    "excess_donated": _set(_stronghold, "resources"),
    "income_generated": _set(_stronghold, "resources"),
    "unit_levelled": _levelled,
    "unit_changed_sides": lambda r, p: r.units[p["unit"]].__setitem__("owner", p["to"]),
}


def replay(state: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Json:
    """The state ``events`` (a trace, as JSON: ``kind`` and ``params`` each) lead to from
    ``state`` (JSON); the request's state is not touched. An event with an ``rng`` param
    drew from the seed and carries the advanced seed."""
    replayed = _Replayed(copy.deepcopy(dict(state)))
    replayed.state.setdefault("strongholds", [])
    for event in events:
        params = event["params"]
        step = REPLAY.get(event["kind"])
        if step is not None:
            step(replayed, params)
        if "rng" in params:
            replayed.state["rng"] = params["rng"]
    out = replayed.state
    out["units"] = list(replayed.units.values())
    return out


def hex_param(h: Hex) -> dict[str, int]:
    """A hex as an event or result param."""
    return as_dict(h)

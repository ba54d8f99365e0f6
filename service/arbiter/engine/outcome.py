"""What a ruleset answers: an ``Outcome`` made of ``Violation``s and ``Event``s, each
citing a rule id, each with an English message made from a template and the params
that fill it (so a frontend can render the same sentence in its own language).

``Verdict`` is the collector a ruleset fills while it judges an action: it finds every
violation, not just the first, and looks up each code's rule and template in the
ruleset's catalogue, so a check cannot cite a rule the catalogue does not list.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field

from arbiter.engine.catalogue import Catalogue
from arbiter.engine.hexgrid import Axial, Hex

Mode = Literal["strict", "advisory"]


class Location(BaseModel):
    """Where something happens: the step of a multi-step action, and the hex, region or
    piece involved. Every field is optional; only the relevant ones are set."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: int | None = Field(
        default=None, description="The 0-based index of the step in the action (in a plan, "
        "its position in the list of steps: 0 is the first step).")
    hex: Axial | None = None
    region: str | None = None
    piece: str | None = None


class Violation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str
    rule: str
    message: str
    params: dict[str, Any] = Field(default_factory=dict)
    at: Location = Field(default_factory=Location)
    severity: Literal["error", "warning"] = Field(
        default="error",
        description="'warning' when advisory mode applied the action anyway.",
    )


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    rule: str
    message: str
    params: dict[str, Any] = Field(default_factory=dict)
    at: Location = Field(default_factory=Location)


class Outcome(BaseModel):
    """What judging one action found. An illegal action is a verdict, not an error."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ruleset: str
    ruleset_version: str
    legal: bool
    applied: bool = Field(
        description="True when ``state`` holds the result: always for a legal action, and "
        "for an illegal one in advisory mode when its effect is well defined."
    )
    violations: list[Violation] = Field(default_factory=list)
    state: dict[str, Any] | None = None
    events: list[Event] = Field(default_factory=list)
    derived: dict[str, Any] = Field(default_factory=dict)
    reversible: bool = True
    state_hash: str | None = None


# Message params are nearly always plain already (a name, a number, a ``{"q", "r"}`` map):
# ``_fmt`` and ``_plain`` answer those by their exact type first, as the checks against
# ``BaseModel`` and the ``Mapping`` ABC cost more than the rest of building a message.
# Every other value (a subclass, a model, a tuple) takes the general path below them.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _fmt(value: Any) -> str:
    kind = type(value)
    if kind in _SCALARS:
        return str(value)
    if kind is dict:
        if value.keys() == {"q", "r"}:
            return f"({value['q']},{value['r']})"
        return ", ".join(f"{v} {k}" for k, v in value.items())
    if kind is list:
        return ", ".join(_fmt(v) for v in value)
    if isinstance(value, Mapping) and set(value) == {"q", "r"}:
        return f"({value['q']},{value['r']})"
    if isinstance(value, Axial):
        return f"({value.q},{value.r})"
    if isinstance(value, (list, tuple)):
        return ", ".join(_fmt(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{v} {k}" for k, v in value.items())
    return str(value)


def render(template: str, params: Mapping[str, Any]) -> str:
    """Fill a message template; hexes print as ``(q,r)``, unit counts as ``2 archers``."""
    return template.format_map({k: _fmt(v) for k, v in params.items()})


def _plain(value: Any) -> Any:
    """A message param as JSON: models dumped, tuples as lists, map keys as strings. A
    ruleset passes hexes as ``{"q", "r"}`` maps (``hexgrid.as_dict``) or ``Axial``."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {str(k): _plain(v) for k, v in value.items()}
    if kind is list:
        return [_plain(v) for v in value]
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def location(step: int | None = None, hex: Hex | None = None,
             region: str | None = None, piece: str | None = None) -> Location:
    # The hex goes in as a map, validated into its ``Axial`` by the one validation of the
    # location (building the ``Axial`` first validated twice: a third of an event's cost).
    return Location(step=step, hex={"q": hex[0], "r": hex[1]} if hex is not None else None,
                    region=region, piece=piece)


class Verdict:
    """Collects every violation and event of one action against a ruleset's catalogue."""

    def __init__(self, catalogue: Catalogue) -> None:
        self._codes = catalogue.codes
        self._events = catalogue.events
        self.violations: list[Violation] = []
        self.events: list[Event] = []
        # False once a violation makes the action's effect undefined (advisory mode
        # cannot apply it then).
        self.applicable = True
        # How many violations were found before the judge read a draw (a tile flipped, a
        # die rolled); None while it has read none. What a game keeps face down is
        # judged after this mark, so the violations before it are those a player can know
        # of without seeing the draw (``before_the_draw``).
        self.drawn: int | None = None

    @property
    def legal(self) -> bool:
        return not self.violations

    def draw(self) -> None:
        """The judge reads a draw from here on: the violations found after this depend on
        what was drawn. Marked once, where the first draw is read."""
        if self.drawn is None:
            self.drawn = len(self.violations)

    @property
    def before_the_draw(self) -> list[Violation]:
        """The violations a player who has not seen the draw can know of: those found
        before it was read (all of them when the action reads none)."""
        return self.violations if self.drawn is None else self.violations[:self.drawn]

    def violate(self, code: str, at: Location | None = None, *, fatal: bool = False,
                **params: Any) -> None:
        ref = self._codes[code]
        plain = {k: _plain(v) for k, v in params.items()}
        self.violations.append(Violation(code=code, rule=ref.rule,
                                         message=render(ref.template, plain),
                                         params=plain, at=at or Location()))
        if fatal:
            self.applicable = False

    def event(self, kind: str, at: Location | None = None, **params: Any) -> None:
        ref = self._events[kind]
        plain = {k: _plain(v) for k, v in params.items()}
        self.events.append(Event(kind=kind, rule=ref.rule, message=render(ref.template, plain),
                                 params=plain, at=at or Location()))


def state_hash(state: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of a state (sorted keys, no spaces)."""
    return hashlib.sha256(orjson.dumps(state, option=orjson.OPT_SORT_KEYS)).hexdigest()

"""A ruleset's catalogue as data: its rule ids with one-line paraphrases, every violation
code with the rule it enforces and its English template, every event kind, and the
game's fixed data (unit types, dice, markers) shown in ``GET /v1/rulesets/{id}``.

``build_catalogue`` is the one way a ruleset declares it: codes and events name the
section of the rule they cite (``"movement.1"``), the builder makes the full rule id
(``hex_maneuver/movement.1``) and refuses, at import time, a code that cites a rule the
catalogue does not list or a name declared twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class RuleRef:
    """One rule of a ruleset: its id (``hex_maneuver/maneuver.2``) and a one-line paraphrase."""

    id: str
    paraphrase: str


@dataclass(frozen=True, slots=True)
class CodeRef:
    """A violation code, the rule it enforces and the English template of its message."""

    code: str
    rule: str
    template: str


@dataclass(frozen=True, slots=True)
class EventRef:
    """An event kind, the rule that makes it happen and the English template of its message."""

    kind: str
    rule: str
    template: str


@dataclass(frozen=True, slots=True)
class Catalogue:
    ruleset: str
    version: str
    title: str
    rules: tuple[RuleRef, ...]
    codes: Mapping[str, CodeRef]
    events: Mapping[str, EventRef]
    data: Mapping[str, Any] = field(default_factory=dict)

    def rule(self, section: str) -> str:
        """The full id of one of this catalogue's rules."""
        rule_id = f"{self.ruleset}/{section}"
        if rule_id not in {r.id for r in self.rules}:
            raise KeyError(rule_id)
        return rule_id


def build_catalogue(ruleset: str, version: str, title: str, *,
                    rules: Iterable[tuple[str, str]],
                    codes: Iterable[tuple[str, str, str]],
                    events: Iterable[tuple[str, str, str]],
                    data: Mapping[str, Any] | None = None) -> Catalogue:
    """``rules``: (section, paraphrase); ``codes``: (code, section, template); ``events``:
    (kind, section, template). Raises ValueError on a duplicate or an unknown section."""
    rule_refs = tuple(RuleRef(f"{ruleset}/{section}", paraphrase) for section, paraphrase in rules)
    rule_ids = {r.id for r in rule_refs}
    if len(rule_ids) != len(rule_refs):
        raise ValueError(f"{ruleset}: a rule id is listed twice")

    def cited(name: str, section: str) -> str:
        rule_id = f"{ruleset}/{section}"
        if rule_id not in rule_ids:
            raise ValueError(f"{ruleset}: {name} cites unknown rule {rule_id}")
        return rule_id

    code_refs: dict[str, CodeRef] = {}
    for code, section, template in codes:
        if code in code_refs:
            raise ValueError(f"{ruleset}: code {code} is declared twice")
        code_refs[code] = CodeRef(code, cited(code, section), template)
    event_refs: dict[str, EventRef] = {}
    for kind, section, template in events:
        if kind in event_refs:
            raise ValueError(f"{ruleset}: event {kind} is declared twice")
        event_refs[kind] = EventRef(kind, cited(kind, section), template)
    return Catalogue(ruleset=ruleset, version=version, title=title, rules=rule_refs,
                     codes=code_refs, events=event_refs, data=dict(data or {}))

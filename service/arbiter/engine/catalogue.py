"""A ruleset's catalogue as data: its rule ids with one-line paraphrases, every violation
code with the rule it enforces, its English template and the types of its params, every
event kind likewise, and the game's fixed data (unit types, dice, markers) shown in
``GET /v1/rulesets/{id}``.

``build_catalogue`` is the one way a ruleset declares it: codes and events name the
section of the rule they cite (``"movement.1"``), the builder makes the full rule id
(``hex_maneuver/movement.1``) and refuses, at import time, a code that cites a rule the
catalogue does not list, a name declared twice, or a param without a type.

Params are typed so a client can generate types for them (GraphQL answers them as an
object type per code, OpenAPI describes them per code): a ruleset names the type of each
placeholder word once (``param_types``: ``{"hex": Axial, "cost": int}``), and an entry
adds the facts its params carry beyond its template, or a type of its own for a word
(``("stranded_at_sea", "ferry.1", "...{units}...", {"units": dict[str, int]})``). A fact
that only some of an entry's messages carry is ``NotRequired[...]``. The engine never
validates params while judging (the hot path builds dicts); ``params_model`` is for
typing, documentation and the test that every emitted param matches its declaration
(tests/contract/test_catalogue_params.py).
"""

from __future__ import annotations

import keyword
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, create_model

# A param's name -> its type (an annotation pydantic validates: int, str, list[str],
# Axial, dict[str, int] for a map of counts, a model, ``NotRequired[int]``).
ParamTypes = Mapping[str, Any]
Entry = tuple[str, str, str] | tuple[str, str, str, ParamTypes]
Said = Literal["violation", "event"]
# ``NotRequired`` as a value to compare origins with (mypy reads the form as a type).
_NOT_REQUIRED: Any = NotRequired


@dataclass(frozen=True, slots=True)
class RuleRef:
    """One rule of a ruleset: its id (``hex_maneuver/maneuver.2``) and a one-line paraphrase."""

    id: str
    paraphrase: str


@dataclass(frozen=True, slots=True)
class CodeRef:
    """A violation code, the rule it enforces, the English template of its message and the
    type of each of its params (the template's placeholders and any further facts)."""

    code: str
    rule: str
    template: str
    params: ParamTypes = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EventRef:
    """An event kind, the rule that makes it happen, the English template of its message
    and the type of each of its params."""

    kind: str
    rule: str
    template: str
    params: ParamTypes = field(default_factory=dict)


@dataclass(frozen=True)
class Catalogue:
    ruleset: str
    version: str
    title: str
    rules: tuple[RuleRef, ...]
    codes: Mapping[str, CodeRef]
    events: Mapping[str, EventRef]
    data: Mapping[str, Any] = field(default_factory=dict)
    # The params models made so far (``params_model``), by (violation|event, name).
    _models: dict[tuple[Said, str], type[BaseModel]] = field(
        default_factory=dict, compare=False, repr=False)

    def rule(self, section: str) -> str:
        """The full id of one of this catalogue's rules."""
        rule_id = f"{self.ruleset}/{section}"
        if rule_id not in {r.id for r in self.rules}:
            raise KeyError(rule_id)
        return rule_id

    def params_model(self, said: Said, name: str) -> type[BaseModel]:
        """The pydantic model of a code's (``violation``) or an event kind's params, named
        ``HexManeuverOverMovementPointsViolationParams``: strict, every declared param
        required (but ``NotRequired`` facts), nothing else allowed. Made on first use."""
        key = (said, name)
        made = self._models.get(key)
        if made is None:
            ref = self.codes[name] if said == "violation" else self.events[name]
            made = self._models[key] = params_model_of(
                f"{_pascal(self.ruleset)}{_pascal(name)}{said.capitalize()}Params",
                ref.params, f"The params of {self.ruleset}'s {said} {name}: "
                f"\"{ref.template}\"")
        return made


@dataclass(frozen=True)
class TypedParams:
    """Marks a model's ``params: dict[str, Any]`` field (``Annotated[..., TypedParams(...)]``)
    whose shape its ``tag`` field's code decides, as a violation's code decides its params
    (phased_orders' order results): ``models`` gives the params model of each code. The
    engine builds and dumps the dict; GraphQL answers it as the union ``union``."""

    union: str
    tag: str
    models: Callable[[], Mapping[str, type[BaseModel]]]


def placeholders(template: str) -> list[str]:
    """The words a template's ``{...}`` fill, in order, each once."""
    out: list[str] = []
    for _, name, _, _ in string.Formatter().parse(template):
        if name and name not in out:
            out.append(name)
    return out


def _pascal(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def params_model_of(name: str, params: ParamTypes, doc: str) -> type[BaseModel]:
    """The strict model of params declared as ``params`` (``Catalogue.params_model``)."""
    fields: dict[str, Any] = {}
    for param, tp in params.items():
        optional = get_origin(tp) is _NOT_REQUIRED
        inner = get_args(tp)[0] if optional else tp
        # A Python keyword (``from``) is the field ``from_``, read and written as ``from``.
        attr = f"{param}_" if keyword.iskeyword(param) else param
        fields[attr] = ((inner | None) if optional else inner,
                        Field(default=None if optional else ..., alias=param))
    model: type[BaseModel] = create_model(
        name, __config__=ConfigDict(strict=True, extra="forbid", frozen=True,
                                    populate_by_name=True), __doc__=doc, **fields)
    return model


def build_catalogue(ruleset: str, version: str, title: str, *,
                    rules: Iterable[tuple[str, str]],
                    codes: Iterable[Entry],
                    events: Iterable[Entry],
                    param_types: ParamTypes | None = None,
                    data: Mapping[str, Any] | None = None) -> Catalogue:
    """``rules``: (section, paraphrase); ``codes``: (code, section, template[, params]);
    ``events``: (kind, section, template[, params]); ``param_types``: the type of each
    placeholder word, shared by every template. An entry's params are its placeholders,
    typed by its own ``params`` or else by ``param_types``, and the further facts its own
    ``params`` declare. Raises ValueError on a duplicate, an unknown section, a
    placeholder without a type or a ``param_types`` word no template uses."""
    rule_refs = tuple(RuleRef(f"{ruleset}/{section}", paraphrase) for section, paraphrase in rules)
    rule_ids = {r.id for r in rule_refs}
    if len(rule_ids) != len(rule_refs):
        raise ValueError(f"{ruleset}: a rule id is listed twice")
    shared = dict(param_types or {})
    used: set[str] = set()

    def cited(name: str, section: str) -> str:
        rule_id = f"{ruleset}/{section}"
        if rule_id not in rule_ids:
            raise ValueError(f"{ruleset}: {name} cites unknown rule {rule_id}")
        return rule_id

    def typed(name: str, template: str, own: ParamTypes) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for word in placeholders(template):
            if word not in own and word not in shared:
                raise ValueError(f"{ruleset}: {name}'s param {word} has no type")
            out[word] = own.get(word, shared.get(word))
            used.add(word)
        return out | dict(own)

    code_refs: dict[str, CodeRef] = {}
    for code, section, template, *own in codes:
        if code in code_refs:
            raise ValueError(f"{ruleset}: code {code} is declared twice")
        code_refs[code] = CodeRef(code, cited(code, section), template,
                                  typed(code, template, own[0] if own else {}))
    event_refs: dict[str, EventRef] = {}
    for kind, section, template, *own in events:
        if kind in event_refs:
            raise ValueError(f"{ruleset}: event {kind} is declared twice")
        event_refs[kind] = EventRef(kind, cited(kind, section), template,
                                    typed(kind, template, own[0] if own else {}))
    unused = sorted(set(shared) - used)
    if unused:
        raise ValueError(f"{ruleset}: param_types {unused} fill no template")
    return Catalogue(ruleset=ruleset, version=version, title=title, rules=rule_refs,
                     codes=code_refs, events=event_refs, data=dict(data or {}))

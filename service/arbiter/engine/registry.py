"""The Ruleset protocol and the registry of rulesets.

A ruleset is a pure object: pydantic models for its state, actions and options, a
catalogue of rule ids, violation codes and event kinds, ``validate`` and a set of named
derived queries. The transport discovers everything it serves from here, so adding a
ruleset never touches the API code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.outcome import CodeRef, EventRef, Mode, Outcome, RuleRef


@dataclass(frozen=True, slots=True)
class Query:
    """A derived question a ruleset answers, served at ``POST /v1/rulesets/{id}/{name}``.

    ``request`` is the whole body model (it has a ``state`` field); ``run`` takes the
    validated request and returns an instance of ``response``. ``run`` must be a pure
    function of the request: the transport caches its answers by a digest of the request.
    """

    name: str
    summary: str
    request: type[BaseModel]
    response: type[BaseModel]
    run: Callable[[Any], BaseModel]
    examples: Sequence[Mapping[str, Any]] = field(default_factory=tuple)


@runtime_checkable
class Ruleset(Protocol):
    id: str
    version: str
    title: str
    rules: Sequence[RuleRef]
    codes: Mapping[str, CodeRef]
    event_kinds: Mapping[str, EventRef]
    state_model: type[BaseModel]
    action_model: type[BaseModel]
    options_model: type[BaseModel]
    action_types: Sequence[str]
    catalogues: Mapping[str, Any]
    queries: Mapping[str, Query]
    examples: Mapping[str, Any]

    def validate(self, state: Any, action: Any, mode: Mode = "strict") -> Outcome: ...


def describe(ruleset: Ruleset) -> dict[str, Any]:
    """What ``GET /v1/rulesets/{id}`` shows: every rule with its paraphrase, every
    violation code with its rule and template, event kinds, options and catalogues."""
    return {
        "id": ruleset.id,
        "version": ruleset.version,
        "title": ruleset.title,
        "action_types": list(ruleset.action_types),
        "queries": sorted(ruleset.queries),
        "rules": [{"id": r.id, "paraphrase": r.paraphrase} for r in ruleset.rules],
        "violation_codes": [
            {"code": c.code, "rule": c.rule, "template": c.template} for c in ruleset.codes.values()
        ],
        "event_kinds": [
            {"kind": e.kind, "rule": e.rule, "template": e.template}
            for e in ruleset.event_kinds.values()
        ],
        "options": ruleset.options_model.model_json_schema(),
        "catalogues": dict(ruleset.catalogues),
    }


def check_catalogue(ruleset: Ruleset) -> None:
    """Every code and event cites a rule the ruleset lists (run at registration)."""
    rule_ids = {r.id for r in ruleset.rules}
    for ref in list(ruleset.codes.values()) + list(ruleset.event_kinds.values()):
        if ref.rule not in rule_ids:
            raise ValueError(f"{ruleset.id}: {ref} cites unknown rule {ref.rule}")


class Registry:
    def __init__(self) -> None:
        self._rulesets: dict[str, Ruleset] = {}

    def register(self, ruleset: Ruleset) -> None:
        check_catalogue(ruleset)
        self._rulesets[ruleset.id] = ruleset

    def get(self, ruleset_id: str) -> Ruleset | None:
        return self._rulesets.get(ruleset_id)

    def __iter__(self) -> Any:
        return iter(sorted(self._rulesets.values(), key=lambda r: r.id))

    def ids(self) -> list[str]:
        return sorted(self._rulesets)


def _reroot(exc: InvalidInput, index: int) -> InvalidInput:
    """A problem found in one action of a batch points at ``/actions/<i>``."""
    problems = []
    for p in exc.problems:
        ptr = p.pointer
        if ptr == "/action" or ptr.startswith("/action/"):
            ptr = f"/actions/{index}" + ptr[len("/action"):]
        problems.append(Problem(ptr, p.detail))
    return InvalidInput(problems)


def validate_batch(ruleset: Ruleset, state: Any, actions: Sequence[Any], *, sequence: bool,
                   mode: Mode = "strict") -> list[Outcome]:
    """Each action alone against ``state``, or the actions in order, each against the
    state the previous one produced. A sequence stops after the first action that
    could not be applied: later actions have no defined state to be judged against."""
    outcomes: list[Outcome] = []
    current = state
    for i, action in enumerate(actions):
        try:
            outcome = ruleset.validate(current, action, mode)
        except InvalidInput as exc:
            raise _reroot(exc, i) from None
        outcomes.append(outcome)
        if sequence:
            nxt = outcome.next_state()
            if nxt is None:
                break
            current = nxt
    return outcomes

"""The answers about rulesets rather than about a game: ``GET /v1/rulesets`` (the list),
``GET /v1/rulesets/{id}`` (one ruleset's catalogue) and the board routes' receipt, as
models the answers are written through and the OpenAPI document describes, so a
generated client gets types for them too. ``contract`` makes the per-ruleset forms whose
violation codes and event kinds are enums."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from arbiter.engine.registry import Registry


class Answer(BaseModel):
    """An answer the service writes: immutable, and exactly these keys."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class RulesetSummary(Answer):
    """One ruleset, as the list shows it."""

    id: str = Field(description="The id in every path: /v1/rulesets/{id}/...")
    version: str
    title: str
    action_types: list[str] = Field(description="The `type` tags its actions take.")
    queries: list[str] = Field(description="The derived queries it answers, each at "
                               "POST /v1/rulesets/{id}/{query}.")
    rules: list[str] = Field(description="Its rule ids (ruleset/section.n).")
    href: str = Field(description="Where its catalogue is: GET /v1/rulesets/{id}.")


class RulesetList(Answer):
    """Every ruleset this service judges."""

    rulesets: list[RulesetSummary]


class RuleEntry(Answer):
    id: str = Field(description="The rule id a violation or event cites.")
    paraphrase: str = Field(description="The rule in one line.")


class CodeEntry(Answer):
    code: str
    rule: str = Field(description="The id of the rule the code enforces.")
    template: str = Field(description="The English message, with {params} to fill.")


class EventEntry(Answer):
    kind: str
    rule: str = Field(description="The id of the rule that makes the event happen.")
    template: str = Field(description="The English message, with {params} to fill.")


class SchemaLinks(Answer):
    state: str = Field(description="The state's JSON Schema.")
    action: str = Field(description="The action's JSON Schema.")


class RulesetDescription(Answer):
    """A ruleset's catalogue: every rule with its paraphrase, every violation code and
    event kind with its rule and template, its options and its fixed game data."""

    id: str
    version: str
    title: str
    action_types: list[str]
    queries: list[str]
    rules: list[RuleEntry]
    violation_codes: list[CodeEntry]
    event_kinds: list[EventEntry]
    options: dict[str, Any] = Field(description="The JSON Schema of the ruleset's options.")
    catalogues: dict[str, Any] = Field(description="The game's fixed data: unit types, "
                                       "dice, markers, as the ruleset lists them.")
    schemas: SchemaLinks


class BoardStored(Answer):
    """A board this service holds: send `"board": "<id>"` in a state in place of the
    fields listed."""

    board: str = Field(description="The board's id (sha256:...).")
    fields: list[str] = Field(description="The state fields the board stands for.")


def ruleset_list(registry: Registry) -> RulesetList:
    """What ``GET /v1/rulesets`` answers."""
    return RulesetList(rulesets=[RulesetSummary(
        id=r.id, version=r.version, title=r.title, action_types=list(r.action_types),
        queries=sorted(r.queries), rules=[rule.id for rule in r.rules],
        href=f"/v1/rulesets/{r.id}") for r in registry])


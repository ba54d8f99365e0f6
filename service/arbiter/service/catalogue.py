"""The answers about rulesets rather than about a game: ``GET /v1/rulesets`` (the list),
``GET /v1/rulesets/{id}`` (one ruleset's catalogue) and the board routes' receipt, as
models the answers are written through and the OpenAPI document describes, so a
generated client gets types for them too. ``contract`` makes the per-ruleset forms whose
violation codes and event kinds are enums."""

from __future__ import annotations

from typing import Any, Literal

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


class HiddenEntry(Answer):
    pointer: str = Field(description="The JSON pointer of the state field nobody may read.")
    holds: str = Field(description="What it holds, in the game's words.")
    revealed: str = Field(description="What of it the rules reveal, and when.")
    rules: list[str] = Field(description="The ids of the rules that reveal it.")
    shuffled: bool = Field(description="Shuffled by the service when a sealed game starts.")


class PrivateEntry(Answer):
    action: str = Field(description="The action type a player gives it in, sealed as an "
                        "envelope only the service opens.")
    holds: str = Field(description="What it holds, in the game's words.")
    revealed: str = Field(description="When the rules reveal it.")
    into: str = Field(description="What reveals it: the action type (and the query of the "
                      "same name) that takes the envelopes of every player.")
    rules: list[str] = Field(description="The ids of the rules that reveal it.")


class InformationEntry(Answer):
    """A ruleset's information structure: what its states hide and how chance enters.
    With ARBITER_STATE_KEYS set, the hidden fields of the states the service issues
    travel sealed."""

    perfect: bool = Field(description="Every player may see the whole state.")
    chance: Literal["none", "seeded", "seeded or reported"] = Field(description=(
        "How randomness enters: none; drawn by the service from the state's seed; or "
        "that, and in table mode reported by the actions."))
    hidden: list[HiddenEntry]
    private: list[PrivateEntry]


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
    information: InformationEntry
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


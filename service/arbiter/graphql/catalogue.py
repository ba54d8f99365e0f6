"""The answers about rulesets rather than about a game, as GraphQL asks for them:
``rulesets`` (the list) and each ruleset's catalogue (``hexManeuverCatalogue``), the same
answer as ``GET /v1/rulesets/{id}`` (``service.contract.description``): every rule with
its paraphrase, every violation code and event kind with its rule and template (codes
and kinds as the ruleset's enums, the ones its outcomes use), its options, its fixed game
data and the links to its JSON Schemas. Typed where REST's model is; the two fields
whose shape REST leaves open stay ``JSON``: ``options`` is a JSON Schema, ``catalogues``
each ruleset's own data (phased_orders' phases and decision kinds, hex_maneuver's unit
types)."""

from __future__ import annotations

import strawberry
from pydantic import BaseModel
from strawberry.types.field import StrawberryField

from arbiter.engine.registry import AnyRuleset, Registry
from arbiter.graphql.fields import field, root_name
from arbiter.graphql.types import TypeMaker
from arbiter.service.contract import contract, description


@strawberry.type(description="One rule of a ruleset: its id and a one-line paraphrase.")
class Rule:
    id: str
    paraphrase: str


@strawberry.type(description="A ruleset this service judges: its id, version, actions, "
                 "queries and rules.")
class RulesetSummary:
    id: str
    version: str
    title: str
    action_types: list[str]
    queries: list[str]
    rules: list[Rule]


def ruleset_list(registry: Registry) -> StrawberryField:
    """``rulesets``: every ruleset this service judges (``GET /v1/rulesets``)."""

    def rulesets() -> list[RulesetSummary]:
        return [RulesetSummary(id=r.id, version=r.version, title=r.title,
                               action_types=list(r.action_types), queries=sorted(r.queries),
                               rules=[Rule(id=x.id, paraphrase=x.paraphrase) for x in r.rules])
                for r in registry]

    return field("rulesets", rulesets, list[RulesetSummary],
                 "The rulesets this service judges.", [])


def catalogue_field(ruleset: AnyRuleset, maker: TypeMaker) -> StrawberryField:
    """``<ruleset>Catalogue``: the ruleset's catalogue as ``GET /v1/rulesets/{id}``
    answers it, typed as its description model (``<Ruleset>Description``). Made after the
    ruleset's questions, whose enums of codes and kinds it shares."""
    answer = maker.object(contract(ruleset).description, input=False,
                          overrides={"rules": list[Rule]})

    def describe() -> BaseModel:
        return description(ruleset)

    return field(root_name(ruleset.id, "catalogue"), describe, answer,
                 f"{ruleset.title} (v{ruleset.version}): its catalogue, as GET /v1/rulesets/"
                 f"{ruleset.id} answers it: every rule with its paraphrase, every violation "
                 "code and event kind with its rule and message template, its options (a "
                 "JSON Schema), its fixed game data and its JSON Schemas' links.", [])

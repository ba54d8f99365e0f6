"""GraphQL in process: the state as the pydantic-validated scalar (what Arbiter serves)
against the same state as a fully typed GraphQL input, for one question, with strawberry's
parser and validation caches on both."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import strawberry
from strawberry.extensions import ParserCache, ValidationCache
from strawberry.tools import create_type
from tests.bench import boards_hex_maneuver as hexes

from arbiter.graphql.fields import argument, field
from arbiter.graphql.schema import Asked, SchemaBuilder
from arbiter.graphql.served import SERVED, Served
from arbiter.graphql.types import plain, to_graphql
from arbiter.rulesets import builtin_registry
from arbiter.rulesets.hex_maneuver.models import HexManeuverAction, HexManeuverState
from arbiter.service.configured import configured
from arbiter.service.opened import Opened
from arbiter.settings import Settings

QUESTION = ("validate(action: $move) { legal stateHash violations { code } }")


def build() -> Any:
    registry = builtin_registry("hex_maneuver")
    ruleset = registry.get("hex_maneuver")
    assert ruleset is not None
    builder = SchemaBuilder(registry, Settings().public_url)
    questions, scalar = builder.questions(ruleset)
    typed = builder.maker.object(HexManeuverState, input=True)

    def by_scalar(state: Any) -> Asked:
        return Asked(Opened(ruleset, ruleset.state_model.model_validate(state)))

    def by_type(state: Any) -> Asked:
        return Asked(Opened(ruleset, ruleset.state_model.model_validate(
            plain(state, builder.maker))))

    query = create_type("Query", [
        field("scalar_state", by_scalar, questions, "", [argument("state", scalar)]),
        field("typed_state", by_type, questions, "", [argument("state", typed)])])
    return strawberry.Schema(query=query, extensions=[ParserCache(), ValidationCache()])


def run(quick: bool) -> list[dict[str, Any]]:
    schema = build()
    context = {SERVED: Served.from_settings(Settings(), configured(Settings()))}
    body = hexes.validate_body(10)
    move = to_graphql(HexManeuverAction, body["action"])
    scalar_q = ("query($state: HexManeuverState!, $move: HexManeuverActionInput!) "
                "{ scalarState(state: $state) { " + QUESTION + " } }")
    typed_q = ("query($state: HexManeuverStateInput!, $move: HexManeuverActionInput!) "
               "{ typedState(state: $state) { " + QUESTION + " } }")
    typed_state = to_graphql(HexManeuverState, body["state"])
    runs = 20 if quick else 200

    async def measure(query: str, state: Any) -> float:
        result = await schema.execute(query, variable_values={"state": state, "move": move},
                                      context_value=context)
        assert result.errors is None, result.errors
        assert result.data is not None
        samples = []
        for _ in range(runs):
            t = time.perf_counter()
            await schema.execute(query, variable_values={"state": state, "move": move},
                                 context_value=context)
            samples.append(time.perf_counter() - t)
        samples.sort()
        return samples[len(samples) // 2]

    scalar_s = asyncio.run(measure(scalar_q, body["state"]))
    typed_s = asyncio.run(measure(typed_q, typed_state))
    return [{"what": "GraphQL in process, state as validated scalar (331 hexes)",
             "median_us": round(scalar_s * 1e6, 1)},
            {"what": "GraphQL in process, state as typed input (331 hexes)",
             "median_us": round(typed_s * 1e6, 1), "vs_scalar": round(typed_s / scalar_s, 2)}]

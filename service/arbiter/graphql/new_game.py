"""A game's first state over GraphQL: ``hexManeuverNewGame(state)``, the answer of
``POST /v1/rulesets/{id}/new-game`` (``Service.new_game``): the setup sent, checked as
every state is, with a seed the service draws when the state has one, signed when the
service signs states.

It is a Mutation, not a Query, because it is no read: every call draws a new seed from
the operating system, so the same request never gives the same answer, and a signed
first state is something the service issues. A Query's answer may be cached or
deduplicated by the clients and gateways between a game server and the service (a
normalised cache answers a repeated query with the same variables from memory): two
games would then share one seed, which is the draw a signed game exists to keep out of
a client's hands. Mutations are never answered from such caches, run one after another
when a request holds several, and are the operation type a gateway can keep for the game
server alone (docs/signing.md: only the game server should reach new-game).
"""

from __future__ import annotations

from typing import Any

from strawberry import Info
from strawberry.types.field import StrawberryField

from arbiter.engine.registry import AnyRuleset
from arbiter.graphql.errors import answered
from arbiter.graphql.fields import argument, body, field, root_name
from arbiter.graphql.paths import Where, camel
from arbiter.graphql.served import service_of
from arbiter.graphql.types import TypeMaker
from arbiter.service.contract import NewGame
from arbiter.service.contract import camel as pascal


def new_game_field(ruleset: AnyRuleset, maker: TypeMaker, state_type: Any) -> StrawberryField:
    """``<ruleset>NewGame(state)``: the Mutation field of ``ruleset``'s new-game, its
    answer typed ``<Ruleset>NewGame`` as OpenAPI names REST's, the state its scalar."""
    name = root_name(ruleset.id, "new_game")
    answer = maker.object(NewGame, input=False, name=f"{pascal(ruleset.id)}NewGame",
                          overrides={"state": state_type})

    async def start(info: Info, state: Any) -> NewGame:
        where = Where(camel(name), {"state": state}, maker)
        # Whether the request carries an issuer key, as the HTTP gate found it from the
        # headers (http.scope.is_issuer reads the same state).
        issuer = bool(getattr(info.context["request"].state, "issuer", False))
        service = service_of(info.context)
        written = await answered(service.new_game(ruleset, body({"state": state}),
                                                  issuer=issuer), where)
        return NewGame.model_validate_json(written)

    return field(name, start, answer,
                 f"A {ruleset.id} game's first state, from the setup sent (checked as "
                 "every state is), with a seed the service draws in place of the state's "
                 "rng when it has one (a digital-mode game; none: table mode), signed when "
                 "the service signs states: send the signature beside the state with the "
                 "game's first question. A Mutation: each call draws a new seed. Only a "
                 "key of ARBITER_ISSUER_KEYS may ask it when those are set or states are "
                 "signed (`FORBIDDEN` otherwise).",
                 [argument("state", state_type)])

"""Sealed orders for a simultaneous turn (the ruleset's ``Information.private``): a player
hands their orders to the service, which checks them as given alone and seals them as an
envelope for that player and that state; whoever relays the envelopes (the other players,
a game server, a play-by-email host) cannot read them, and the turn is resolved from the
envelopes of every player, opened only by the service and only for the turn they were
made for.

An envelope is ``{"player": "red", "sealed": "sealed:v1:…"}``. Its seal holds the
player's action as JSON and is bound to the ruleset, the player and the state it was made
for (the sha256 of that state's canonical JSON, the whole state with its hidden fields
open, however it travels): given for another player (two envelopes swapped), for another
state (a later turn: a replay) or edited, it does not open, and the refusal points at it.
The one who sealed it gets a receipt beside it, which the service asks for before it opens
an envelope for its own player to read (``unseal``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError

from arbiter.engine.errors import Problem
from arbiter.engine.information import Private
from arbiter.engine.registry import AnyRuleset
from arbiter.service.contract import Envelope
from arbiter.service.problems import Malformed, SignatureRefused
from arbiter.service.sealing import Sealer


def private_of(ruleset: AnyRuleset) -> Private | None:
    """What a player of ``ruleset`` gives in secret (the five rulesets: one kind at most)."""
    private = ruleset.information.private
    return private[0] if private else None


class Envelopes:
    def __init__(self, sealer: Sealer) -> None:
        self.sealer = sealer

    def seal(self, ruleset: AnyRuleset, state_hash: str, player: str, action: BaseModel
             ) -> tuple[Envelope, str]:
        """``action`` (``player``'s, for the state whose canonical hash is ``state_hash``)
        as an envelope, and its receipt."""
        if not self.sealer.on:
            raise SignatureRefused("this service seals nothing (ARBITER_STATE_KEYS is unset): "
                                   "give the orders in the clear", "/action")
        token = self.sealer.seal(ruleset.id, _holds(player), state_hash.encode(),
                                 orjson.dumps(action.model_dump(mode="json")))
        return Envelope(player=player, sealed=token), self.sealer.receipt(token)

    def open(self, ruleset: AnyRuleset, state_hash: str, envelope: Envelope, at: str) -> Any:
        """The action an envelope holds, or ``SignatureRefused`` at ``at``/sealed."""
        plain = self.sealer.open(envelope.sealed, ruleset.id, _holds(envelope.player),
                                 state_hash.encode(), f"{at}/sealed",
                                 f"the envelope of {envelope.player}")
        try:
            return ruleset.parse_action(orjson.loads(plain))
        except ValidationError:  # sealed by an older version of the ruleset
            raise SignatureRefused(f"the envelope of {envelope.player} holds orders this "
                                   "version of the ruleset does not read", f"{at}/sealed") from None

    def gather(self, ruleset: AnyRuleset, state_hash: str, resolving: Any,
               envelopes: Sequence[Envelope], at: str = "/envelopes") -> Any:
        """``resolving`` (the action or query request that reveals the private orders)
        with the orders of every envelope, each opened for its player and this state; one
        player's envelope given twice is refused at the second."""
        private = private_of(ruleset)
        if not envelopes:
            return resolving
        if private is None or getattr(resolving, "type", private.into) != private.into:
            raise Malformed([Problem(at, "envelopes go with " + (
                f"a {private.into}" if private else "nothing: this ruleset has no sealed "
                "orders"))])
        seen: set[str] = set()
        opened = []
        for i, envelope in enumerate(envelopes):
            if envelope.player in seen:
                raise Malformed([Problem(f"{at}/{i}/player", f"a second envelope of "
                                         f"{envelope.player}: one per player")])
            seen.add(envelope.player)
            opened.append(self.open(ruleset, state_hash, envelope, f"{at}/{i}"))
        return private.gather(resolving, opened)

    def unseal(self, ruleset: AnyRuleset, state_hash: str, envelope: Envelope,
               receipt: str) -> Any:
        """The action in the envelope, for the one who sealed it (who holds its receipt)."""
        if not self.sealer.holds_receipt(envelope.sealed, receipt):
            raise SignatureRefused("this receipt is not the one given with this envelope: only "
                                   "the player who sealed it may have it opened", "/receipt")
        return self.open(ruleset, state_hash, envelope, "/envelope")


def _holds(player: str) -> str:
    return f"orders of {player}"

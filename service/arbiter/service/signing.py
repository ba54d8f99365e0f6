"""Signed states (``ARBITER_STATE_KEYS``): the service signs the states it issues, so a
client who holds a game cannot edit it, and in digital mode cannot pick or re-roll a draw.

A signature is ``{"key": <key id>, "mac": <hex HMAC-SHA-256>}`` carried beside the state
(a request's ``signature``, an Outcome's ``signature``; the state models never change).
It is made with a key's secret over ``arbiter/state/v1``, the ruleset's id and the
state's signing digest (``signing_digest``: the sha256 of the state's canonical JSON with
each of its board fields replaced by the sha256 of its own, so that a board is hashed
once per board rather than on every request). The whole state, board
included, is what is signed, so the same signature holds whether the state travels with
its board inline, by reference (``"board": "sha256:…"``), or as a patch a client applied.
A state is checked before it is judged (``check``); a legal action's resulting state is
signed from the canonical JSON the engine wrote it with (``sign``).

Which states are signed: the first state of a game (``new-game``, with a seed the service
draws) and the state a legal action produces from a state whose signature was checked.
A state that came unsigned comes back unsigned, and so does one an illegal action
produced in advisory mode: otherwise any client could have any state signed, its seed
included, by sending it unsigned. A request's signature, when it has one, is always
checked; with ``ARBITER_REQUIRE_SIGNED_STATES`` every request must have one. A refused
state is a ``SignatureRefused`` problem (REST: a 422 of type
``urn:arbiter:problem:state-signature`` at ``/state``).

Keys are listed newest first: states are signed with the first, and checked with the key
their signature names, if it is listed; a key dropped from the list retires every state
it signed. Secrets stay in this module's ``Signer``: never logged, never answered.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from arbiter.engine.canonical import Canonical, sha256
from arbiter.engine.registry import AnyRuleset
from arbiter.engine.ruleset import SEED_FIELD
from arbiter.service.problems import SignatureRefused
from arbiter.settings import Settings, state_key_pairs

# What a MAC covers besides the state's hash: the scheme's version and the ruleset, so a
# signature is never valid for another use or another ruleset's state.
DOMAIN = b"arbiter/state/v1\0"
SEED_BITS = 64


class StateSignature(BaseModel):
    """A state's signature (``ARBITER_STATE_KEYS``): an HMAC-SHA-256 over the state's
    signing digest, made by the service and tagged with the id of the key that made it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9._-]+$",
                     description="The id of the key that signed the state.")
    mac: str = Field(pattern=r"^[0-9a-f]{64}$", description="The HMAC-SHA-256, lowercase hex.")


def signing_digest(ruleset: AnyRuleset, canonical: Canonical) -> str:
    """What a signature of a state of ``ruleset`` covers: the sha256 of the state's
    canonical JSON with each board field replaced by its own sha256, so the same whichever
    way the board travels, and a board kept ready is hashed once per board."""
    return sha256(canonical.folded(ruleset.board_fields))


def draw_seed() -> int:
    """A game's first seed: from the operating system's randomness, never the client's."""
    return secrets.randbits(SEED_BITS)


class _Key:
    """One state key as HMAC-SHA-256 (RFC 2104) uses it: sha256 states that have taken the
    key's inner and outer pads (and the inner one the domain every message starts with),
    copied for each MAC rather than set up again. Its secret is never shown."""

    __slots__ = ("_inner", "_outer", "id")
    BLOCK = 64  # sha256's block size

    def __init__(self, key_id: str, secret: bytes) -> None:
        self.id = key_id
        key = hashlib.sha256(secret).digest() if len(secret) > self.BLOCK else secret
        key = key.ljust(self.BLOCK, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in key) + DOMAIN)
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def mac(self, ruleset: str, digest: str) -> str:
        """HMAC-SHA-256 of ``DOMAIN``, the ruleset's id, a zero byte and ``digest``."""
        inner = self._inner.copy()
        inner.update(ruleset.encode() + b"\0" + digest.encode())
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.hexdigest()

    def __repr__(self) -> str:
        return f"<state key {self.id}>"


@dataclass(frozen=True, slots=True, repr=False)
class Signer:
    """The state keys (id, secret), newest first, and whether a signature is required."""

    keys: tuple[tuple[str, bytes], ...] = ()
    required: bool = False
    _by_id: dict[str, _Key] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {key_id: _Key(key_id, secret)
                                            for key_id, secret in self.keys})

    @classmethod
    def from_settings(cls, settings: Settings) -> Signer:
        pairs = state_key_pairs(settings.state_keys.get_secret_value())
        return cls(tuple((key_id, secret.encode()) for key_id, secret in pairs),
                   settings.require_signed_states)

    def __repr__(self) -> str:
        return f"Signer(keys={list(self._by_id)}, required={self.required})"

    @property
    def on(self) -> bool:
        return bool(self.keys)

    def salt(self) -> bytes:
        """What cached answers are keyed by besides the request, when states are signed: a
        digest of the keys and the requirement (never a secret), so an answer computed
        under one list of keys is never served under another."""
        if not self.keys:
            return b""
        made = hashlib.sha256(b"arbiter/keys\0" + (b"1" if self.required else b"0"))
        for key in self._by_id.values():
            made.update(key.id.encode() + b"\0" + key.mac("", "keys").encode())
        return made.digest()

    def sign(self, ruleset: AnyRuleset, canonical: Canonical) -> StateSignature:
        """The signature of a state of ``ruleset`` (its canonical JSON)."""
        key = self._by_id[self.keys[0][0]]
        return StateSignature(key=key.id, mac=key.mac(ruleset.id,
                                                      signing_digest(ruleset, canonical)))

    def check(self, signature: StateSignature | None, at: str = "/state") -> bool:
        """Whether a request's state is to be verified (it came signed): refuses at once a
        missing signature where one is required, and one this service cannot check."""
        if signature is None:
            if self.required:
                raise SignatureRefused(
                    "this service judges signed states only: send the state with the "
                    "signature the service answered it with (a game starts with new-game)", at)
            return False
        if not self.keys:
            raise SignatureRefused("this service signs no states (ARBITER_STATE_KEYS is "
                                   "unset): send the state without a signature", at)
        return True

    def verify(self, ruleset: AnyRuleset, signature: StateSignature, canonical: Canonical,
               at: str = "/state") -> None:
        """Raise ``SignatureRefused`` unless ``signature`` was made for this state."""
        key = self._by_id.get(signature.key)
        if key is None:
            raise SignatureRefused(
                f"the state is signed with key {signature.key!r}, which this service does not "
                "hold (retired, or another service's): it cannot be judged", at)
        mac = key.mac(ruleset.id, signing_digest(ruleset, canonical))
        if not hmac.compare_digest(mac, signature.mac):
            raise SignatureRefused(
                "the state is not the one its signature was made for (edited, truncated, or "
                "another game's): send the state exactly as the service answered it", at)

    def refuse_draws(self, ruleset: AnyRuleset, state: BaseModel,
                     actions: Iterable[tuple[Any, str]]) -> None:
        """In a signed game that draws with its seed (its state has one), an action may not
        report a draw made at the table: the service makes it. ``actions``: each action
        with its pointer (``/action``, ``/actions/2``)."""
        if getattr(state, SEED_FIELD, None) is None:
            return
        for action, at in actions:
            reported = ruleset.reported_draws(ruleset.parse_action(action))
            if reported:
                raise SignatureRefused(
                    f"this signed game draws with its seed: the service makes the draw, so "
                    f"the action may not report {reported[0]!r} (leave it out)",
                    f"{at}/{reported[0]}")

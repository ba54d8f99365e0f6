"""Sealing (``ARBITER_STATE_KEYS``): authenticated encryption of what a client holds but
may not read — the hidden fields of a state (``service.hidden``) and a player's orders for
a simultaneous turn (``service.envelopes``). Only this service can open a seal, and it
opens one only where the rules reveal what it holds.

A seal is the string ``sealed:v1:<key id>:<base64url of nonce and ciphertext>``: AES-256-GCM
(the ``cryptography`` package) with a fresh 96-bit random nonce, under a key derived from
a state key's secret with HKDF-SHA-256 (its own ``info``, so the secret that signs states
never encrypts with the same key bytes). What a seal is for travels as its associated
data, authenticated but not stored in it: the scheme, the ruleset, what the seal holds
(``/tiles``; ``orders:red``) and what it is bound to (the rest of the state; the state
the orders are for). A seal opened for any other purpose or binding fails, as does one
edited by a single bit, or one made under a key this service does not hold. Keys rotate
as signing keys do: new seals use the newest, and a seal opens with the key it names.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from arbiter.service.problems import SignatureRefused
from arbiter.settings import Settings, state_key_pairs

SCHEME = "sealed:v1:"
DOMAIN = b"arbiter/seal/v1\0"
NONCE_BYTES = 12


def derive(secret: bytes) -> AESGCM:
    """The AES-256-GCM key a state key's secret seals with."""
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
               info=b"arbiter/seal/v1 aes-256-gcm").derive(secret)
    return AESGCM(key)


@dataclass(frozen=True, slots=True, repr=False)
class Sealer:
    """The state keys (id, secret), newest first, as sealing keys."""

    keys: tuple[tuple[str, bytes], ...] = ()
    # A fresh random nonce for each seal (fixed only for the documents' examples, whose
    # key is no service's, so they do not change with every build).
    nonce: Callable[[int], bytes] = os.urandom
    _by_id: dict[str, AESGCM] = field(init=False)
    _receipts: bytes = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {key_id: derive(secret)
                                            for key_id, secret in self.keys})
        object.__setattr__(self, "_receipts", b"".join(
            HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                 info=b"arbiter/seal/v1 receipt").derive(secret) for _, secret in self.keys[:1]))

    @classmethod
    def from_settings(cls, settings: Settings) -> Sealer:
        pairs = state_key_pairs(settings.state_keys.get_secret_value())
        return cls(tuple((key_id, secret.encode()) for key_id, secret in pairs))

    def __repr__(self) -> str:
        return f"Sealer(keys={list(self._by_id)})"

    @property
    def on(self) -> bool:
        return bool(self.keys)

    def seal(self, ruleset: str, holds: str, bound: bytes, plain: bytes) -> str:
        """``plain`` sealed for ``ruleset``, holding ``holds``, bound to ``bound``."""
        key_id = self.keys[0][0]
        nonce = self.nonce(NONCE_BYTES)
        box = self._by_id[key_id].encrypt(nonce, plain, _associated(ruleset, holds, bound))
        return f"{SCHEME}{key_id}:{base64.urlsafe_b64encode(nonce + box).decode()}"

    def open(self, token: str, ruleset: str, holds: str, bound: bytes, at: str,
             what: str) -> bytes:
        """What ``token`` holds, or ``SignatureRefused`` at ``at`` unless it was sealed by
        this service for exactly this ruleset, purpose and binding (``what``: the seal in
        the game's words, for the message)."""
        if not self.on:
            raise SignatureRefused(f"{what} is sealed, and this service holds no keys to open "
                                   "it (ARBITER_STATE_KEYS is unset)", at)
        key_id, _, body = token.removeprefix(SCHEME).partition(":")
        key = self._by_id.get(key_id)
        if not token.startswith(SCHEME):
            raise SignatureRefused(f"{what} is not a seal this service made", at)
        if key is None:
            raise SignatureRefused(f"{what} is sealed with key {key_id!r}, which this service "
                                   "does not hold (retired, or another service's)", at)
        try:
            raw = base64.urlsafe_b64decode(body.encode())
            if base64.urlsafe_b64encode(raw).decode() != body:
                # The spare bits of base64's last character: a seal is written one way.
                raise ValueError("not as the service wrote it")
            return key.decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:],
                               _associated(ruleset, holds, bound))
        except (InvalidTag, binascii.Error, ValueError):
            raise SignatureRefused(
                f"{what} does not open here: it was sealed for another game, another "
                "state or another place, or it was edited; send it exactly as the service "
                "answered it", at) from None


    def receipt(self, token: str) -> str:
        """What only the one a seal was made for is given beside it (never the relay):
        HMAC-SHA-256 of the seal under a key of its own, so presenting it proves to have
        been the sealer (the player who may have their own envelope opened)."""
        return hmac.new(self._receipts, token.encode(), hashlib.sha256).hexdigest()

    def holds_receipt(self, token: str, receipt: str) -> bool:
        return self.on and hmac.compare_digest(self.receipt(token), receipt)


def _associated(ruleset: str, holds: str, bound: bytes) -> bytes:
    return DOMAIN + ruleset.encode() + b"\0" + holds.encode() + b"\0" + bound

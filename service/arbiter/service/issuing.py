"""Who may start a game (``new-game``), the one route that hands out a state the caller
chose: with signed states (``ARBITER_STATE_KEYS``) its answer is signed, so whoever may
ask it may have any first state signed — a hand of 9999 tokens, a seed already played —
and then play it as a genuine game.

- ``ARBITER_ISSUER_KEYS`` set: only a request carrying one of them (the game server's)
  may start a game, whether or not states are signed; an API key is not enough.
- No issuer keys and states signed: no caller over HTTP may (403 naming
  ``ARBITER_ISSUER_KEYS``), since signing what anyone sends would make the signatures
  worthless; ``arbiter serve`` warns at start.
- No issuer keys and states unsigned: anyone who may use the API may start a game, as
  before: an unsigned first state proves nothing that the client could not have written.

The operator's own ``arbiter new-game`` command holds the state keys already and is an
issuer. The transport says whether a request carries an issuer key (REST and GraphQL:
``http.security.Gate``, from the headers before anything else is read).
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.service.problems import NotIssuer
from arbiter.settings import Settings

NEED_KEY = ("starting a game needs an issuer key (ARBITER_ISSUER_KEYS): send it in "
            "Authorization: Bearer <key> or X-API-Key: <key>")
CLOSED = ("this service signs states (ARBITER_STATE_KEYS) and has no issuer keys: nobody "
          "may start a game over HTTP until ARBITER_ISSUER_KEYS is set")


@dataclass(frozen=True, slots=True)
class Issuing:
    """The policy: whether issuer keys are set, and whether the service signs states."""

    issuer_keys: bool
    signs: bool

    @classmethod
    def from_settings(cls, settings: Settings) -> Issuing:
        return cls(bool(settings.issuer_key_sha256),
                   bool(settings.state_keys.get_secret_value()))

    @property
    def closed(self) -> bool:
        """No caller over HTTP may start a game (states signed, no issuer keys)."""
        return self.signs and not self.issuer_keys

    def check(self, issuer: bool) -> None:
        """Raise ``NotIssuer`` unless a caller that is (or is not) an issuer may start a
        game."""
        if issuer or not (self.issuer_keys or self.signs):
            return
        raise NotIssuer(NEED_KEY if self.issuer_keys else CLOSED)

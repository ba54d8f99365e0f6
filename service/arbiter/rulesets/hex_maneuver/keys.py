"""What the answers of ``reachable`` and ``legal-actions`` depend on, as canonical bytes
for the cache. The key covers the whole request: the board (a fingerprint of every hex,
computed once per state and shared by the questions about it) and everything else in the
state and the question. Narrower keys would share more answers, but a state's validity
depends on all of it (a malformed state must get its 422, never a valid twin's cached
answer), and the parts beyond the board are small."""

from __future__ import annotations

import hashlib

from pydantic import BaseModel, TypeAdapter

from .models import HexManeuverHex, HexManeuverState

_HEXES = TypeAdapter(list[HexManeuverHex])


def board_fingerprint(state: HexManeuverState) -> bytes:
    return hashlib.blake2b(_HEXES.dump_json(state.hexes), digest_size=20).digest()


def request_key(request: BaseModel, fingerprint: bytes) -> bytes:
    """The fingerprint, then the rest of the request (the state without its hexes, and the
    question's fields) as canonical JSON."""
    rest = request.model_dump_json(exclude={"state": {"hexes"}})
    return fingerprint + rest.encode()


def board_size(request: BaseModel) -> int:
    state = getattr(request, "state")  # noqa: B009 - every query request has one
    assert isinstance(state, HexManeuverState)
    return len(state.hexes)

"""What the answers of ``reachable`` and ``legal-actions`` depend on, as canonical bytes
for the cache: the board's topology and terrain (a fingerprint computed once per state),
every piece (enemy objects block and are targets, own cities are free, own vessels
ferry), the unit catalogue, the options and the question's own fields. Province ids and
everything about relics, tiles, events and players' banks cannot change these answers."""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from .models import HexManeuverState
from .queries import HexManeuverLegalActionsRequest, HexManeuverReachableRequest


def board_fingerprint(state: HexManeuverState) -> bytes:
    digest = hashlib.blake2b(digest_size=20)
    for hx in state.hexes:
        digest.update(b"%d,%d,%s,%d;" % (hx.q, hx.r,
                                          (hx.terrain.value if hx.terrain else "?").encode(),
                                          hx.explored))
    return digest.digest()


def _pieces(state: HexManeuverState) -> list[Any]:
    return [
        [[a.id, a.owner, a.hex.q, a.hex.r, sorted(a.units.items()), a.depletion, a.unpacked]
         for a in state.armies],
        [[s.id, s.kind.value, s.owner, s.hex.q, s.hex.r] for s in state.structures],
        {name: t.model_dump(mode="json") for name, t in sorted(state.unit_types.items())},
        state.options.model_dump(mode="json"),
    ]


def reachable_key(request: HexManeuverReachableRequest, fingerprint: bytes) -> bytes:
    units = sorted(request.units.items()) if request.units is not None else None
    return fingerprint + orjson.dumps([_pieces(request.state), request.army, units,
                                       request.march])


def legal_actions_key(request: HexManeuverLegalActionsRequest, fingerprint: bytes) -> bytes:
    return fingerprint + orjson.dumps([_pieces(request.state), request.player, request.limit])


def board_size(request: HexManeuverReachableRequest | HexManeuverLegalActionsRequest) -> int:
    return len(request.state.hexes)

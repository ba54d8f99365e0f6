"""A derived question a ruleset answers beside ``validate`` (reachable hexes, conquest
costs, legal actions): its request and response models and the pure function that
answers it. The transports serve each one over REST and GraphQL alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel


@dataclass(frozen=True, slots=True)
class Query:
    """A derived question a ruleset answers, served at ``POST /v1/rulesets/{id}/{name}``.

    ``request`` is the whole body model (it has a ``state`` field); ``run`` takes the
    validated request and returns an instance of ``response``. ``run`` must be a pure
    function of the request: the transport caches its answers by a digest of the request.
    ``write`` (optional, for a query whose answer can be large): the same answer written
    as JSON directly, byte for byte ``run(request).model_dump_json()``, built without
    validating our own data again and written in small pieces (``engine.pieces``), so no
    single call into pydantic-core holds the GIL while the service's probes wait.
    """

    name: str
    summary: str
    request: type[BaseModel]
    response: type[BaseModel]
    run: Callable[[Any], BaseModel]
    examples: Sequence[Mapping[str, Any]] = field(default_factory=tuple)
    write: Callable[[Any], bytes] | None = None

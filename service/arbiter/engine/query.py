"""A derived question a ruleset answers beside ``validate`` (reachable hexes, conquest
costs, legal actions): its request and response models and the pure function that
answers it. The transports serve each one over REST and GraphQL alike."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel


@dataclass(frozen=True, slots=True)
class Query:
    """A derived question a ruleset answers, served at ``POST /v1/rulesets/{id}/{name}``.

    ``request`` is the whole body model (it has a ``state`` field); ``run`` takes the
    validated request and returns an instance of ``response``. ``run`` must be a pure
    function of the request: the transport caches its answers by a digest of the request.
    ``streamed`` (optional, for a query whose answer can be large): the same answer as
    plain data, its one long list made item by item (``Streamed``), whose JSON is byte for
    byte ``run(request).model_dump_json()``: the caller writes it without validating the
    engine's own data into models again.
    """

    name: str
    summary: str
    request: type[BaseModel]
    response: type[BaseModel]
    run: Callable[[Any], BaseModel]
    examples: Sequence[Mapping[str, Any]] = field(default_factory=tuple)
    streamed: Callable[[Any], Streamed] | None = None


@dataclass(frozen=True, slots=True)
class Streamed:
    """An answer made of a head and one long list: ``{**head, name: [*items]}``, the items
    made as they are consumed (so the whole answer need never be held as data). ``what``
    names the answer in a refusal (an answer over the size limit)."""

    head: Mapping[str, Any]
    name: str
    items: Iterable[Any]
    what: str = "the answer"

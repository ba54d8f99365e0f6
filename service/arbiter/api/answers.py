"""Answering a ruleset's derived query through the cache: the one place REST and GraphQL
share, so both serve the same bytes for the same question. The board fingerprint is
computed once per state and reused by every question about it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from arbiter.cache import AnswerCache
from arbiter.cache.keys import cache_key
from arbiter.engine.registry import Query, Ruleset


class Answerer:
    def __init__(self, cache: AnswerCache | None) -> None:
        self.cache = cache

    async def answer(self, ruleset: Ruleset, query: Query, request: BaseModel,
                     fingerprints: dict[int, bytes] | None = None) -> bytes:
        """The query's answer as JSON bytes."""
        policy = query.cache
        if policy is None or self.cache is None:
            return query.run(request).model_dump_json().encode()
        state: Any = getattr(request, "state")  # noqa: B009 - every query request has one
        memo = fingerprints if fingerprints is not None else {}
        fingerprint = memo.get(id(state))
        if fingerprint is None:
            fingerprint = memo[id(state)] = policy.fingerprint(state)
        key = cache_key(ruleset.id, ruleset.version, query.name,
                        policy.key(request, fingerprint))
        return await self.cache.get_or_compute(
            key, policy.size(request), lambda: query.run(request).model_dump_json().encode())

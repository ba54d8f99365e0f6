"""Answering a ruleset's derived query through the cache, for REST and GraphQL alike.

The key is a digest of the whole request as it arrived: the raw body for REST (so a hit
skips parsing, the dominant cost on a big board), and the JSON of the state and of the
arguments, in the client's order, for GraphQL (the state's digest computed once per
GraphQL request and shared by all its questions). Keys are never sorted: the order of a
map's keys can be part of an answer. Every input is in the key, so an answer is only ever
served for the very question it was computed for, and a malformed request, which raises
instead of answering, is never cached at all.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from pydantic import BaseModel

from arbiter.api.graphql_loop import on_service_loop, service_loop
from arbiter.api.limits import Compute, Limits
from arbiter.cache import AnswerCache
from arbiter.cache.keys import cache_key
from arbiter.engine.pieces import model_json
from arbiter.engine.registry import AnyRuleset as Ruleset
from arbiter.engine.ruleset import Query


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=20).digest()


def written(value: Any) -> bytes:
    """JSON as the client wrote it (keys in its order)."""
    return orjson.dumps(value)


class Answerer:
    def __init__(self, cache: AnswerCache | None, compute: Compute | None = None,
                 limits: Limits | None = None, salt: bytes = b"") -> None:
        self.cache = cache
        self.compute = compute
        self.limits = limits
        # Mixed into every key (``signing.Signer.salt``): with signed states, a request
        # is answered only after its signature was checked under the keys now listed.
        self.salt = salt

    async def _cached(self, ruleset: Ruleset, query: Query, material: bytes, size: int,
                      compute: Callable[[], bytes]) -> bytes:
        budgeted = compute if self.compute is None else self._budgeted(compute)
        if self.cache is None:
            made = budgeted()
            return await made if inspect.isawaitable(made) else made
        key = cache_key(ruleset.id, ruleset.version, query.name, self.salt + material)
        return await self.cache.get_or_compute(key, size, budgeted)

    async def _cached_here(self, ruleset: Ruleset, query: Query, material: bytes, size: int,
                           compute: Callable[[], bytes], service: asyncio.AbstractEventLoop
                           ) -> bytes:
        """``_cached`` for a GraphQL operation, on GraphQL's own thread: memory is asked
        here, Redis on the service's loop (which owns its client), and the answer is made
        here under the request's budget (``Compute.run_here``)."""
        cache = self.cache
        if cache is None:
            return compute() if self.compute is None else self.compute.run_here(compute, service)
        key = cache_key(ruleset.id, ruleset.version, query.name, self.salt + material)
        found = cache.remembered(key)
        if found is None and cache.uses_redis(size):
            found = await on_service_loop(lambda: cache.fetched(key))
        if found is not None:
            return found
        answer = compute() if self.compute is None else self.compute.run_here(compute, service)
        cache.memory.put(key, answer)
        if cache.uses_redis(size):
            service.call_soon_threadsafe(cache.store, key, answer)
        return answer

    def _budgeted(self, compute: Callable[[], bytes]) -> Callable[[], Awaitable[bytes]]:
        """The computation run in a worker thread under the request's compute budget
        (``limits.Compute``): a cache hit costs no thread hop."""
        assert self.compute is not None
        run = self.compute.run
        return lambda: run(compute)

    async def answer_body(self, ruleset: Ruleset, query: Query, body: bytes,
                          parse: Callable[[bytes], Any] | None = None) -> bytes:
        """A REST body's answer as JSON bytes; parses only on a miss, with ``parse`` (which
        checks the request against the limits and fills in a board sent by reference),
        else as the query's request model."""
        limits = self.limits

        def parsed(raw: bytes) -> Any:
            request = query.request.model_validate_json(raw, strict=True)
            if limits is not None:
                limits.check_request(request)
            return request

        read = parse or parsed

        def compute() -> bytes:
            request = read(body)
            # Written in short pieces: the event loop answers the probes meanwhile.
            return query.write(request) if query.write is not None \
                else model_json(query.run(request))

        answer = await self._cached(ruleset, query, b"rest\0" + digest(body), len(body),
                                    compute)
        if limits is not None:  # a cached answer too: another replica's limit may be higher
            limits.check_size(len(answer))
        return answer

    async def answer_parsed(self, ruleset: Ruleset, query: Query, state_digest: bytes,
                            state_size: int, arguments: dict[str, Any],
                            request: Callable[[], BaseModel]) -> BaseModel:
        """A GraphQL question's answer as the response model: ``state_digest`` is the
        digest of the canonical state (once per request), ``arguments`` the question's
        own, ``request`` builds the validated request on a miss. A computed answer is
        returned as it was made; only a cached one is read back from its bytes."""
        material = b"graphql\0" + state_digest + written(arguments)
        made: list[BaseModel] = []

        def compute() -> bytes:
            answer = query.run(request())
            made.append(answer)
            return answer.model_dump_json().encode()

        service = service_loop()
        if service is None:
            data = await self._cached(ruleset, query, material, state_size, compute)
        else:
            data = await self._cached_here(ruleset, query, material, state_size, compute,
                                           service)
        if self.limits is not None:  # every alias converts its copy: they add up
            self.limits.check_answer(len(data))
        return made[0] if made else query.response.model_validate_json(data)

"""A ruleset's derived queries answered through the cache, whatever the transport.

The key is a digest of the whole question as it arrived: the raw body of a whole request
(REST, the CLI: a hit then skips parsing, the dominant cost on a big board), or the
digest of a state's JSON (made once for every question asked of it: GraphQL) and the
question's own arguments, in the client's order. Keys are never sorted: the order of a
map's keys can be part of an answer. Every input is in the key, so an answer is only ever
served for the very question it was computed for, and a malformed request, which raises
instead of answering, is never cached at all.

Memory is asked where the request runs; Redis on the service's loop, which owns its
client (``service.loops``); the answer is made under the request's compute budget
(``Compute.run``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import orjson
from pydantic import BaseModel

from arbiter.cache import AnswerCache
from arbiter.cache.keys import cache_key
from arbiter.engine.registry import AnyRuleset as Ruleset
from arbiter.engine.ruleset import Query
from arbiter.service.account import spent_now
from arbiter.service.compute import Compute
from arbiter.service.limits import Limits
from arbiter.service.loops import at_home, call_at_home
from arbiter.service.writing import model_json, model_read, streamed_json


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=20).digest()


class Answers:
    def __init__(self, cache: AnswerCache | None, compute: Compute, limits: Limits,
                 salt: bytes = b"") -> None:
        self.cache = cache
        self.compute = compute
        self.limits = limits
        # Mixed into every key (``signing.Signer.salt``, the limits): an answer is served
        # only under the keys and limits it was computed under.
        self.salt = salt

    async def _cached(self, ruleset: Ruleset, query: Query, material: bytes, size: int,
                      make: Callable[[], bytes]) -> bytes:
        """The answer to the question ``material`` names: memory, then Redis (for a
        request of ``size`` bytes, when a round trip pays), then ``make()`` run under the
        request's compute budget."""
        cache = self.cache
        if cache is None:
            return await self.compute.run(make)
        key = cache_key(ruleset.id, ruleset.version, query.name, self.salt + material)
        found = cache.remembered(key)
        if found is None and cache.uses_redis(size):
            found = await at_home(lambda: cache.fetched(key))
        if found is not None:
            return found
        answer = await self.compute.run(make)
        cache.memory.put(key, answer)
        if cache.uses_redis(size):
            call_at_home(cache.store, key, answer)
        return answer

    async def of_body(self, ruleset: Ruleset, query: Query, body: bytes,
                      request: Callable[[], Any]) -> bytes:
        """A whole request's answer as JSON bytes; ``request()`` parses the body only on a
        miss (checked against the limits, its board filled in, its signature checked)."""
        limit = self.limits.max_answer_bytes

        def make() -> bytes:
            parsed = request()
            if query.streamed is not None:
                return streamed_json(query.streamed(parsed), limit)
            # Written in short pieces: the event loop answers the probes meanwhile.
            return model_json(query.run(parsed))

        answer = await self._cached(ruleset, query, b"rest\0" + digest(body), len(body), make)
        self.limits.check_size(len(answer))  # a cached one too: another replica's may be higher
        return answer

    async def of_question(self, ruleset: Ruleset, query: Query, state_digest: bytes,
                          state_size: int, arguments: dict[str, Any],
                          request: Callable[[], BaseModel]) -> BaseModel:
        """A question's answer as the response model: ``state_digest`` is the digest of the
        state's JSON (once for every question asked of it), ``arguments`` the question's
        own, ``request()`` builds the validated request on a miss. A computed answer is
        returned as it was made; only a cached one is read back from its bytes."""
        material = b"graphql\0" + state_digest + orjson.dumps(arguments)
        made: list[BaseModel] = []

        def make() -> bytes:
            answer = query.run(request())
            made.append(answer)
            return answer.model_dump_json().encode()

        data = await self._cached(ruleset, query, material, state_size, make)
        self.limits.check_answer(len(data))  # every alias converts its copy: they add up
        if made:
            return made[0]
        # Read back once per request, in pieces (the probes answer between two): its
        # aliases share the model (answers are never changed once made).
        read_back = spent_now().read_back
        answer = read_back.get(material)
        if answer is None:
            answer = read_back[material] = model_read(query.response, data)
        return answer

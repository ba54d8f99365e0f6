"""A ruleset's derived queries answered through the cache, whatever the transport.

The key is a digest of the whole question as it arrived: the raw body of a whole request
(REST, the CLI: a hit then skips parsing, the dominant cost on a big board), or the
digest of a state's JSON (made once for every question asked of it: GraphQL) and the
question's own arguments, in the client's order. Keys are never sorted: the order of a
map's keys can be part of an answer. Every input is in the key, so an answer is only ever
served for the very question it was computed for, and a malformed request, which raises
instead of answering, is never cached at all.

A question whose judging ran out of its whole compute budget is remembered as refused for
``REFUSED_SECONDS`` (``Refusals``, in the worker, under the same key): asked again, it is
refused at once instead of taking the budget again (a 68 KB ``render`` of a 600-region
graph took its 5 s each time). A refusal is remembered only when the question had the
whole budget: one that ran out because the questions before it in the same request
spent it may well be answered alone.

Memory is asked where the request runs; Redis on the service's loop, which owns its
client (``service.loops``); the answer is made under the request's compute budget
(``Compute.run``).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
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
from arbiter.service.problems import BudgetExceeded
from arbiter.service.writing import model_json, model_read, streamed_json

# How long a question that ran out of the compute budget is refused at once; short, as
# the refusal may have come from a busy machine rather than from the question.
REFUSED_SECONDS = 30.0
REFUSED_ENTRIES = 1024


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=20).digest()


class Refusals:
    """The keys of questions refused for the budget lately, each until its expiry (at most
    ``REFUSED_ENTRIES``, the oldest forgotten first). REST asks from the service's loop,
    GraphQL from its own: a lock keeps the two apart."""

    def __init__(self, seconds: float = REFUSED_SECONDS, entries: int = REFUSED_ENTRIES
                 ) -> None:
        self.seconds = seconds
        self.entries = entries
        self._until: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def refused(self, key: str) -> bool:
        with self._lock:
            until = self._until.get(key)
            if until is not None and until < time.monotonic():
                del self._until[key]
                until = None
            return until is not None

    def remember(self, key: str) -> None:
        with self._lock:
            self._until[key] = time.monotonic() + self.seconds
            self._until.move_to_end(key)
            while len(self._until) > self.entries:
                self._until.popitem(last=False)


class Answers:
    def __init__(self, cache: AnswerCache | None, compute: Compute, limits: Limits,
                 salt: bytes = b"") -> None:
        self.cache = cache
        self.compute = compute
        self.limits = limits
        # Mixed into every key (``signing.Signer.salt``, the limits): an answer is served
        # only under the keys and limits it was computed under.
        self.salt = salt
        self.refusals = Refusals()

    async def _cached(self, ruleset: Ruleset, query: Query, material: bytes, size: int,
                      make: Callable[[], bytes]) -> bytes:
        """The answer to the question ``material`` names: memory, then Redis (for a
        request of ``size`` bytes, when a round trip pays), then ``make()`` run under the
        request's compute budget."""
        cache = self.cache
        key = cache_key(ruleset.id, ruleset.version, query.name, self.salt + material)
        if cache is None:
            return await self._made(key, make)
        found = cache.remembered(key)
        if found is None and cache.uses_redis(size):
            found = await at_home(lambda: cache.fetched(key))
        if found is not None:
            return found
        answer = await self._made(key, make)
        cache.memory.put(key, answer)
        if cache.uses_redis(size):
            call_at_home(cache.store, key, answer)
        return answer

    async def _made(self, key: str, make: Callable[[], bytes]) -> bytes:
        """``make()`` under the request's budget, unless the question was refused for the
        budget lately; a refusal with the whole budget is remembered."""
        if self.refusals.refused(key):
            raise BudgetExceeded(self.compute.budget_ms)
        whole = spent_now().seconds == 0.0
        try:
            return await self.compute.run(make)
        except BudgetExceeded:
            if whole:
                self.refusals.remember(key)
            raise

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

"""The boards the service knows, by ruleset and id (``engine.boards``): kept parsed in an
in-process map bounded in bytes, and in Redis (when configured) for every replica.

A board is stored by ``PUT /v1/rulesets/{id}/boards/{board_id}``, by a state that sends
its board together with its id, or by the first request that sends it inline alone; a
later request sending a kept board inline is parsed without it (``reading``). A state
naming a board this replica cannot find (never sent, evicted, or Redis down) gets a
``BoardNotFound`` problem, and the client sends the board once more: so either tier may
drop a board at any time, and does, oldest first.
Redis holds the board's JSON as it was sent; a replica that fetches it checks the id
against the content before trusting it. The Redis client is the service loop's: a
request run on another loop reaches it through ``service.loops``.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError

from arbiter.cache.redis_tier import RedisTier
from arbiter.engine.boards import board_id, board_json, id_of
from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.registry import AnyRuleset
from arbiter.service.loops import at_home, call_at_home


@dataclass(frozen=True, slots=True)
class StoredBoard:
    id: str
    model: BaseModel   # the ruleset's board model, validated
    size: int          # bytes of its JSON


@dataclass(frozen=True, slots=True)
class Sent:
    """A board as a request sent it inline: its canonical JSON and so its id."""

    id: str
    data: bytes

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Sent:
        data = board_json(raw)
        return cls(id_of(data), data)


class BoardStore:
    """The boards this replica keeps parsed (at most ``max_bytes`` of their JSON, least
    recently used dropped first), in front of Redis."""

    def __init__(self, max_bytes: int, redis: RedisTier | None = None) -> None:
        self.max_bytes = max_bytes
        self.redis = redis
        self.bytes = 0
        # Judging may run in worker threads: the map and the queue of boards for Redis are
        # shared between them and the event loop.
        self._lock = threading.Lock()
        self._boards: OrderedDict[tuple[str, str], StoredBoard] = OrderedDict()
        self._unsent: list[tuple[str, bytes]] = []
        self._pending: set[asyncio.Task[bool]] = set()

    def local(self, ruleset: str, board: str) -> StoredBoard | None:
        with self._lock:
            found = self._boards.get((ruleset, board))
            if found is not None:
                self._boards.move_to_end((ruleset, board))
            return found

    def _keep(self, ruleset: str, stored: StoredBoard) -> None:
        if stored.size > self.max_bytes // 4:
            return  # one board never crowds out most of the others
        with self._lock:
            old = self._boards.pop((ruleset, stored.id), None)
            if old is not None:
                self.bytes -= old.size
            self._boards[(ruleset, stored.id)] = stored
            self.bytes += stored.size
            while self.bytes > self.max_bytes:
                _, dropped = self._boards.popitem(last=False)
                self.bytes -= dropped.size

    def store(self, ruleset: AnyRuleset, board: str, raw: Mapping[str, Any],
              model: BaseModel, pointer: str = "/state/board") -> StoredBoard:
        """Keep a board whose content was sent (``raw``, as JSON) with its claimed id: the id
        must be the content's, else the request is refused at ``pointer``. Redis gets it
        with ``publish``, from the event loop."""
        sent = Sent.of(raw)
        if sent.id != board:
            raise InvalidInput([Problem(pointer, f"{board} is not the id of the board sent "
                                        "with it (docs/boards.md says how an id is computed)")])
        return self.keep(ruleset, sent, model)

    def keep(self, ruleset: AnyRuleset, sent: Sent, model: BaseModel) -> StoredBoard:
        """Keep a board sent inline (its id is its content's by construction)."""
        stored = StoredBoard(sent.id, model, len(sent.data))
        self._keep(ruleset.id, stored)
        if self.redis is not None:
            with self._lock:
                self._unsent.append((_key(ruleset.id, sent.id), sent.data))
        return stored

    def publish(self) -> None:
        """Send the boards stored since the last call to Redis, in the background (from
        the service's loop, which owns the Redis client)."""
        if self.redis is not None and self._unsent:
            call_at_home(self._publish)

    def _publish(self) -> None:
        with self._lock:
            unsent, self._unsent = self._unsent, []
        redis = self.redis
        assert redis is not None
        for key, data in unsent:
            task = asyncio.get_running_loop().create_task(redis.set(key, data))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def fetch(self, ruleset: AnyRuleset, board: str) -> StoredBoard | None:
        """The board from this replica's memory, else from Redis (checked, parsed, kept)."""
        found = self.local(ruleset.id, board)
        if found is not None or self.redis is None or ruleset.boards is None:
            return found
        redis = self.redis
        _, data = await at_home(lambda: redis.get(_key(ruleset.id, board)))
        if data is None:
            return None
        raw = orjson.loads(data)
        if not isinstance(raw, dict) or board_id(raw) != board:
            return None  # not this board: as good as missing
        try:
            model = ruleset.boards.board_model.model_validate_json(data, strict=True)
        except ValidationError:
            return None  # a board this version does not read: as good as missing
        stored = StoredBoard(board, model, len(data))
        self._keep(ruleset.id, stored)
        return stored

    async def flush(self) -> None:
        if self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)


def _key(ruleset: str, board: str) -> str:
    return f"board:{ruleset}:{board}"

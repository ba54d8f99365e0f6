"""The boards the service knows, by ruleset and id (``engine.boards``): kept parsed in an
in-process map bounded in bytes, and in Redis (when configured) for every replica.

A board is stored by ``PUT /v1/rulesets/{id}/boards/{board_id}``, by a state that sends
its board together with its id, or by the first request that sends it inline alone; a
later request sending a kept board inline is parsed without it (``parse_request``). A
state naming a board this replica cannot find (never sent, evicted, or Redis down) gets a
``board-not-found`` problem, and the client sends the board once more: so either tier may
drop a board at any time, and does, oldest first.
Redis holds the board's JSON as it was sent; a replica that fetches it checks the id
against the content before trusting it.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError
from starlette.responses import Response

from arbiter.api.patch import json_patch
from arbiter.api.problems import problem_body
from arbiter.cache.redis_tier import RedisTier
from arbiter.engine.boards import board_id, board_json, id_of
from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.outcome import Outcome
from arbiter.engine.registry import AnyRuleset

BOARD_NOT_FOUND = "urn:arbiter:problem:board-not-found"


class BoardMissing(Exception):
    """A state names a board this replica does not hold."""

    def __init__(self, ruleset: str, board: str, pointer: str = "/state/board") -> None:
        self.ruleset = ruleset
        self.board = board
        self.pointer = pointer
        super().__init__(f"no board {board} is known for {ruleset}: send the state with its "
                         "board inline (and its id, to store it) once more")


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
                                        "with it (the README says how an id is computed)")])
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
        """Send the boards stored since the last call to Redis, in the background."""
        if self.redis is None:
            return
        with self._lock:
            unsent, self._unsent = self._unsent, []
        for key, data in unsent:
            task = asyncio.get_running_loop().create_task(self.redis.set(key, data))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    def publish_on(self, loop: asyncio.AbstractEventLoop) -> None:
        """``publish`` on ``loop`` (the service's, which owns the Redis client) from another
        thread (GraphQL's), when there is something to send."""
        if self.redis is not None and self._unsent:
            loop.call_soon_threadsafe(self.publish)

    async def fetch(self, ruleset: AnyRuleset, board: str) -> StoredBoard | None:
        """The board from this replica's memory, else from Redis (checked, parsed, kept)."""
        found = self.local(ruleset.id, board)
        if found is not None or self.redis is None or ruleset.boards is None:
            return found
        _, data = await self.redis.get(_key(ruleset.id, board))
        if data is None:
            return None
        raw = orjson.loads(data)
        if not isinstance(raw, dict) or board_id(raw) != board:
            return None  # not this board: as good as missing
        model = ruleset.boards.board_model.model_validate_json(data, strict=True)
        stored = StoredBoard(board, model, len(data))
        self._keep(ruleset.id, stored)
        return stored

    async def flush(self) -> None:
        if self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)


def _key(ruleset: str, board: str) -> str:
    return f"board:{ruleset}:{board}"


@dataclass(frozen=True, slots=True)
class Parsed:
    """A request (for GraphQL, a state) as parsed, with what it says of its state's board
    when it sent the board inline: ``known`` the board this replica kept already (it was
    parsed without it), else ``sent`` (kept once the request passed its checks)."""

    request: Any
    known: StoredBoard | None = None
    sent: Sent | None = None


def parse_request(store: BoardStore, ruleset: AnyRuleset, model: type[BaseModel],
                  body: bytes, document: Any) -> Parsed:
    """``body`` parsed strictly as ``model`` (whose ``state`` takes a board inline or by
    reference). A board sent inline is recognised by its content (``inline_board``): one
    this replica keeps is not parsed again (its fields were validated when it was kept,
    with the very annotations of the state's) — the rest of the body is, with the
    board's id in its place. Anything that refuses this shorter body is parsed from
    ``body`` as it came, so every problem is reported as it always is."""
    state = document.get("state") if isinstance(document, dict) else None
    found = inline_board(store, ruleset, state)
    if found is None:
        return Parsed(model.model_validate_json(body, strict=True))
    sent, known = found
    if known is not None and isinstance(state, dict):
        try:
            return Parsed(model.model_validate_json(orjson.dumps(
                {**document, "state": naming(ruleset, state, sent.id)}), strict=True), known)
        except ValidationError:
            pass
    return Parsed(model.model_validate_json(body, strict=True), sent=sent)


def inline_board(store: BoardStore, ruleset: AnyRuleset, state: Any
                 ) -> tuple[Sent, StoredBoard | None] | None:
    """For a state (as JSON) that sends all its board fields and no id: the board as sent,
    and the board this replica keeps under its id (None when it keeps none). None for
    any other state."""
    shape = ruleset.boards
    if shape is None or not isinstance(state, dict) or "board" in state or \
            not all(f in state for f in shape.fields):
        return None
    sent = Sent.of({f: state[f] for f in shape.fields})
    return sent, store.local(ruleset.id, sent.id)


def naming(ruleset: AnyRuleset, state: dict[str, Any], board: str) -> dict[str, Any]:
    """A state (as JSON) with ``board`` named in place of its board fields."""
    fields = ruleset.boards.fields if ruleset.boards is not None else ()
    lean = {k: v for k, v in state.items() if k not in fields}
    lean["board"] = board
    return lean


def whole_state(store: BoardStore, ruleset: AnyRuleset, state: BaseModel,
                raw_state: Callable[[], Any], at: str = "/state",
                parsed: Parsed | None = None) -> tuple[BaseModel, str | None]:
    """The whole state a request's state stands for, and the id of its board when it came
    by reference. A state that sends its board with its id stores it; one that names an
    unknown board raises ``BoardMissing``. ``raw_state`` gives the state's JSON as sent
    (asked for only to check a board's id). ``parsed``: what ``parse_request`` found of
    a board sent inline (a known one is filled in, the state answering as sent inline; a
    new one is kept)."""
    shape = ruleset.boards
    if shape is not None and parsed is not None and parsed.known is not None:
        return shape.whole(state, parsed.known.model), None
    if shape is None or not isinstance(state, shape.reference_model):
        if shape is not None and parsed is not None and parsed.sent is not None:
            store.keep(ruleset, parsed.sent, shape.board_model.model_construct(
                **{f: getattr(state, f) for f in shape.fields}))
        return state, None
    board: str = getattr(state, "board")  # noqa: B009 - a field of a model made at start-up
    if shape.carries_board(state):
        sent = raw_state()
        raw = {f: sent[f] for f in shape.fields if f in sent}
        model = shape.inline_board(state)
        store.store(ruleset, board, raw, model, f"{at}/board")
    else:
        stored = store.local(ruleset.id, board)
        if stored is None:
            raise BoardMissing(ruleset.id, board, f"{at}/board")
        model = stored.model
    return shape.whole(state, model), board


def board_not_found(missing: BoardMissing) -> Response:
    """The problem a client answers by sending the state with its board inline once more
    (with ``board`` too, to store it again)."""
    return Response(orjson.dumps(board_not_found_body(missing)), status_code=422,
                    media_type="application/problem+json")


def board_not_found_body(missing: BoardMissing) -> dict[str, Any]:
    errors = [Problem(missing.pointer, str(missing))] if missing.pointer else []
    return problem_body(422, str(missing), errors, type=BOARD_NOT_FOUND,
                        title="The board named is not known here", board=missing.board)


@dataclass(frozen=True, slots=True)
class Returned:
    """How a validate answer returns its resulting state (the request's ``return``): whole
    (``state``, naming its board when it came so), as an RFC 6902 patch against the state
    the client sent (``patch``), or not at all (``omit``; ``state_hash`` stays)."""

    returns: str
    body: bytes

    def outcome(self, outcome: Outcome, before: Any = None) -> Outcome:
        if self.returns == "state" or outcome.state is None:
            return outcome
        if self.returns == "omit":
            return outcome.model_copy(update={"state": None})
        base = before if before is not None else orjson.loads(self.body)["state"]
        return outcome.model_copy(update={"state": None,
                                          "patch": json_patch(base, outcome.state)})

    def outcomes(self, judged: Iterable[Outcome], *, sequence: bool) -> Iterator[Outcome]:
        """A batch's outcomes as they are judged; in a sequence each patch is against the
        state the one before it produced (apply them in order), in ``each`` against the
        state sent. Only the state before is kept, so a batch of large states never holds
        them all (200 actions on a 10 000-hex board once held 2.6 GB)."""
        sent: Any = None  # the state sent, read from the body once (not per action)
        before: Any = None
        for outcome in judged:
            if self.returns == "patch" and before is None and outcome.state is not None:
                before = sent = sent if sent is not None else orjson.loads(self.body)["state"]
            yield self.outcome(outcome, before)
            if sequence and self.returns == "patch":
                before = outcome.state

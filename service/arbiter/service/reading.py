"""Reading a request: its body parsed strictly by the route's model, a board sent inline
recognised, and the whole state it stands for (its board filled in when it came by
reference).

A board sent inline is recognised by its content (``inline_board``): one this replica
keeps is not parsed again (its fields were validated when it was kept, with the very
annotations of the state's): the rest of the body is, with the board's id in its place
(a 20 KB validate body: 542 → 136 µs). Anything that refuses this shorter body is parsed
from the body as it came, so every problem is reported as it always is. A board sent
inline for the first time is kept once the request passed its checks.

A large body (over ``MEMBERS_FIRST_BYTES``) whose members, or its state's, are missing or
unknown is refused by them alone, before its model reads it: pydantic answers such a body
with errors that each hold their whole input as Python objects (one copy of the state for
each member missing at the top, one of the body for each missing in the state; a 258 KB
body of 129,000 values under an unknown key took +63 MiB), where the members' names cost
nothing. The problems inside the members are reported once the members are right.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError

from arbiter.engine.errors import Problem, pointer
from arbiter.engine.registry import AnyRuleset
from arbiter.service.boards import BoardStore, Sent, StoredBoard
from arbiter.service.problems import BoardNotFound, Malformed

MEMBERS_FIRST_BYTES = 64 << 10
# pydantic's own words, so that a problem reads the same whichever found it.
MISSING = "Field required"
UNKNOWN = "Extra inputs are not permitted"


@dataclass(frozen=True, slots=True)
class Parsed:
    """A request as parsed, with what it says of its state's board when it sent the board
    inline: ``known`` the board this replica kept already (it was parsed without it), else
    ``sent`` (kept once the request passed its checks)."""

    request: Any
    known: StoredBoard | None = None
    sent: Sent | None = None


def parse_request(store: BoardStore, ruleset: AnyRuleset, model: type[BaseModel],
                  body: bytes, document: Any, subject: str = "request") -> Parsed:
    """``body`` (whose JSON is ``document``) parsed strictly as ``model``, whose ``state``
    takes a board inline or by reference; refused with ``Malformed`` (``subject``: what
    the body is, for the message of a transport that asks in parts)."""
    state = document.get("state") if isinstance(document, dict) else None
    if len(body) > MEMBERS_FIRST_BYTES:
        problems = member_problems(model, document) + member_problems(
            _state_model(ruleset, state), state, "state")
        if problems:
            raise Malformed(problems, subject)
    found = inline_board(store, ruleset, state)
    if found is not None and found[1] is not None and isinstance(state, dict):
        try:
            lean = orjson.dumps({**document, "state": naming(ruleset, state, found[0].id)})
            return Parsed(model.model_validate_json(lean, strict=True), found[1])
        except ValidationError:
            pass
    try:
        request = model.model_validate_json(body, strict=True)
    except ValidationError as exc:
        raise Malformed.of(exc, document, subject=subject) from None
    return Parsed(request, sent=found[0] if found is not None else None)


def member_problems(model: type[BaseModel] | None, value: Any, *at: str) -> list[Problem]:
    """The members ``model`` requires that the object ``value`` lacks, then those it has
    that ``model`` does not know (when it forbids them), in its order; none when
    ``value`` is no object (the model's reading says so)."""
    if model is None or not isinstance(value, dict):
        return []
    names, required, forbid = _members(model)
    return [Problem(pointer(*at, name), MISSING) for name in required if name not in value] \
        + [Problem(pointer(*at, key), UNKNOWN) for key in value if forbid and key not in names]


@cache
def _members(model: type[BaseModel]) -> tuple[frozenset[str], tuple[str, ...], bool]:
    """The JSON names of ``model``'s members, those it requires, and whether it forbids
    any other."""
    names = {name: info.alias or name for name, info in model.model_fields.items()}
    required = tuple(names[n] for n, info in model.model_fields.items() if info.is_required())
    return frozenset(names.values()), required, model.model_config.get("extra") == "forbid"


def _state_model(ruleset: AnyRuleset, state: Any) -> type[BaseModel] | None:
    """The model a state sent as JSON is read with (by reference when it names a board)."""
    if not isinstance(state, dict):
        return None
    shape = ruleset.boards
    if shape is not None and "board" in state:
        return shape.reference_model
    return ruleset.state_model


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


def whole_state(store: BoardStore, ruleset: AnyRuleset, parsed: Parsed, sent_state: Any,
                at: str = "/state") -> tuple[BaseModel, str | None]:
    """The whole state a parsed request's state stands for, and the id of its board when
    it came by reference. A state that sends its board with its id stores it; one that
    names a board this replica does not keep raises ``BoardNotFound`` (the lifecycle then
    asks Redis once). ``sent_state``: the state's JSON as sent (read only to check a
    board's id)."""
    state: BaseModel = parsed.request.state
    shape = ruleset.boards
    if shape is not None and parsed.known is not None:
        return shape.whole(state, parsed.known.model), None
    if shape is None or not isinstance(state, shape.reference_model):
        if shape is not None and parsed.sent is not None:
            store.keep(ruleset, parsed.sent, shape.board_model.model_construct(
                **{f: getattr(state, f) for f in shape.fields}))
        return state, None
    board: str = getattr(state, "board")  # noqa: B009 - a field of a model made at start-up
    if shape.carries_board(state):
        raw = {f: sent_state[f] for f in shape.fields if f in sent_state}
        try:
            model = shape.inline_board(state)
        except ValidationError as exc:  # a board sent in part: its missing fields, named
            raise Malformed.of(exc, raw, at.strip("/").split("/")) from None
        store.store(ruleset, board, raw, model, f"{at}/board")
    else:
        stored = store.local(ruleset.id, board)
        if stored is None:
            raise BoardNotFound(ruleset.id, board, f"{at}/board")
        model = stored.model
    return shape.whole(state, model), board

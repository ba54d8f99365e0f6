"""Boards by reference: the static part of a state (a hex map, a region or area graph, a
territory board) named by the SHA-256 of its JSON, so that a client who has sent its board
once sends some seventy bytes in its place afterwards, on the pattern GraphQL clients know
as automatic persisted queries.

A ruleset names its board fields (``Ruleset.board_fields``). The board of a state is the
JSON object holding those fields, and its id is ``"sha256:"`` followed by the lowercase
hex SHA-256 of that object's JSON written with the keys of every object sorted, no
whitespace, and strings in UTF-8 with only the escapes JSON requires (what
``orjson.dumps(board, option=OPT_SORT_KEYS)`` writes). A state then carries either its
board fields, or ``"board": "<id>"`` in their place, or both (which registers the board:
its id must match its content).

This module is pure: how boards are stored (memory, Redis) is the transport's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, Discriminator, Field, Tag, create_model

from arbiter.engine.wire import Frozen

BOARD_ID_PATTERN = r"^sha256:[0-9a-f]{64}$"
# The tags pydantic puts in an error's location between a request's ``state`` and its
# fields (which form the state came in): not part of the JSON, left out of pointers.
STATE_FORMS = ("inline", "reference")
BoardId = Annotated[str, Field(pattern=BOARD_ID_PATTERN, description=(
    "The id of a board the service knows: sha256: and the hex SHA-256 of the board's JSON "
    "(its board fields as one object, keys sorted at every level, no whitespace, UTF-8)."))]


def board_id(board: Mapping[str, Any]) -> str:
    """The id of a board given as JSON (the object of its board fields, as sent)."""
    return id_of(board_json(board))


def board_json(board: Mapping[str, Any]) -> bytes:
    """A board's canonical JSON, the bytes its id is the hash of."""
    return orjson.dumps(board, option=orjson.OPT_SORT_KEYS)


def id_of(canonical: bytes) -> str:
    """The id of a board from its canonical JSON (``board_json``)."""
    return "sha256:" + hashlib.sha256(canonical).hexdigest()


@dataclass(frozen=True, eq=False)
class BoardShape:
    """The models a ruleset's boards travel in: ``board_model`` holds the board fields
    alone (what ``PUT .../boards/{id}`` takes), ``reference_model`` is the state with
    ``board`` in place of them (or beside them, to register the board)."""

    fields: tuple[str, ...]
    state_model: type[BaseModel]
    board_model: type[BaseModel]
    reference_model: type[BaseModel]

    def state_input(self) -> Any:
        """The annotation of a request's ``state``: the state as it is, or by reference,
        told apart by the presence of ``board`` (one model tried, never both)."""
        return Annotated[
            Annotated[self.state_model, Tag(STATE_FORMS[0])]
            | Annotated[self.reference_model, Tag(STATE_FORMS[1])],
            Discriminator(_inline_or_reference)]

    def carries_board(self, reference: BaseModel) -> bool:
        """A reference that sends its board too (to register it)."""
        return any(getattr(reference, f) is not None for f in self.fields)

    def inline_board(self, reference: BaseModel) -> BaseModel:
        """The board a registering reference carries, as the board model."""
        return self.board_model.model_validate(
            {f: getattr(reference, f) for f in self.fields})

    def whole(self, reference: BaseModel, board: BaseModel) -> BaseModel:
        """The state a reference stands for, its board filled in. Every field comes from a
        model that validated it with the state model's own annotation (the reference
        model copies them; the board model too), so the state is put together without a
        second validation, and the board's values are the very objects the service keeps
        (a ruleset may recognise its board by them)."""
        return self.state_model.model_construct(**{
            name: getattr(board, name) if name in self.fields else getattr(reference, name)
            for name in self.state_model.model_fields})


def _inline_or_reference(value: Any) -> Literal["inline", "reference"]:
    if isinstance(value, Mapping):
        return "reference" if "board" in value else "inline"
    return "reference" if hasattr(value, "board") else "inline"


def board_shape(state_model: type[BaseModel], fields: tuple[str, ...]) -> BoardShape:
    """The board and reference models of ``state_model`` whose board is ``fields``."""
    known = state_model.model_fields
    missing = [f for f in fields if f not in known]
    if missing or not fields:
        raise ValueError(f"{state_model.__name__}: board fields {missing or fields} unknown")
    board_fields: dict[str, Any] = {f: (known[f].annotation, known[f]) for f in fields}
    board_model = create_model(f"{state_model.__name__}Board", __base__=Frozen,
                               __doc__=f"The board of a {state_model.__name__}: "
                                       f"{', '.join(fields)}.", **board_fields)
    reference_fields: dict[str, Any] = {
        "board": (BoardId, Field(description="The board by reference, in place of "
                                 f"{', '.join(fields)}; send both to register it.")),
    }
    for name, info in known.items():
        if name in fields:
            annotation: Any = info.annotation
            optional: Any = annotation | None
            reference_fields[name] = (optional, Field(default=None,
                                                      description=info.description))
        else:
            reference_fields[name] = (info.annotation, info)
    reference_model = create_model(
        f"{state_model.__name__}ByReference", __base__=Frozen,
        __doc__=f"A {state_model.__name__} whose board ({', '.join(fields)}) is named by "
                "its id.", **reference_fields)
    return BoardShape(fields, state_model, board_model, reference_model)

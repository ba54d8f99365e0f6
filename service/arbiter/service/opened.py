"""A state the service has opened to judge: read strictly, whole (its board filled in),
within the limits, its signature checked. Whole requests (REST, the CLI) open the state
they carry and judge their action against it; a transport that asks one state several
questions (GraphQL) opens it once and asks each question of the same ``Opened``."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import orjson
from pydantic import BaseModel

from arbiter.engine.judging import Ruling
from arbiter.engine.registry import AnyRuleset
from arbiter.engine.ruleset import Position
from arbiter.service.answer_cache import digest
from arbiter.service.contract import Outcome as Answer
from arbiter.service.hidden import CLEAR, Opening


@dataclass(eq=False)
class Opened:
    """``state`` whole; ``board`` the id its board came by (None: inline); ``signed``: it
    came signed and its signature holds (its resulting states are signed); ``digest`` and
    ``size``: of its JSON as sent, which key the answers cached for it; ``sent``: that JSON
    itself, the state as the client holds it, which a patch answer is made against."""

    ruleset: AnyRuleset
    state: BaseModel
    board: str | None = None
    signed: bool = False
    digest: bytes = b""
    size: int = 0
    sent: Any = None
    opening: Opening = CLEAR
    _position: Position[Any, Any, Any] | None = field(default=None, repr=False)

    def position(self) -> Position[Any, Any, Any]:
        """The state compiled, once for every action judged against it (raises the
        engine's ``InvalidInput`` for a state that cannot be judged, each time asked)."""
        if self._position is None:
            self._position = self.ruleset.position(self.state)
        return self._position

    def after(self, ruling: Ruling, actions: list[Any], mode: str, answered: Any = None
              ) -> Opened | None:
        """The state ``ruling`` resulted in (after ``actions`` from this one), to ask more
        questions of; None when no state resulted. Its digest, which keys cached answers,
        is a digest of what determines it: this state's digest, the actions and the mode;
        the JSON it was sent as is the resulting state's as the answer has it (``answered``,
        its hidden fields sealed as they came; a client that asked for a patch holds it once
        the patch is applied)."""
        result = ruling.result
        if result is None:
            return None
        material = [self.digest, mode.encode()]
        material += [orjson.dumps(a.model_dump(mode="json")) for a in actions]
        lean = "board" in result.state
        return Opened(self.ruleset, result.model, self.board if lean else None,
                      self.signed and ruling.outcome.legal,
                      digest(b"next\0" + b"\0".join(material)), self.size,
                      result.state if answered is None else answered, self.opening)


@dataclass(eq=False)
class Judged:
    """One action judged against an ``Opened`` state: the answer's fields (written as
    JSON by a whole request, made into the model by GraphQL: ``answer``), and how to reach
    the state it resulted in, to ask more questions of (``after``: made once, when first
    asked; a whole request never asks)."""

    fields: dict[str, Any]
    opened: Opened
    ruling: Ruling
    action: Any
    mode: str
    # The resulting state as answered (its hidden fields sealed as they came).
    answered: Any = None
    _after: list[Opened | None] = field(default_factory=list, repr=False)

    @cached_property
    def answer(self) -> Answer:
        """The answer as its model."""
        return Answer.model_construct(**self.fields)

    def after(self) -> Opened | None:
        """The state the action resulted in, opened (None when none resulted)."""
        if not self._after:
            self._after.append(self.opened.after(self.ruling, [self.action], self.mode,
                                                 self.answered))
        return self._after[0]

"""How a validate answer returns its resulting state (the request's ``return``): whole
(``state``, naming its board when it came so), as an RFC 6902 patch against the state the
client sent (``patch``: ``service.patch``), or not at all (``omit``; ``state_hash``
stays). The answer is the engine's ``Outcome`` with the state so returned and the
resulting state's signature beside it (``contract.Outcome``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arbiter.engine.outcome import Outcome
from arbiter.service.contract import Outcome as Answer
from arbiter.service.contract import Returns
from arbiter.service.patch import json_patch
from arbiter.service.signing import StateSignature


@dataclass(frozen=True, slots=True)
class Returned:
    """``returns`` as the request said it; ``sent`` gives the state the request sent, as
    JSON (read only to make a patch)."""

    returns: Returns
    sent: Callable[[], Any]

    def answer(self, outcome: Outcome, signature: StateSignature | None = None,
               before: Any = None) -> Answer:
        """The answer for ``outcome``; a patch is made against ``before`` (default: the
        state sent)."""
        return Answer.model_construct(**self.fields(outcome, signature, before))

    def fields(self, outcome: Outcome, signature: StateSignature | None = None,
               before: Any = None) -> dict[str, Any]:
        """The answer's fields (``answer``'s), for a caller that writes them as JSON
        without making the model (``writing.outcome_json``)."""
        fields = dict(outcome.__dict__, patch=None, signature=signature)
        if self.returns != "state" and outcome.state is not None:
            fields["state"] = None
            if self.returns == "patch":
                base = before if before is not None else self.sent()
                fields["patch"] = json_patch(base, outcome.state)
        return fields

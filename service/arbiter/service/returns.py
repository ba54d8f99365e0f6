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
from arbiter.service.patch import applied, json_patch
from arbiter.service.signing import StateSignature


@dataclass(frozen=True, slots=True)
class Held:
    """A state as the client holds it after applying a patch (``held``: with no default
    it never sent), and as the service made it (``filled``)."""

    held: Any
    filled: Any


@dataclass(frozen=True, slots=True)
class Returned:
    """``returns`` as the request said it; ``sent`` gives the state the request sent, as
    JSON (read only to make a patch)."""

    returns: Returns
    sent: Callable[[], Any]
    # The state sent as read (its defaults filled in), as JSON: what a patch leaves
    # alone where the client sent nothing (``patch.json_patch``).
    filled: Callable[[], Any] | None = None

    def answer(self, outcome: Outcome, signature: StateSignature | None = None,
               before: Held | None = None) -> Answer:
        """The answer for ``outcome``; a patch is made against ``before`` (default: the
        state sent)."""
        return Answer.model_construct(**self.fields(outcome, signature, before))

    def next(self, before: Held | None, fields: dict[str, Any], state: Any) -> Held | None:
        """What the client holds once it has applied this answer's patch (``fields``) to
        what it held (``before``; default: the state sent), beside the state the service
        made (``state``): the next patch of a sequence is made against it."""
        if self.returns != "patch" or fields.get("patch") is None:
            return None
        held = before.held if before is not None else self.sent()
        return Held(applied(held, fields["patch"]), state)

    def fields(self, outcome: Outcome, signature: StateSignature | None = None,
               before: Held | None = None) -> dict[str, Any]:
        """The answer's fields (``answer``'s), for a caller that writes them as JSON
        without making the model (``writing.outcome_json``)."""
        fields = dict(outcome.__dict__, patch=None, signature=signature)
        if self.returns != "state" and outcome.state is not None:
            fields["state"] = None
            if self.returns == "patch":
                if before is not None:  # (the client's copy of a state judged in turn)
                    fields["patch"] = json_patch(before.held, outcome.state, before.filled)
                else:
                    filled = self.filled() if self.filled is not None else None
                    fields["patch"] = json_patch(self.sent(), outcome.state, filled)
        return fields

"""The judging pipeline, the same for every ruleset: parse the state and the action,
compile the board, judge, apply, check that the resulting state is a valid state, and
conclude the ``Outcome``. A ruleset fills in typed parts (``ruleset.Ruleset``); it never
runs this pipeline itself.

The rules of strict and advisory mode live here once: a legal action is applied; an
illegal one is applied only in advisory mode and only when its effect is well defined,
its violations then downgraded to warnings beside the resulting state.

Legal actions are derived from ``judge`` too, not written twice: ``engine.legal``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from arbiter.engine.draft import BoardRef, Draft, keeping_pristine
from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.outcome import Mode, Outcome, StateSignature, Verdict

S = TypeVar("S", bound=BaseModel)

# The facts a frontend shows beside a verdict: given as they are, or as a function that
# makes them, for facts that cost something to find (what is in range at the destination),
# so that judging a candidate for legal-actions, which reads only the verdict, never pays.
Derived = Mapping[str, Any] | Callable[[], Mapping[str, Any]]


@dataclass(slots=True)
class Judgement:
    """What ``judge`` found: every violation and (once applied) every event in ``verdict``;
    ``apply`` writes the action's effect into a ``Draft`` of the state (None when the effect
    is undefined whatever the mode); the derived facts; and whether the step can be undone
    at the table (false once something was drawn, rolled or revealed)."""

    verdict: Verdict
    apply: Callable[[], Draft] | None = None
    derived: Derived = field(default_factory=dict)
    reversible: bool = True

    def facts(self) -> dict[str, Any]:
        derived = self.derived
        return dict(derived() if callable(derived) else derived)


def settle(draft: Draft, state_model: type[S], board: BoardRef | None = None
           ) -> tuple[S, dict[str, Any], str]:
    """The resulting state as the ruleset's model, as JSON (naming its board when it came
    so, unchanged) and its hash. A state the model refuses (a count pushed past its bound)
    is never returned: it is a 422 on the action, which is what would produce it, with the
    offending field of the resulting state named."""
    try:
        model = state_model.model_validate(draft.candidate())
    except ValidationError as exc:
        raise InvalidInput([
            Problem("/action", "the resulting state would be out of bounds at "
                    f"/{'/'.join(map(str, e['loc']))}: {e['msg']}")
            for e in exc.errors()]) from None
    state, digest = draft.as_json(board)
    return model, state, digest


# Signs a state from its signing digest (the transport's keys: ``api/signing.py``).
Seal = Callable[[str], StateSignature]


@dataclass(frozen=True, slots=True)
class Signing:
    """What judging a signed state makes besides its outcome: ``board_fields`` (which a
    signing digest replaces by their own digests), the ``seal`` that signs a legal
    action's resulting state, and the state judged when its signing digest is wanted too
    (``judged``: to check its signature)."""

    board_fields: tuple[str, ...]
    seal: Seal | None = None
    judged: BaseModel | None = None


def conclude(ruleset: str, version: str, judgement: Judgement, mode: Mode,
             state_model: type[BaseModel], board: BoardRef | None = None, *,
             signing: Signing | None = None) -> Outcome:
    """The Outcome of a judgement. The effect is applied only when the state is returned,
    so an illegal strict action costs nothing more. ``board``: the state named its board,
    which the resulting state names too when the action left it as it was. ``signing``:
    the state judged came signed; the resulting state of a legal action is sealed, and
    the outcome carries the state judged's signing digest when asked."""
    verdict = judgement.verdict
    apply = judgement.apply
    applied = apply is not None and (verdict.legal or (mode == "advisory" and verdict.applicable))
    if not applied or apply is None:
        return Outcome(ruleset=ruleset, ruleset_version=version, legal=verdict.legal,
                       applied=False, violations=verdict.violations,
                       derived=judgement.facts())
    judged = signing.judged if signing is not None else None
    if judged is None:
        draft = apply()
    else:
        with keeping_pristine():
            draft = apply()
    model, new_state, digest = settle(draft, state_model, board)
    violations = verdict.violations
    if not verdict.legal:
        violations = [v.model_copy(update={"severity": "warning"}) for v in violations]
    signature = None
    if signing is not None and signing.seal is not None and verdict.legal:
        # Only a legal action's state: one advisory mode applied despite its violations
        # is no state the rules reach, and comes back unsigned.
        signature = signing.seal(draft.signing_digest(signing.board_fields))
    outcome = Outcome(
        ruleset=ruleset, ruleset_version=version, legal=verdict.legal, applied=True,
        violations=violations, state=new_state, events=verdict.events,
        derived=judgement.facts(), reversible=judgement.reversible, state_hash=digest,
        signature=signature)
    outcome._state_model = model
    if signing is not None and judged is not None and draft.base is judged:
        # (A draft of some other state could not tell the judged state's digest.)
        outcome._judged_digest = draft.base_digest(signing.board_fields)
    return outcome

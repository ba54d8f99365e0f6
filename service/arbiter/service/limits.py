"""The service-wide input limits, checked on every parsed request whatever its transport.

Sizes are checked on the parsed models, before any rule runs: a state's top-level lists
and maps (``ARBITER_MAX_CELLS``, 413), an action's or a query's lists
(``ARBITER_MAX_ACTION_STEPS``, 422) and a batch (``ARBITER_MAX_BATCH``, 422); the
rulesets' own ``max_length`` bounds apply first.

Answers (``ARBITER_MAX_ANSWER_BYTES``, 413): predicted before they are built where they
can be (a batch's outcomes, a query's ``engine.bounds.check_answer``), else measured, and
added up over the questions of a request that asks several (GraphQL).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, RootModel

from arbiter.engine.errors import Problem, pointer
from arbiter.service.account import spent_now
from arbiter.service.problems import LimitExceeded, answer_too_large
from arbiter.settings import Settings

# An outcome without its state: verdict, violations, events (a generous estimate).
OUTCOME_BYTES = 512
# 4 MiB: see docs/hardening.md for how it and the pod's memory limit are derived.
DEFAULT_MAX_ANSWER_BYTES = 4 << 20

_COLLECTIONS = (list, tuple, dict, set, frozenset)


def _collections(model: BaseModel) -> list[tuple[str, int]]:
    """(field name, length) of each list, tuple or map held directly by ``model`` (its
    fields are its ``__dict__``, in their order: read on every request, so read fast)."""
    return [(name, len(value)) for name, value in model.__dict__.items()
            if isinstance(value, _COLLECTIONS)]


def _root(model: Any) -> Any:
    return model.root if isinstance(model, RootModel) else model


@dataclass(frozen=True)
class Limits:
    max_cells: int = 10_000
    max_action_steps: int = 1000
    max_batch: int = 200
    max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(settings.max_cells, settings.max_action_steps, settings.max_batch,
                   settings.max_answer_bytes)

    def check_size(self, size: int, what: str = "the answer") -> None:
        """413 for one answer of ``size`` bytes over ``ARBITER_MAX_ANSWER_BYTES``."""
        if size > self.max_answer_bytes:
            raise answer_too_large(size, self.max_answer_bytes, what)

    def check_answer(self, size: int, what: str = "the answer") -> None:
        """``check_size`` for every answer the request has made so far added up (a
        GraphQL request's questions and their aliases each add theirs)."""
        spent = spent_now()
        spent.answer_bytes += size
        self.check_size(spent.answer_bytes, what)

    def check_outcomes(self, actions: int, state_bytes: int, whole_states: bool,
                       add_up: bool = False) -> None:
        """Before judging: one outcome per action, each with its resulting state when the
        request asks for whole states, predicted against the answer limit (a 285 KB
        validate-batch once answered 72 MB). ``add_up``: counted with the request's other
        answers (GraphQL)."""
        per_outcome = OUTCOME_BYTES + (state_bytes if whole_states else 0)
        what = f"{actions} outcome{'s' if actions != 1 else ''} of about {per_outcome} bytes"
        (self.check_answer if add_up else self.check_size)(actions * per_outcome, what)

    def check_state(self, state: Any, root: str = "state") -> None:
        problems = [Problem(pointer(root, name), f"{length} entries; at most "
                            f"{self.max_cells} (ARBITER_MAX_CELLS)")
                    for name, length in _collections(_root(state)) if length > self.max_cells]
        if problems:
            raise LimitExceeded(413, "ARBITER_MAX_CELLS", self.max_cells, problems)

    def check_steps(self, model: Any, *root: str | int, skip: tuple[str, ...] = ()) -> None:
        problems = [Problem(pointer(*root, name), f"{length} entries; at most "
                            f"{self.max_action_steps} (ARBITER_MAX_ACTION_STEPS)")
                    for name, length in _collections(_root(model))
                    if length > self.max_action_steps and name not in skip]
        if problems:
            raise LimitExceeded(422, "ARBITER_MAX_ACTION_STEPS", self.max_action_steps,
                                problems)

    def check_batch(self, count: int, where: str = "/actions") -> None:
        if count > self.max_batch:
            raise LimitExceeded(422, "ARBITER_MAX_BATCH", self.max_batch, [Problem(
                where, f"{count} actions; at most {self.max_batch} actions per batch "
                "(ARBITER_MAX_BATCH)")])

    def check_request(self, request: BaseModel) -> None:
        """Every limit that applies to a parsed REST body (validate, validate-batch or a
        query): the state's size, the action's or each batched action's lists, the batch's
        length, and the query's own lists."""
        fields = type(request).model_fields
        if "state" in fields:
            self.check_state(getattr(request, "state"))  # noqa: B009 - a field, not an attr
        if "actions" in fields:
            actions = getattr(request, "actions")  # noqa: B009
            self.check_batch(len(actions))
            for i, action in enumerate(actions):
                self.check_steps(action, "actions", i)
        if "action" in fields:
            self.check_steps(getattr(request, "action"), "action")  # noqa: B009
        self.check_steps(request, skip=("state", "actions", "action"))

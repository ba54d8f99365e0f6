"""The rulesets the table's commands can be asked of: each one's id and the queries it
answers, known before any ruleset is built, and each built when a command runs on it.

Start-up is most of a command's time at the table, and building a ruleset (its pydantic
models) most of the start-up: ``arbiter --help`` and ``arbiter check --help`` list the
built-in rulesets from the queries their packages declare (``arbiter.rulesets.answers``),
and ``arbiter check RULESET ...`` builds that ruleset alone. Built from a registry (the
rulesets a caller registered itself), they are its rulesets, already built."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: listing the rulesets builds no engine
    from arbiter.engine.registry import AnyRuleset, Registry


class Choices:
    def __init__(self, answers: Mapping[str, frozenset[str]],
                 build: Callable[[str], AnyRuleset]) -> None:
        self._answers = dict(answers)
        self._build = build

    @classmethod
    def builtin(cls) -> Choices:
        """The built-in rulesets, none of them built yet."""
        from arbiter.rulesets import answers, load, names

        return cls({name: answers(name) for name in names()}, load)

    @classmethod
    def of(cls, registry: Registry) -> Choices:
        """The rulesets of ``registry``."""

        def get(ruleset_id: str) -> AnyRuleset:
            ruleset = registry.get(ruleset_id)
            assert ruleset is not None  # asked for one of its ids only
            return ruleset

        return cls({r.id: frozenset(r.queries) for r in registry}, get)

    def ids(self) -> list[str]:
        return sorted(self._answers)

    def queries(self) -> list[str]:
        """Every query some ruleset answers, by name."""
        return sorted({query for answers in self._answers.values() for query in answers})

    def answering(self, query: str) -> list[str]:
        """The ids of the rulesets that answer ``query``."""
        return [i for i in self.ids() if query in self._answers[i]]

    def get(self, ruleset_id: str) -> AnyRuleset:
        """Ruleset ``ruleset_id`` (one of ``ids()``), built."""
        return self._build(ruleset_id)

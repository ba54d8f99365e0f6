"""The registry of rulesets the service serves. The transport discovers everything it serves
from here, so adding a ruleset never touches the API code."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arbiter.engine.ruleset import Ruleset

AnyRuleset = Ruleset[Any, Any, Any]


class Registry:
    def __init__(self) -> None:
        self._rulesets: dict[str, AnyRuleset] = {}

    def register(self, ruleset: AnyRuleset) -> None:
        if ruleset.id in self._rulesets:
            raise ValueError(f"ruleset {ruleset.id} is registered twice")
        self._rulesets[ruleset.id] = ruleset

    def get(self, ruleset_id: str) -> AnyRuleset | None:
        return self._rulesets.get(ruleset_id)

    def __iter__(self) -> Iterator[AnyRuleset]:
        return iter(sorted(self._rulesets.values(), key=lambda r: r.id))

    def ids(self) -> list[str]:
        return sorted(self._rulesets)

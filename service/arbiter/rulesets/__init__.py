"""The built-in rulesets, one package each under this folder, each exposing ``RULESET``.
``builtin_registry()`` is what the service serves: every subpackage here, in name order."""

from __future__ import annotations

import importlib
import pkgutil

from arbiter.engine.registry import Registry, Ruleset


def names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def load(name: str) -> Ruleset:
    module = importlib.import_module(f"{__name__}.{name}")
    ruleset: Ruleset = module.RULESET
    return ruleset


def builtin_registry() -> Registry:
    registry = Registry()
    for name in names():
        registry.register(load(name))
    return registry

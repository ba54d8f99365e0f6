"""The built-in rulesets, one package each under this folder, each exposing ``RULESET``.
``builtin_registry()`` is what the service serves: every subpackage here, in name order.
(A ruleset with a picture, its ``scene.py``, serves ``RULESET`` through
``arbiter.pictures.render.pictured``, so the served object is the module's own.)"""

from __future__ import annotations

import importlib
import pkgutil

from arbiter.engine.registry import AnyRuleset, Registry
from arbiter.engine.ruleset import Ruleset


def names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def load(name: str) -> AnyRuleset:
    module = importlib.import_module(f"{__name__}.{name}")
    ruleset = module.RULESET
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{name}.RULESET is not an arbiter.engine.ruleset.Ruleset")
    return ruleset


def builtin_registry(only: str = "") -> Registry:
    """Every built-in ruleset, or those named in ``only`` (comma-separated ids)."""
    wanted = [n.strip() for n in only.split(",") if n.strip()] or names()
    unknown = sorted(set(wanted) - set(names()))
    if unknown:
        raise ValueError(f"unknown rulesets in ARBITER_RULESETS: {', '.join(unknown)}")
    registry = Registry()
    for name in wanted:
        registry.register(load(name))
    return registry

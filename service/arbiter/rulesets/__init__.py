"""The built-in rulesets, one package each under this folder, each exposing ``RULESET``
and declaring ``ANSWERS``, the queries it answers. ``builtin_registry()`` is what the
service serves: every subpackage here, in name order. (A ruleset with a picture, its
``scene.py``, serves ``RULESET`` through ``arbiter.pictures.render.pictured``, so the served
object is the module's own.)

A package's ``__init__`` builds nothing: ``RULESET`` (its models, about 80 ms a ruleset)
is built when first asked for, so ``names()`` and ``answers()`` import no model, and
neither the engine nor pydantic (``arbiter --help`` lists every ruleset's queries from
them). ``load`` refuses a ruleset that answers other queries than it declares, so the
declaration cannot drift from what the service serves."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: names() and answers() load no engine
    from arbiter.engine.registry import AnyRuleset, Registry


def built_on_first_use(package: str) -> Callable[[str], object]:
    """A ruleset package's module ``__getattr__`` (PEP 562): its ``RULESET``, imported from
    its ``ruleset`` module when first asked for, so importing the package builds nothing."""

    def __getattr__(name: str) -> object:
        if name == "RULESET":
            return importlib.import_module(f"{package}.ruleset").RULESET
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


def names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def answers(name: str) -> frozenset[str]:
    """The queries built-in ruleset ``name`` answers, as its package declares them."""
    declared = getattr(importlib.import_module(f"{__name__}.{name}"), "ANSWERS", None)
    if not isinstance(declared, tuple) or not all(isinstance(q, str) for q in declared):
        raise TypeError(f"{name}.ANSWERS, the queries it answers, is missing or not a "
                        "tuple of query names")
    return frozenset(declared)


def load(name: str) -> AnyRuleset:
    from arbiter.engine.ruleset import Ruleset

    ruleset = importlib.import_module(f"{__name__}.{name}").RULESET
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{name}.RULESET is not an arbiter.engine.ruleset.Ruleset")
    declared = answers(name)
    if set(ruleset.queries) != declared:
        raise TypeError(f"{name}.ANSWERS declares {sorted(declared)}, but its RULESET "
                        f"answers {sorted(ruleset.queries)}")
    return ruleset


def builtin_registry(only: str = "") -> Registry:
    """Every built-in ruleset, or those named in ``only`` (comma-separated ids)."""
    from arbiter.engine.registry import Registry

    wanted = [n.strip() for n in only.split(",") if n.strip()] or names()
    unknown = sorted(set(wanted) - set(names()))
    if unknown:
        raise ValueError(f"unknown rulesets in ARBITER_RULESETS: {', '.join(unknown)}")
    registry = Registry()
    for name in wanted:
        registry.register(load(name))
    return registry

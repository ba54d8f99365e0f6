"""The artefacts in ``schema/``: the OpenAPI document, the GraphQL SDL and each ruleset's
state and action JSON Schemas. Generated, committed, and checked for drift by the tests
and ``make schema-check``."""

from __future__ import annotations

from pathlib import Path

import orjson

from arbiter import __version__
from arbiter.engine.registry import Registry
from arbiter.graphql.schema import build_schema
from arbiter.http.openapi import build_openapi
from arbiter.rulesets import builtin_registry
from arbiter.settings import Settings

_JSON = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS


def render(registry: Registry | None = None) -> dict[str, bytes]:
    """Relative path -> file content, with the default settings (not the environment's),
    so the artefacts do not depend on where they were generated."""
    registry = registry or builtin_registry()
    settings = Settings()
    openapi = build_openapi(registry, __version__, max_batch=settings.max_batch)
    files = {
        "openapi.json": orjson.dumps(openapi, option=_JSON) + b"\n",
        "schema.graphql": build_schema(registry, settings).as_str().encode() + b"\n",
    }
    for ruleset in registry:
        for which, model in (("state", ruleset.state_model), ("action", ruleset.action_model)):
            files[f"jsonschema/{ruleset.id}.{which}.json"] = orjson.dumps(
                model.model_json_schema(), option=_JSON) + b"\n"
    return files


def export(out: Path, registry: Registry | None = None) -> list[Path]:
    written = []
    for old in out.rglob("*"):
        if old.is_file():
            old.unlink()
    for rel, content in render(registry).items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        written.append(path)
    return written


def stale(out: Path, registry: Registry | None = None) -> list[str]:
    """Files in ``out`` that differ from what the code generates (or are missing/extra)."""
    expected = render(registry)
    found = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    diffs = [rel for rel, content in expected.items()
             if not (out / rel).is_file() or (out / rel).read_bytes() != content]
    diffs += sorted(found - set(expected))
    return sorted(diffs)

"""Configuration from environment variables, read once at start-up.

Every variable the service reads is declared in ``VARIABLES`` with its default and a
sentence of documentation; the README's configuration table and the deploy manifests are
checked against this list by the tests.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Variable:
    name: str
    default: str
    doc: str


VARIABLES: tuple[Variable, ...] = (
    Variable("ARBITER_HOST", "127.0.0.1", "Address `arbiter serve` binds."),
    Variable("ARBITER_PORT", "8000", "Port `arbiter serve` listens on."),
    Variable("ARBITER_WORKERS", "1", "uvicorn worker processes."),
    Variable("ARBITER_LOG_LEVEL", "info", "Log level (debug, info, warning, error)."),
    Variable("ARBITER_MAX_BODY_BYTES", "1048576", "Largest request body accepted; larger "
             "bodies get 413."),
    Variable("ARBITER_REDIS_URL", "", "Redis for the shared pathfinding cache "
             "(redis://, rediss://, unix://, redis+cluster://, redis+sentinel://); empty: "
             "in-process cache only."),
    Variable("ARBITER_CACHE_SIZE", "4096", "Entries in the in-process cache (0: off)."),
    Variable("ARBITER_CACHE_MAX_BYTES", "67108864", "Bytes of answers the in-process cache "
             "holds at most."),
    Variable("ARBITER_CACHE_TTL_SECONDS", "3600", "Lifetime of a cached answer in Redis."),
    Variable("ARBITER_REDIS_TIMEOUT_MS", "50", "Connect and command timeout for Redis."),
    Variable("ARBITER_REDIS_KEY_PREFIX", "", "Prepended to every Redis key (to share one "
             "Redis between deployments)."),
    Variable("ARBITER_REDIS_MIN_CELLS", "300", "Smallest board (hexes or regions) whose "
             "answers go through Redis; smaller boards compute faster than a round trip."),
    Variable("ARBITER_REDIS_COOLDOWN_SECONDS", "5", "How long the circuit breaker stops "
             "calling a failing Redis before trying again."),
    Variable("ARBITER_GRAPHQL_MAX_DEPTH", "12", "Deepest GraphQL query accepted."),
    Variable("ARBITER_GRAPHQL_MAX_ALIASES", "30", "Most aliases in one GraphQL query."),
    Variable("ARBITER_GRAPHQL_MAX_TOKENS", "2000", "Most tokens in one GraphQL document."),
    Variable("ARBITER_MAX_BATCH", "200", "Most actions in one validate-batch request."),
    Variable("ARBITER_RULESETS", "", "Comma-separated ruleset ids to serve; empty: all "
             "built-in rulesets."),
    Variable("ARBITER_PUBLIC_URL", "http://127.0.0.1:8000", "Base URL the JSON Schema links "
             "(GraphQL @specifiedBy, OpenAPI) point at."),
)


@dataclass(frozen=True, slots=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    log_level: str = "info"
    max_body_bytes: int = 1_048_576
    redis_url: str = ""
    cache_size: int = 4096
    cache_max_bytes: int = 67_108_864
    cache_ttl_seconds: int = 3600
    redis_timeout_ms: int = 50
    redis_key_prefix: str = ""
    redis_min_cells: int = 300
    redis_cooldown_seconds: int = 5
    graphql_max_depth: int = 12
    graphql_max_aliases: int = 30
    graphql_max_tokens: int = 2000
    max_batch: int = 200
    rulesets: str = ""
    public_url: str = "http://127.0.0.1:8000"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = env.get(f"ARBITER_{f.name.upper()}")
            if raw is None or (raw == "" and f.type != "str"):
                continue
            values[f.name] = int(raw) if f.type == "int" else raw
        return cls(**values)  # type: ignore[arg-type]

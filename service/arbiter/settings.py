"""Configuration from environment variables, read once at start-up.

Every variable the service reads is declared in ``VARIABLES`` with its default and a
sentence of documentation; the README's configuration table and the deploy manifests are
checked against this list by the tests.
"""

from __future__ import annotations

import hashlib
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
    Variable("ARBITER_REDIS_MIN_BYTES", "1024", "Smallest request (bytes of JSON) whose "
             "answer goes through Redis; smaller ones compute faster than a round trip."),
    Variable("ARBITER_REDIS_COOLDOWN_SECONDS", "5", "How long the circuit breaker stops "
             "calling a failing Redis before trying again."),
    Variable("ARBITER_GRAPHQL_MAX_DEPTH", "12", "Deepest GraphQL query accepted."),
    Variable("ARBITER_GRAPHQL_MAX_ALIASES", "30", "Most aliases in one GraphQL query."),
    Variable("ARBITER_GRAPHQL_MAX_TOKENS", "2000", "Most tokens in one GraphQL document."),
    Variable("ARBITER_GRAPHQL_MAX_FIELDS", "300", "Most fields in one GraphQL operation, "
             "fragments expanded where they are used."),
    Variable("ARBITER_MAX_BATCH", "200", "Most actions in one validate-batch request."),
    Variable("ARBITER_MAX_CELLS", "10000", "Most entries in any one top-level list or map "
             "of a state (its hexes, regions or territories, armies, adjacency pairs, …); a "
             "larger state gets 413 naming the list."),
    Variable("ARBITER_MAX_ACTION_STEPS", "1000", "Most entries in any list of one action or "
             "query (a maneuver's path, drops and pick-ups, a redeployment's moves, a query's "
             "targets); more gets 422 naming the list."),
    Variable("ARBITER_COMPUTE_BUDGET_MS", "5000", "Wall-clock time one request may spend "
             "judging (parsing, the rules, serialising); a request over it is stopped and "
             "gets 422 naming this limit. 0: no budget."),
    Variable("ARBITER_API_KEYS", "", "Comma-separated API keys; when set, every request but "
             "/healthz, /readyz, /metrics, /openapi.json and the GraphiQL page needs one "
             "(`Authorization: Bearer <key>` or `X-API-Key: <key>`); only their SHA-256 "
             "digests are kept in memory."),
    Variable("ARBITER_API_KEY_SHA256", "", "Comma-separated hex SHA-256 digests of further "
             "API keys, so the keys themselves need not be in the environment."),
    Variable("ARBITER_RATE_LIMIT", "0", "Requests per second each API key (each client "
             "address when no keys are set) may make on average; more get 429 with "
             "Retry-After. Shared through ARBITER_REDIS_URL when set. 0: no limit."),
    Variable("ARBITER_RATE_BURST", "20", "Requests a key may make at once above the "
             "average rate (the token bucket's size)."),
    Variable("ARBITER_CORS_ORIGINS", "", "Comma-separated origins browser frontends may "
             "call from (`*`: any); empty: no CORS headers."),
    Variable("ARBITER_LOG_BODIES", "false", "Put request bodies (their first 16 KiB) in the "
             "JSON request log lines; they are left out by default."),
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
    redis_min_bytes: int = 1024
    redis_cooldown_seconds: int = 5
    graphql_max_depth: int = 12
    graphql_max_aliases: int = 30
    graphql_max_tokens: int = 2000
    graphql_max_fields: int = 300
    max_batch: int = 200
    max_cells: int = 10_000
    max_action_steps: int = 1000
    compute_budget_ms: int = 5000
    api_keys: str = ""
    api_key_sha256: str = ""
    rate_limit: float = 0.0
    rate_burst: int = 20
    cors_origins: str = ""
    log_bodies: bool = False
    rulesets: str = ""
    public_url: str = "http://127.0.0.1:8000"

    def __post_init__(self) -> None:
        # Plain API keys never stay in memory: they become SHA-256 digests at once.
        if self.api_keys:
            digests = [hashlib.sha256(key.strip().encode()).hexdigest()
                       for key in self.api_keys.split(",") if key.strip()]
            merged = ",".join(d for d in (self.api_key_sha256, *digests) if d)
            object.__setattr__(self, "api_key_sha256", merged)
            object.__setattr__(self, "api_keys", "")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = env.get(f"ARBITER_{f.name.upper()}")
            if raw is None or (raw == "" and f.type != "str"):
                continue
            if f.type == "int":
                values[f.name] = int(raw)
            elif f.type == "float":
                values[f.name] = float(raw)
            elif f.type == "bool":
                values[f.name] = raw.strip().lower() in ("1", "true", "yes", "on")
            else:
                values[f.name] = raw
        return cls(**values)  # type: ignore[arg-type]  # each value parsed to its field type

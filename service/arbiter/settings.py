"""Configuration from ``ARBITER_*`` environment variables, read and checked once at start-up.

``Settings`` is a pydantic-settings model: every variable is a typed field with its
default, its allowed range and a sentence of documentation. ``Settings.from_env()`` reads
the environment (an empty variable counts as unset) and raises ``SettingsError`` naming
each bad variable, the value it holds and what is allowed, in one line, so ``arbiter serve``
can refuse to start without a traceback. ``Settings(...)`` is the defaults and what it is
given, never the environment, so schema exports and tests do not depend on where they run.

The table of docs/configuration.md is generated from this model (``settings_table``) and
the deploy manifests are checked against ``VARIABLES``, both by the tests.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args, get_origin
from urllib.parse import urlsplit

from annotated_types import Ge, Le
from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    SecretStr,
    ValidationError,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

PREFIX = "ARBITER_"
REDIS_SCHEMES = ("redis", "rediss", "unix", "redis+cluster", "redis+sentinel")
# Values never echoed in an error: they are (or may hold) secrets.
SECRET = {"api_keys", "api_key_sha256", "issuer_keys", "issuer_key_sha256", "state_keys",
          "cache_key"}
# Secrets whose validator's reason names no secret (a key's id, its number, a length).
SAFE_REASONS = {"state_keys", "cache_key"}
# A state key: its id (what a signature names) and its secret.
STATE_KEY_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
MIN_STATE_SECRET = 32


class SettingsError(ValueError):
    """Bad configuration: ``str(error)`` is one line naming each bad variable."""


def _listed(raw: str) -> list[str]:
    return [item.strip() for item in raw.split(",") if item.strip()]


def _host(value: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9._:%\[\]-]{1,253}", value):
        raise ValueError("not an address")
    return value


def _redis_url(value: str) -> str:
    if value and urlsplit(value).scheme not in REDIS_SCHEMES:
        raise ValueError("unknown scheme")
    return value


def _origins(value: str) -> str:
    for origin in _listed(value):
        if origin != "*" and not re.fullmatch(r"https?://[^/\s]+", origin):
            raise ValueError(f"{origin!r} is not an origin")
    return value


def _proxies(value: str) -> str:
    """Addresses and networks uvicorn may trust for X-Forwarded-For (``*``: any)."""
    for item in _listed(value):
        if item != "*":
            ipaddress.ip_network(item, strict=False)  # ValueError names the bad item
    return value


def _cache_key(value: SecretStr) -> SecretStr:
    if value.get_secret_value() and len(value.get_secret_value()) < MIN_STATE_SECRET:
        raise ValueError(f"shorter than {MIN_STATE_SECRET} characters")
    return value


def _digests(value: str) -> str:
    for item in _listed(value):
        if not re.fullmatch(r"[0-9a-fA-F]{64}", item):
            raise ValueError("not a SHA-256 digest")
    return value


def state_key_pairs(raw: str) -> list[tuple[str, str]]:
    """``ARBITER_STATE_KEYS`` as (id, secret) pairs, newest first; ValueError naming what
    is wrong, never a secret."""
    pairs = []
    for number, item in enumerate(_listed(raw), 1):
        key_id, colon, secret = item.partition(":")
        if not colon or not STATE_KEY_ID.fullmatch(key_id.strip()):
            raise ValueError(f"key {number} has no id of 1 to 64 letters, digits and ._- "
                             "before its colon")
        if len(secret.strip()) < MIN_STATE_SECRET:
            raise ValueError(f"the secret of key {key_id.strip()!r} is shorter than "
                             f"{MIN_STATE_SECRET} characters")
        pairs.append((key_id.strip(), secret.strip()))
    ids = [key_id for key_id, _ in pairs]
    if len(set(ids)) != len(ids):
        raise ValueError("a key id is listed twice")
    return pairs


def _state_keys(value: SecretStr) -> SecretStr:
    state_key_pairs(value.get_secret_value())
    return value


def _rulesets(value: str) -> str:
    from arbiter.rulesets import names  # the package list only: no ruleset is imported

    unknown = sorted(set(_listed(value)) - set(names()))
    if unknown:
        raise ValueError(f"unknown: {', '.join(unknown)}; built in: {', '.join(names())}")
    return value


def _url(value: str) -> str:
    if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", value):
        raise ValueError("not an http(s) URL")
    return value


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _allowed(text: str) -> dict[str, Any]:
    """The words an error and docs/configuration.md use for what a text variable may hold."""
    return {"json_schema_extra": {"allowed": text}}


def _int(low: int, high: int, default: int, doc: str) -> Any:
    return Field(default, ge=low, le=high, description=doc)


LogLevel = Literal["debug", "info", "warning", "error", "critical"]
LogFormat = Literal["auto", "json", "text"]


class Settings(BaseSettings):
    """Every setting of the service; the field ``name`` is read from ``ARBITER_NAME``."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, case_sensitive=False,
                                      env_ignore_empty=True, frozen=True, extra="forbid",
                                      validate_default=True)

    host: Annotated[str, AfterValidator(_host)] = Field(
        "127.0.0.1", description="Address `arbiter serve` binds.",
        **_allowed("an IP address or host name (`0.0.0.0`: every interface)"))
    port: int = _int(1, 65535, 8000, "Port `arbiter serve` listens on.")
    workers: int = _int(1, 64, 1, "uvicorn worker processes. With more than one, `arbiter "
                        "serve` keeps Prometheus metrics in a shared directory "
                        "(`PROMETHEUS_MULTIPROC_DIR`) so /metrics adds up every worker.")
    log_level: Annotated[LogLevel, BeforeValidator(_lower)] = Field(
        "info", description="Log level (debug, info, warning, error, critical).")
    log_format: Annotated[LogFormat, BeforeValidator(_lower)] = Field(
        "auto", description="Log lines as `json` (one object a line, for a log pipeline), "
        "`text` (for a person: time, level, the request's method, path, status, duration "
        "and sizes) or `auto`: text when `arbiter serve`'s stderr is a terminal, else JSON.")
    max_body_bytes: int = _int(1, 1 << 30, 1_048_576, "Largest request body accepted; larger "
                               "bodies get 413.")
    redis_url: Annotated[str, AfterValidator(_redis_url)] = Field(
        "", description="Redis for the shared pathfinding cache (redis://, rediss://, unix://, "
        "redis+cluster://, redis+sentinel://); empty: in-process cache only.",
        **_allowed("empty, or a URL starting " + ", ".join(f"`{s}://`" for s in REDIS_SCHEMES)))
    cache_size: int = _int(0, 10_000_000, 4096, "Entries in the in-process cache (0: off).")
    cache_max_bytes: int = _int(0, 1 << 34, 67_108_864, "Bytes of answers the in-process "
                                "cache holds at most.")
    cache_ttl_seconds: int = _int(1, 31_536_000, 3600, "Lifetime of a cached answer in Redis.")
    board_cache_bytes: int = _int(0, 1 << 34, 4_194_304, "Bytes of boards (sent by reference "
                                  "as `\"board\": \"sha256:…\"`, counted as their JSON) each "
                                  "worker keeps parsed; kept parsed and compiled they take about "
                                  "26 times that in memory (docs/hardening.md). Redis keeps them "
                                  "for every replica for ARBITER_BOARD_TTL_SECONDS. 0: none kept "
                                  "(a state that names its board gets board-not-found and is "
                                  "sent inline).")
    board_ttl_seconds: int = _int(1, 31_536_000, 86_400, "Lifetime of a board in Redis.")
    redis_timeout_ms: int = _int(1, 60_000, 50, "Connect and command timeout for Redis.")
    redis_key_prefix: str = Field("", max_length=200, description="Prepended to every Redis "
                                  "key (to share one Redis between deployments).")
    redis_min_bytes: int = _int(0, 1 << 30, 1024, "Smallest request (bytes of JSON) whose "
                                "answer goes through Redis; smaller ones compute faster than "
                                "a round trip (`make bench`: a Redis hit beat computing from "
                                "about 1.1 KB).")
    redis_cooldown_seconds: int = _int(0, 3600, 5, "How long the circuit breaker stops "
                                       "calling a failing Redis before trying again.")
    graphql_max_depth: int = _int(1, 1000, 12, "Deepest GraphQL query accepted.")
    graphql_max_aliases: int = _int(0, 100_000, 30, "Most aliases in one GraphQL query.")
    graphql_max_tokens: int = _int(1, 10_000_000, 2000, "Most tokens in one GraphQL document.")
    graphql_max_fields: int = _int(1, 1_000_000, 300, "Most fields in one GraphQL operation, "
                                   "fragments expanded where they are used.")
    graphql_max_spreads: int = _int(1, 1_000_000, 100, "Most fragment spreads in one GraphQL "
                                    "operation, fragments expanded where they are used; "
                                    "checked, with depth, aliases and fields, in one pass "
                                    "linear in the document before any other validation.")
    max_batch: int = _int(1, 1_000_000, 200, "Most actions in one validate-batch request.")
    max_json_depth: int = _int(1, 254, 64, "Deepest nesting of arrays and objects in a JSON "
                               "body (REST and the GraphQL HTTP body, its variables "
                               "included); deeper gets 422 naming this limit before any "
                               "model reads it. At most 254: what the service writes back "
                               "of a client's JSON must stay within the 255 levels orjson "
                               "writes.")
    max_json_values: int = _int(1, 100_000_000, 131_072, "Most JSON values (every number, "
                                "string, true/false/null, array and object; a member's key "
                                "not counted) in one body; more gets 413 naming this limit "
                                "before any model reads it. The default allows one value "
                                "per 8 bytes of the default ARBITER_MAX_BODY_BYTES (the "
                                "10,000-hex board: one per 10).")
    max_json_string_bytes: int = _int(64, 1 << 30, 65_536, "Longest string (bytes as sent, "
                                      "escapes as written) in one JSON body, a member's key "
                                      "or a GraphQL document included; longer gets 413 "
                                      "naming this limit before any model reads it.")
    max_cells: int = _int(1, 100_000_000, 10_000, "Most entries in any one top-level list or "
                          "map of a state (its hexes, regions or territories, armies, adjacency "
                          "pairs, …); a larger state gets 413 naming the list.")
    max_action_steps: int = _int(1, 100_000_000, 1000, "Most entries in any list of one "
                                 "action or query (a maneuver's path, drops and pick-ups, a "
                                 "redeployment's moves, a query's targets); more gets 422 "
                                 "naming the list.")
    max_answer_bytes: int = _int(1024, 1 << 30, 4 << 20, "Largest answer (bytes of JSON) one "
                                 "request may get, GraphQL aliases added up; predicted "
                                 "before the answer is built where it can be (validate-batch: "
                                 "actions × state, reachable: destinations × paths and "
                                 "targets), else checked on the answer: over it gets 413 "
                                 "naming this limit. The pod's memory limit is derived from "
                                 "it (docs/hardening.md).")
    compute_threads: int = _int(1, 64, 2, "Worker threads per worker process that judge at "
                                "once, off the event loop (so /healthz and /readyz answer "
                                "while they are busy); further requests wait for one.")
    compute_budget_ms: int = _int(0, 3_600_000, 5000, "Wall-clock time one request may spend "
                                  "judging (parsing, the rules, serialising); a request over "
                                  "it is stopped and gets 422 naming this limit. 0: no budget.")
    api_keys: str = Field(
        "", description="Comma-separated API keys; when set, every request but /healthz, "
        "/readyz, /metrics, /openapi.json and the GraphiQL page needs one (`Authorization: "
        "Bearer <key>` or `X-API-Key: <key>`); only their SHA-256 digests are kept in memory.",
        **_allowed("comma-separated keys"))
    api_key_sha256: Annotated[str, AfterValidator(_digests)] = Field(
        "", description="Comma-separated hex SHA-256 digests of further API keys, so the keys "
        "themselves need not be in the environment.",
        **_allowed("comma-separated SHA-256 digests, 64 hex digits each"))
    issuer_keys: str = Field(
        "", description="Comma-separated keys of the game servers that may start games "
        "(`new-game`, REST and GraphQL), sent like an API key; each is also accepted where "
        "an API key is. When set, no other key may start a game. Unset: anyone who may use "
        "the API may, unless ARBITER_STATE_KEYS is set, when nobody may over HTTP (a new "
        "game's state is signed: docs/signing.md). Only their SHA-256 digests are "
        "kept in memory.", **_allowed("comma-separated keys"))
    issuer_key_sha256: Annotated[str, AfterValidator(_digests)] = Field(
        "", description="Comma-separated hex SHA-256 digests of further issuer keys, so the "
        "keys themselves need not be in the environment.",
        **_allowed("comma-separated SHA-256 digests, 64 hex digits each"))
    rate_limit: float = Field(0.0, ge=0, le=1_000_000, allow_inf_nan=False, description=(
        "Requests per second each API key (each client address when no keys are set) may "
        "make on average; more get 429 with Retry-After. Shared through ARBITER_REDIS_URL "
        "when set. 0: no limit."))
    rate_burst: int = _int(1, 10_000_000, 20, "Requests a key may make at once above the "
                           "average rate (the token bucket's size).")
    trusted_proxies: Annotated[str, AfterValidator(_proxies)] = Field(
        "", description="Comma-separated addresses or networks of the proxies in front of the "
        "service whose X-Forwarded-For and X-Forwarded-Proto are believed (the client "
        "address the rate limits and the authentication throttle count by); empty: none, "
        "every request is the peer that sent it.",
        **_allowed("comma-separated IP addresses or CIDR networks, or `*` (any peer: only "
                   "when nothing but the proxy can reach the service)"))
    auth_failure_limit: int = _int(0, 1_000_000, 10, "Failed authentications (no or a wrong "
                                   "API key) one client address may make per minute in each "
                                   "worker; beyond it every request from that address gets "
                                   "429 with Retry-After, before its key is looked at. "
                                   "0: no limit.")
    max_connections: int = _int(1, 1_000_000, 256, "Open connections each worker keeps; a "
                                "request on a connection beyond them gets 503 with "
                                "Retry-After and the connection is closed (/healthz, /readyz "
                                "and /metrics are answered).")
    max_in_flight: int = _int(1, 1_000_000, 64, "Requests each worker answers at once, "
                              "reading their bodies included; one more gets 503 with "
                              "Retry-After (/healthz, /readyz and /metrics are answered). "
                              "With ARBITER_MAX_BODY_BYTES it bounds the memory bodies take.")
    header_timeout_ms: int = _int(100, 3_600_000, 10_000, "Time a connection has to send a "
                                  "request's headers, from its opening or the end of the "
                                  "previous answer; a connection over it is closed.")
    max_header_bytes: int = _int(1024, 1 << 24, 65_536, "Largest request head (request "
                                 "line and headers) a connection may send; a larger one "
                                 "gets 431 and the connection is closed.")
    body_timeout_ms: int = _int(100, 3_600_000, 20_000, "Time a request has to send its whole "
                                "body once its headers are in; over it gets 408 and the "
                                "connection is closed.")
    send_timeout_ms: int = _int(100, 3_600_000, 10_000, "Time a client may leave an "
                                "answer unread (between two reads of it, as nginx's "
                                "send_timeout); past it the connection is closed and the "
                                "request no longer counts in flight.")
    cache_key: Annotated[SecretStr, AfterValidator(_cache_key)] = Field(
        SecretStr(""), description="Secret that keys (HMAC-SHA-256) every value the service "
        "writes to Redis, so one planted by anyone else who can write there is refused (a "
        "miss, counted); the same on every replica. Empty: derived from ARBITER_STATE_KEYS' "
        "newest secret when that is set, else values are only checksummed.",
        **_allowed(f"empty, or a secret of {MIN_STATE_SECRET} characters or more"))
    cache_max_value_bytes: int = _int(1024, 1 << 30, 8 << 20, "Largest value written to or "
                                      "read from Redis; a larger answer or board is kept in "
                                      "the worker only, and a larger value found there is a "
                                      "miss, counted.")
    cors_origins: Annotated[str, AfterValidator(_origins)] = Field(
        "", description="Comma-separated origins browser frontends may call from (`*`: any); "
        "empty: no CORS headers.",
        **_allowed("comma-separated `http(s)://host[:port]` origins, or `*`"))
    log_bodies: bool = Field(False, description="Put request bodies (their first 16 KiB) in "
                             "the JSON request log lines; they are left out by default.")
    rulesets: Annotated[str, AfterValidator(_rulesets)] = Field(
        "", description="Comma-separated ruleset ids to serve; empty: all built-in rulesets.",
        **_allowed("comma-separated ids of built-in rulesets"))
    state_keys: Annotated[SecretStr, AfterValidator(_state_keys)] = Field(
        SecretStr(""), description="Keys that sign game states, comma-separated "
        "`key_id:secret` pairs, newest first: every state that comes from a signed state "
        "(or from `new-game`) comes back signed with the newest, and a state signed with any "
        "key listed is accepted; drop a key from the list to retire it. Empty: states are "
        "not signed (see Signed states).", **_allowed(
            "comma-separated `key_id:secret` pairs: ids of 1 to 64 letters, digits and `._-`, "
            f"secrets of {MIN_STATE_SECRET} characters or more without commas "
            "(`openssl rand -hex 32`)"))
    require_signed_states: bool = Field(
        False, description="Refuse (422, `state-signature`) every request whose state does "
        "not come with a valid signature from a key of ARBITER_STATE_KEYS, which must be set.")
    public_url: Annotated[str, AfterValidator(_url)] = Field(
        "http://127.0.0.1:8000", description="Base URL the JSON Schema links (GraphQL "
        "@specifiedBy, OpenAPI) point at.", **_allowed("an `http://` or `https://` URL"))

    @model_validator(mode="before")
    @classmethod
    def _digest_keys(cls, data: Any) -> Any:
        """Plain API and issuer keys never stay in memory: they become SHA-256 digests at
        once."""
        for plain, digested in (("api_keys", "api_key_sha256"),
                                ("issuer_keys", "issuer_key_sha256")):
            if isinstance(data, dict) and data.get(plain):
                keys = _listed(str(data[plain]))
                digests = [hashlib.sha256(key.encode()).hexdigest() for key in keys]
                merged = ",".join(d for d in (str(data.get(digested) or ""), *digests) if d)
                data = {**data, plain: "", digested: merged}
        return data

    @model_validator(mode="after")
    def _signing(self) -> Settings:
        if self.require_signed_states and not self.state_keys.get_secret_value():
            raise ValueError("ARBITER_REQUIRE_SIGNED_STATES=true needs ARBITER_STATE_KEYS")
        return self

    @classmethod
    def settings_customise_sources(
            cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Only what the constructor is given: the environment is read by from_env alone.
        return (init_settings,)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings ``env`` (the process environment by default) holds; raises
        ``SettingsError`` naming every variable that holds a value not allowed."""
        source = _EnvSource(cls, os.environ if env is None else env)
        try:
            return cls(**source())
        except ValidationError as exc:
            raise SettingsError(describe_errors(exc, source.env_vars)) from None


class _EnvSource(EnvSettingsSource):
    """pydantic-settings' environment source over a given mapping (the environment, or
    the ConfigMap a test checks)."""

    def __init__(self, settings_cls: type[BaseSettings], env: Mapping[str, str]) -> None:
        self._given = env
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # Names as pydantic-settings matches them (case-insensitively: lower-cased); an
        # empty variable counts as unset.
        return {name.lower(): value for name, value in self._given.items()
                if name.upper().startswith(PREFIX) and value != ""}


def variable(name: str) -> str:
    return PREFIX + name.upper()


def allowed(name: str) -> str:
    """What the setting ``name`` may hold, in words (errors and docs/configuration.md
    say it)."""
    info: FieldInfo = Settings.model_fields[name]
    extra = info.json_schema_extra
    if isinstance(extra, dict) and isinstance(extra.get("allowed"), str):
        return str(extra["allowed"])
    if info.annotation is bool:
        return "`true` or `false` (also 1/0, yes/no, on/off)"
    low = next((m.ge for m in info.metadata if isinstance(m, Ge)), None)
    high = next((m.le for m in info.metadata if isinstance(m, Le)), None)
    if info.annotation in (int, float):
        kind = "an integer" if info.annotation is int else "a number"
        return f"{kind} from {low} to {high}" if high is not None else f"{kind} ≥ {low}"
    if get_origin(info.annotation) is Literal:
        return "one of " + ", ".join(str(choice) for choice in get_args(info.annotation))
    for meta in info.metadata:
        if getattr(meta, "max_length", None) is not None:
            return f"text of at most {meta.max_length} characters"
    return "text"


def _shown(name: str, raw: str | None) -> str:
    """The offending value as an error may show it: secrets never, a URL's password never."""
    if raw is None:
        return "(unset)"
    if name in SECRET:
        return "(not shown: it holds secrets)"
    if name == "redis_url" and "@" in raw:
        parts = urlsplit(raw)
        if parts.password:
            raw = raw.replace(f":{parts.password}@", ":***@", 1)
    if len(raw) > 80:
        raw = raw[:77] + "..."
    return repr(raw)


def describe_errors(exc: ValidationError, env: Mapping[str, str | None]) -> str:
    """One line: ``ARBITER_PORT='abc' is not allowed (an integer from 1 to 65535); ...``."""
    parts = []
    seen = set()
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else ""
        if name not in Settings.model_fields or name in seen:
            parts.append(str(error["msg"]).removeprefix("Value error, "))
            continue
        seen.add(name)
        raw = env.get(variable(name).lower())
        why = ""
        if error["type"] == "value_error" and (name not in SECRET or name in SAFE_REASONS):
            # A validator's own reason ("unknown: chess; built in: ..."), after pydantic's
            # "Value error, " prefix.
            why = f" ({str(error['msg']).split(', ', 1)[-1]})"
        parts.append(f"{variable(name)}={_shown(name, raw)} is not allowed: expected "
                     f"{allowed(name)}{why}")
    return "; ".join(parts)


# --- the documentation docs/configuration.md and the manifests' tests read ---------

@dataclass(frozen=True, slots=True)
class Variable:
    name: str
    default: str
    doc: str
    allowed: str


def _default_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


VARIABLES: tuple[Variable, ...] = tuple(
    Variable(variable(name), _default_text(info.default), info.description or "", allowed(name))
    for name, info in Settings.model_fields.items())


def settings_table() -> str:
    """docs/configuration.md's table: variable, default, what is allowed, meaning."""
    rows = ["| variable | default | allowed | meaning |", "|---|---|---|---|"]
    for var in VARIABLES:
        default = f"`{var.default}`" if var.default else "(empty)"
        rows.append(f"| `{var.name}` | {default} | {var.allowed} | {var.doc} |")
    return "\n".join(rows) + "\n"

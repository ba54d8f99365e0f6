"""The settings: every ARBITER_* variable typed and range-checked at start-up; a bad one is
a one-line error naming the variable, its value and what is allowed, and `arbiter serve`
exits non-zero with that line and no traceback; the defaults and meanings are those the
table of docs/configuration.md (generated from the model) shows; `arbiter serve` honours
the variables with no flag given."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from arbiter.cli.export_docs import TABLE_BEGIN, TABLE_END, with_table
from arbiter.settings import VARIABLES, Settings, SettingsError, settings_table
from support import free_port, stop, wait_healthy

CONFIGURATION = Path(__file__).resolve().parents[1] / "docs" / "configuration.md"

BAD = [
    ("ARBITER_PORT", "abc", "an integer from 1 to 65535"),
    ("ARBITER_PORT", "0", "an integer from 1 to 65535"),
    ("ARBITER_LOG_LEVEL", "verbose", "one of debug, info, warning, error, critical"),
    ("ARBITER_MAX_BODY_BYTES", "-1", "an integer from 1 to"),
    ("ARBITER_WORKERS", "0", "an integer from 1 to 64"),
    ("ARBITER_RATE_LIMIT", "nan", "a number from 0 to"),
    ("ARBITER_RATE_BURST", "1.5", "an integer from 1 to"),
    ("ARBITER_LOG_BODIES", "maybe", "`true` or `false`"),
    ("ARBITER_CACHE_TTL_SECONDS", "0", "an integer from 1 to"),
    ("ARBITER_REDIS_URL", "http://cache:6379", "a URL starting `redis://`"),
    ("ARBITER_RULESETS", "chess", "ids of built-in rulesets (unknown: chess"),
    ("ARBITER_CORS_ORIGINS", "app.example", "origins"),
    ("ARBITER_PUBLIC_URL", "ftp://example.com", "an `http://` or `https://` URL"),
    ("ARBITER_HOST", "two words", "an IP address or host name"),
]


@pytest.mark.parametrize(("name", "value", "allowed"), BAD, ids=[f"{n}={v}" for n, v, _ in BAD])
def test_a_bad_value_is_one_line_naming_the_variable_its_value_and_what_is_allowed(
        name: str, value: str, allowed: str) -> None:
    with pytest.raises(SettingsError) as exc:
        Settings.from_env({name: value})
    message = str(exc.value)
    assert "\n" not in message
    assert message.startswith(f"{name}={value!r} is not allowed: expected ")
    assert allowed in message


def test_every_bad_variable_is_named_at_once() -> None:
    with pytest.raises(SettingsError) as exc:
        Settings.from_env({"ARBITER_PORT": "abc", "ARBITER_WORKERS": "two"})
    assert "ARBITER_PORT='abc'" in str(exc.value) and "ARBITER_WORKERS='two'" in str(exc.value)


def test_secrets_are_never_echoed() -> None:
    with pytest.raises(SettingsError) as exc:
        Settings.from_env({"ARBITER_API_KEYS": "hunter2", "ARBITER_API_KEY_SHA256": "hunter3"})
    assert "hunter" not in str(exc.value) and "ARBITER_API_KEY_SHA256" in str(exc.value)
    with pytest.raises(SettingsError) as exc:
        Settings.from_env({"ARBITER_REDIS_URL": "http://user:s3cret@cache:6379"})
    assert "s3cret" not in str(exc.value) and "***" in str(exc.value)


def test_the_defaults_are_the_documented_ones_and_parse_from_their_text() -> None:
    assert Settings.from_env({}) == Settings()
    for var in VARIABLES:
        if var.default:
            assert Settings.from_env({var.name: var.default}) == Settings(), var.name


def test_an_empty_variable_counts_as_unset_and_values_are_typed() -> None:
    settings = Settings.from_env({"ARBITER_HOST": "", "ARBITER_PORT": "", "ARBITER_WORKERS": "3",
                                  "ARBITER_LOG_LEVEL": "WARNING", "ARBITER_LOG_BODIES": "yes",
                                  "ARBITER_RATE_LIMIT": "2.5", "OTHER": "x"})
    assert (settings.host, settings.port, settings.workers) == ("127.0.0.1", 8000, 3)
    assert (settings.log_level, settings.log_bodies, settings.rate_limit) == ("warning", True, 2.5)


def test_plain_api_keys_become_digests_at_once() -> None:
    settings = Settings.from_env({"ARBITER_API_KEYS": "alpha, beta"})
    assert settings.api_keys == ""
    assert settings.api_key_sha256.split(",") == [hashlib.sha256(k).hexdigest()
                                                  for k in (b"alpha", b"beta")]


def test_the_constructor_ignores_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Schema exports and tests build Settings() and must not depend on where they run."""
    monkeypatch.setenv("ARBITER_PORT", "9999")
    assert Settings().port == 8000
    assert Settings.from_env().port == 9999


def test_the_configuration_table_is_generated_from_the_settings() -> None:
    text = CONFIGURATION.read_text()
    assert TABLE_BEGIN in text and TABLE_END in text
    assert with_table(text) == text, "stale: run `make docs`"
    table = settings_table()
    for var in VARIABLES:
        shown = f"`{var.default}`" if var.default else "(empty)"
        assert f"| `{var.name}` | {shown} | {var.allowed} | {var.doc} |" in table


@pytest.mark.parametrize(("name", "value"), [("ARBITER_PORT", "abc"),
                                             ("ARBITER_LOG_LEVEL", "verbose"),
                                             ("ARBITER_MAX_BODY_BYTES", "-1")])
def test_serve_refuses_a_bad_setting_in_one_line_without_a_traceback(name: str,
                                                                     value: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_")}
    done = subprocess.run([sys.executable, "-m", "arbiter", "serve"], env={**env, name: value},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"arbiter: cannot start: {name}={value!r} is not allowed")


@pytest.mark.server
def test_serve_listens_where_the_variables_say() -> None:
    """No flag: ARBITER_HOST and ARBITER_PORT (as `make run` passes them) decide."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_")}
    env |= {"ARBITER_HOST": "127.0.0.1", "ARBITER_PORT": str(port),
            "ARBITER_LOG_LEVEL": "warning", "ARBITER_RULESETS": "region_conquest"}
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "serve"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, proc)
        served = httpx.get(f"{base}/v1/rulesets", timeout=10).json()["rulesets"]
        assert [r["id"] for r in served] == ["region_conquest"]
    finally:
        stop(proc)

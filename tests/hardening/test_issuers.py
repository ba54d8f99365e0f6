"""Issue 29, item 10: new-game signs only for an issuer. Against a live ``arbiter serve``
that signs states, with API keys (the players') and an issuer key (the game server's):
a player's key gets 403 from ``POST .../new-game`` and ``FORBIDDEN`` from the GraphQL
mutation, where before it had any first state it sent signed (a hand of 9999 tokens);
the issuer's key starts the game, signed, and is accepted wherever an API key is. Without
issuer keys a service that signs states starts no game over HTTP, and says why at
start; one that signs nothing stays open as before (in process: the policy's table)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from arbiter.http.app import create_app
from arbiter.rulesets.region_conquest.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.service.configured import start_warnings
from arbiter.settings import Settings
from support import free_port, serve, stop, wait_healthy

pytestmark = pytest.mark.server

PLAYER = "player-key-" + "p" * 32
ISSUER = "issuer-key-" + "i" * 32
STATE_KEYS = "k1:" + "s" * 40
URL = "/v1/rulesets/region_conquest/new-game"
# A first state no game begins with: the orcs' hand of 9999 tokens.
FORGED = {**EXAMPLE_STATE, "players": [{"id": "orcs", "hand": 9999},
                                       {"id": "elves", "active": {"farmland": 2}}]}
MUTATION = """mutation($s: RegionConquestState!) {
  regionConquestNewGame(state: $s) { state signature { key mac } } }"""


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serve({"ARBITER_STATE_KEYS": STATE_KEYS, "ARBITER_API_KEYS": PLAYER,
                "ARBITER_ISSUER_KEYS": ISSUER}) as url:
        yield url


def key(value: str) -> dict[str, str]:
    return {"x-api-key": value, "content-type": "application/json"}


def healthz(base: str) -> float:
    started = time.perf_counter()
    assert httpx.get(base + "/healthz").status_code == 200
    return time.perf_counter() - started


def test_a_players_key_cannot_have_a_first_state_signed(base: str) -> None:
    quiet = min(healthz(base) for _ in range(3))
    refused = httpx.post(base + URL, json={"state": FORGED}, headers=key(PLAYER))
    assert refused.status_code == 403, refused.text
    problem = refused.json()
    assert refused.headers["content-type"] == "application/problem+json"
    assert "ARBITER_ISSUER_KEYS" in problem["detail"] and problem["status"] == 403
    assert "signature" not in problem and "9999" not in refused.text
    graphql = httpx.post(base + "/graphql", json={"query": MUTATION,
                                                  "variables": {"s": FORGED}},
                         headers=key(PLAYER)).json()
    assert graphql["data"] is None, graphql
    (error,) = graphql["errors"]
    assert error["extensions"]["code"] == "FORBIDDEN"
    assert "ARBITER_ISSUER_KEYS" in error["message"]
    # Without a key, as before: 401 before anything is read.
    assert httpx.post(base + URL, json={"state": FORGED}).status_code == 401
    assert max(healthz(base) for _ in range(3)) <= 20 * quiet + 0.05


def test_the_issuers_key_starts_a_signed_game_and_plays_it(base: str) -> None:
    started = httpx.post(base + URL, json={"state": EXAMPLE_STATE}, headers=key(ISSUER))
    assert started.status_code == 200, started.text
    game = started.json()
    assert game["signature"]["key"] == "k1"
    graphql = httpx.post(base + "/graphql", json={"query": MUTATION,
                                                  "variables": {"s": EXAMPLE_STATE}},
                         headers=key(ISSUER)).json()
    assert graphql["data"]["regionConquestNewGame"]["signature"]["key"] == "k1", graphql
    # The game goes on with a player's key; the issuer's key is an API key too.
    action = dict(EXAMPLE_ACTION)
    for holder in (PLAYER, ISSUER):
        judged = httpx.post(base + "/v1/rulesets/region_conquest/validate", json={
            "state": game["state"], "signature": game["signature"], "action": action},
            headers=key(holder))
        assert judged.status_code == 200, judged.text


def answer(settings: dict[str, Any], headers: dict[str, str]) -> tuple[int, Any]:
    with TestClient(create_app(Settings(**settings))) as client:
        r = client.post(URL, json={"state": EXAMPLE_STATE}, headers=headers)
        return r.status_code, r.json()


def test_who_may_start_a_game_without_issuer_keys_or_signatures() -> None:
    # Nothing signed, no issuer keys: open as before, unsigned.
    status, game = answer({}, {})
    assert status == 200 and game["signature"] is None
    status, game = answer({"api_keys": PLAYER}, key(PLAYER))
    assert status == 200 and game["signature"] is None
    # Signed, no issuer keys: nobody over HTTP, an API key neither.
    status, problem = answer({"state_keys": STATE_KEYS, "api_keys": PLAYER}, key(PLAYER))
    assert status == 403 and "has no issuer keys" in problem["detail"]
    status, problem = answer({"state_keys": STATE_KEYS}, {})
    assert status == 403
    # Issuer keys without API keys: the rest stays open, new-game does not, and a key that
    # is offered must be one.
    issuers_only = {"issuer_keys": ISSUER}
    assert answer(issuers_only, {})[0] == 403
    assert answer(issuers_only, key(ISSUER))[0] == 200
    assert answer(issuers_only, key("guessed-" + "x" * 32))[0] == 401
    with TestClient(create_app(Settings(**issuers_only))) as client:
        assert client.get("/v1/rulesets").status_code == 200


def test_issuer_keys_are_kept_only_as_digests() -> None:
    settings = Settings.from_env({"ARBITER_ISSUER_KEYS": ISSUER})
    assert ISSUER not in repr(settings) and settings.issuer_keys == ""
    assert len(settings.issuer_key_sha256) == 64


# What `arbiter serve` warns of at start (issue 29, items 9 and 10): Redis used without a
# key for its values (anyone who can write there could plant answers), and a service that
# signs states with nobody allowed to start a game.
REDIS = os.environ.get("ARBITER_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
WARNINGS = {
    "redis without a cache key": ({"ARBITER_REDIS_URL": REDIS},
                                  ["ARBITER_REDIS_URL", "ARBITER_CACHE_KEY", "plant"]),
    "signing without issuers": ({"ARBITER_STATE_KEYS": STATE_KEYS},
                                ["ARBITER_ISSUER_KEYS", "new-game"]),
}


@pytest.mark.parametrize("case", list(WARNINGS))
def test_arbiter_serve_warns_at_start(case: str) -> None:
    settings, words = WARNINGS[case]
    port = free_port()
    env = {**os.environ, **settings, "ARBITER_LOG_LEVEL": "warning"}
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "serve", "--host", "127.0.0.1",
                             "--port", str(port)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
    finally:
        stop(proc)
    assert proc.stdout is not None
    logged = proc.stdout.read().decode()
    assert all(word in logged for word in words), logged
    # With the key (or the issuers) set, no warning.
    quiet = {"ARBITER_CACHE_KEY": "c" * 40} if "ARBITER_REDIS_URL" in settings else \
        {"ARBITER_ISSUER_KEYS": ISSUER}
    assert start_warnings(Settings(**{k.removeprefix("ARBITER_").lower(): v
                                      for k, v in {**settings, **quiet}.items()})) == []

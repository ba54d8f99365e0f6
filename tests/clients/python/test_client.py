"""clients/python against a real `arbiter serve`: typed answers, problems with their
pointers, boards by reference with the retry after the service lost the board, retries
on 503/429 (a real local HTTP server that turns requests away first), never on a 4xx, the
version tied to the API's, and every example of its README run as pasted."""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support import serve

import arbiter
from arbiter.engine.boards import board_id as service_board_id
from arbiter_client import (
    BOARD_NOT_FOUND,
    ArbiterClient,
    ArbiterError,
    ArbiterNetworkError,
    ArbiterProblem,
    ArbiterTimeoutError,
    AsyncArbiterClient,
    Retry,
    __version__,
    board_id,
)

# The checkout: the first folder up holding the service (its pyproject and service/).
ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file()
            and (p / "service").is_dir())
README = ROOT / "clients" / "python" / "README.md"
DOC = json.loads((ROOT / "schema" / "openapi.json").read_text())

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def client(server: str) -> Iterator[ArbiterClient]:
    with ArbiterClient(server) as c:
        yield c


def test_the_version_is_the_apis() -> None:
    assert __version__ == arbiter.__version__ == DOC["info"]["version"]


def test_a_move_is_judged_into_typed_models(client: ArbiterClient) -> None:
    body = client.hex_maneuver.example("validate")
    outcome = client.hex_maneuver.validate(body["state"], body["action"])
    assert outcome.legal and outcome.applied and outcome.state is not None
    jump = {**body["action"], "path": [{"q": 2, "r": -2}]}
    verdict = client.hex_maneuver.validate(body["state"], jump)
    assert not verdict.legal
    assert [(v.code.value, v.rule) for v in verdict.violations] == \
        [("path_not_adjacent", "hex_maneuver/maneuver.4")]
    batch = client.hex_maneuver.validate_batch(body["state"], [body["action"], jump])
    assert [o.legal for o in batch.outcomes] == [True, False]
    assert {r.id for r in client.list_rulesets().rulesets} == {
        t["name"] for t in DOC["tags"]} - {"rulesets", "graphql", "service"}
    assert client.healthz() == {"status": "ok"}
    described = client.region_conquest.describe()
    assert described.id == "region_conquest" and described.violation_codes


def test_a_malformed_request_raises_the_problem_with_pointers(client: ArbiterClient) -> None:
    body = client.hex_maneuver.example("validate")
    with pytest.raises(ArbiterProblem) as caught:
        client.hex_maneuver.validate(body["state"], {"type": "maneuver", "player": "red"})
    problem = caught.value
    assert problem.status == 422 and problem.type == "urn:arbiter:problem:invalid-request"
    assert {e.pointer for e in problem.errors} >= {"/action/army"}


def test_a_board_by_reference_is_sent_again_after_the_service_lost_it() -> None:
    # A service of its own, so the board is unknown to it (no Redis: a restart loses it).
    with serve({"ARBITER_REDIS_URL": ""}) as base, ArbiterClient(base) as c:
        body = c.hex_maneuver.example("validate")
        lean = c.hex_maneuver.by_reference(body["state"])
        assert lean["board"] == service_board_id({"hexes": body["state"]["hexes"]})
        assert lean["board"] == board_id({"hexes": body["state"]["hexes"]})
        with pytest.raises(ArbiterProblem) as caught:
            c.hex_maneuver.get_board(lean["board"])
        assert caught.value.type == BOARD_NOT_FOUND
        outcome = c.hex_maneuver.validate(lean, body["action"])  # not found, then inline
        assert outcome.legal
        assert c.hex_maneuver.get_board(lean["board"]).board == lean["board"]
    with serve({"ARBITER_REDIS_URL": ""}) as base, ArbiterClient(base) as fresh:
        # Another client that never saw the board cannot send it: the problem stands.
        with pytest.raises(ArbiterProblem) as caught:
            fresh.hex_maneuver.validate(lean, body["action"])
        assert caught.value.type == BOARD_NOT_FOUND and caught.value.board == lean["board"]
        stored = fresh.hex_maneuver.put_board({"hexes": body["state"]["hexes"]})
        assert stored.board == lean["board"]
        assert fresh.hex_maneuver.validate(lean, body["action"]).legal


class TurnAway(http.server.BaseHTTPRequestHandler):
    """Answers the first ``refusals`` requests with the status given, then 200."""

    refusals: list[tuple[int, str | None]] = []
    seen: list[str] = []

    def do_GET(self) -> None:
        TurnAway.seen.append(self.path)
        if TurnAway.refusals:
            status, after = TurnAway.refusals.pop(0)
            self.send_response(status)
            if after is not None:
                self.send_header("Retry-After", after)
            body = json.dumps({"type": "urn:arbiter:problem:x", "title": "t", "status": status,
                               "detail": "turned away"}).encode()
        else:
            self.send_response(200)
            body = json.dumps({"status": "ok"}).encode()
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def turn_away() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), TurnAway)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    TurnAway.seen.clear()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _client(base: str, waits: list[float], attempts: int = 4) -> ArbiterClient:
    c = ArbiterClient(base, retry=Retry(attempts=attempts, base=0.01, cap=0.05))
    c.transport.sleep = waits.append  # the waits are recorded, not slept
    return c


def test_503_and_429_are_retried_honouring_retry_after(turn_away: str) -> None:
    TurnAway.refusals = [(503, "2"), (429, "1"), (503, None)]
    waits: list[float] = []
    assert _client(turn_away, waits).healthz() == {"status": "ok"}
    assert len(TurnAway.seen) == 4
    assert waits[:2] == [2.0, 1.0] and 0 <= waits[2] <= 0.04


def test_the_retries_end_with_the_problem(turn_away: str) -> None:
    TurnAway.refusals = [(503, "0")] * 5
    with pytest.raises(ArbiterProblem) as caught:
        _client(turn_away, [], attempts=3).healthz()
    assert caught.value.status == 503 and len(TurnAway.seen) == 3


def test_a_4xx_is_never_retried(turn_away: str) -> None:
    TurnAway.refusals = [(422, None), (400, None)]
    with pytest.raises(ArbiterProblem) as caught:
        _client(turn_away, []).healthz()
    assert caught.value.status == 422 and len(TurnAway.seen) == 1


def test_a_refused_connection_is_retried_then_raised_as_a_network_error() -> None:
    import httpx
    from tests.support import free_port

    waits: list[float] = []
    with pytest.raises(ArbiterNetworkError) as caught:
        _client(f"http://127.0.0.1:{free_port()}", waits, attempts=3).healthz()
    assert len(waits) == 2
    assert isinstance(caught.value.cause, httpx.ConnectError)
    assert caught.value.__cause__ is caught.value.cause
    assert isinstance(caught.value, ArbiterError)
    assert not isinstance(caught.value, ArbiterTimeoutError)
    assert str(caught.value).startswith("GET /healthz: ConnectError")


def test_a_server_that_never_answers_is_a_timeout_error() -> None:
    import socket

    async def run(base: str) -> None:
        async with AsyncArbiterClient(base, timeout=0.2, retry=Retry(attempts=1)) as c:
            await c.healthz()

    with socket.socket() as silent:  # accepts connections (the backlog), reads nothing
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        base = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(ArbiterTimeoutError):
            ArbiterClient(base, timeout=0.2, retry=Retry(attempts=1)).healthz()
        with pytest.raises(ArbiterTimeoutError):
            asyncio.run(run(base))


def test_large_bodies_go_gzipped_and_answers_come_compressed(server: str) -> None:
    import httpx

    from arbiter_client.transport import Transport

    sent: list[httpx.Request] = []
    received: list[httpx.Response] = []
    http = httpx.Client(base_url=server, event_hooks={"request": [sent.append],
                                                      "response": [received.append]})
    client = ArbiterClient(server, transport=Transport(server, http=http))
    body = client.hex_maneuver.example("validate")
    plain = ArbiterClient(server, compress=False)
    assert client.hex_maneuver.validate(body["state"], body["action"]) == \
        plain.hex_maneuver.validate(body["state"], body["action"])
    posted = sent[-1]
    assert posted.headers["content-encoding"] == "gzip"
    assert len(posted.content) < len(json.dumps(body)) / 2
    assert "gzip" in posted.headers["accept-encoding"]
    openapi = http.get("/openapi.json")  # (an answer large enough to be compressed)
    assert openapi.headers["content-encoding"] in ("gzip", "br", "zstd")
    assert openapi.json()["openapi"].startswith("3.")
    small = client.healthz()  # a body-less call: as it is
    assert small == {"status": "ok"} and "content-encoding" not in sent[-1].headers


def test_an_api_key_goes_as_bearer_or_header() -> None:
    with serve({"ARBITER_API_KEYS": "k1"}) as base:
        with pytest.raises(ArbiterProblem) as caught:
            ArbiterClient(base).list_rulesets()
        assert caught.value.status == 401
        assert ArbiterClient(base, api_key="k1").list_rulesets().rulesets
        assert ArbiterClient(base, api_key="k1", key_header="x-api-key").list_rulesets()


def test_the_async_client(server: str) -> None:
    async def run() -> tuple[bool, int]:
        async with AsyncArbiterClient(server) as c:
            body = await c.region_conquest.example("validate")
            outcome = await c.region_conquest.validate(body["state"], body["action"])
            cost = await c.region_conquest.conquest_cost(body["state"], player="orcs")
            return outcome.legal, len(cost.costs)
    legal, costs = asyncio.run(run())
    assert legal and costs > 0


BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


@pytest.mark.parametrize("block", range(len(BLOCKS)))
def test_readme_example_runs_as_pasted(server: str, block: int, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(BLOCKS[block])
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env={**os.environ, "ARBITER_URL": server}, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip()
    for printed in re.findall(r"# prints: (.*)", BLOCKS[block]):
        assert printed in run.stdout


def test_every_ruleset_has_a_readme_example() -> None:
    text = README.read_text()
    for tag in DOC["tags"]:
        if tag["name"] not in ("rulesets", "graphql", "service"):
            assert f"client.{tag['name']}." in text


def test_a_turn_from_three_envelopes_each_sealed_by_its_own_client() -> None:
    """Hidden information through the client, against a service that seals: a game
    master starts the game; three players, each with a client of their own, seal their
    orders; the game master resolves the turn from the three envelopes."""
    melee = json.loads((ROOT / "tests" / "cases" / "phased_orders" / "blind2"
                        / "p12_default_damage_spills_over_to_the_next_weakest.json").read_text())
    issuer = "game-master-" + "m" * 32
    env = {"ARBITER_STATE_KEYS": "k1:" + "s" * 40, "ARBITER_ISSUER_KEYS": issuer}
    with serve(env) as base, ArbiterClient(base, api_key=issuer) as master:
        game = master.phased_orders.new_game(melee["state"])
        assert game.signature is not None
        state, signature = game.state, game.signature.model_dump()
        envelopes = []
        for order in melee["action"]["orders"]:
            with ArbiterClient(base) as player:
                sealed = player.phased_orders.seal_orders(state, signature=signature, action={
                    "type": "submit", "player": order["player"], "orders": [order]})
            assert sealed.legal and sealed.envelope is not None and sealed.receipt
            envelopes.append(sealed.envelope.model_dump())
        turn = master.phased_orders.resolve(state, signature=signature, envelopes=envelopes)
        assert turn.status == "resolved"
        assert [e.params["player"] for e in turn.events or []
                if e.kind == "orders_received"] == ["red", "blue", "green"]
        with pytest.raises(ArbiterProblem) as refused:
            master.phased_orders.resolve(state, signature=signature, envelopes=[
                {**envelopes[0], "player": "blue"}])
        assert refused.value.errors[0].pointer == "/envelopes/0/sealed"

"""The table's commands answer through the service's own lifecycle, configured by the
environment as ``arbiter serve`` is: a game started with ``new-game`` under state keys is
signed, its signature checked by ``check`` and its next state signed; an edited state is
refused; and with Redis a state may name a board the service keeps there."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

import orjson
import pytest

from arbiter.cli.main import main
from arbiter.engine.boards import board_id
from arbiter.rulesets import load
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.service.configured import configured
from arbiter.settings import Settings
from cache.conftest import REDIS_URL, require_redis

KEYS = "table:" + "k" * 40


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def test_a_game_started_at_the_table_is_signed_and_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ARBITER_STATE_KEYS", KEYS)
    (tmp_path / "setup.json").write_text(json.dumps(EXAMPLE_STATE))
    code, game, _ = run(["new-game", "hex_maneuver", str(tmp_path / "setup.json")], capsys)
    assert code == 0 and game["signature"]["key"] == "table"
    (tmp_path / "first.json").write_text(json.dumps(game["state"]))
    (tmp_path / "signature.json").write_text(json.dumps(game["signature"]))
    (tmp_path / "action.json").write_text(json.dumps(EXAMPLE_ACTION))
    code, outcome, _ = run(["check", "hex_maneuver", str(tmp_path / "first.json"),
                            str(tmp_path / "action.json"), "--signature",
                            str(tmp_path / "signature.json")], capsys)
    assert code == 0 and outcome["legal"] and outcome["signature"]["key"] == "table"
    # The same state edited: refused, naming the signature's problem.
    edited = {**game["state"], "players": list(reversed(game["state"]["players"]))}
    (tmp_path / "edited.json").write_text(json.dumps(edited))
    code, _, err = run(["check", "hex_maneuver", str(tmp_path / "edited.json"),
                        str(tmp_path / "action.json"), "--signature",
                        str(tmp_path / "signature.json")], capsys)
    problem = json.loads(err)
    assert code == 2 and problem["errors"][0]["source"] == str(tmp_path / "edited.json")
    assert "not the one its signature was made for" in problem["detail"]


def test_signatures_required_refuse_an_unsigned_state_at_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ARBITER_STATE_KEYS", KEYS)
    monkeypatch.setenv("ARBITER_REQUIRE_SIGNED_STATES", "true")
    (tmp_path / "s.json").write_text(json.dumps(EXAMPLE_STATE))
    (tmp_path / "a.json").write_text(json.dumps(EXAMPLE_ACTION))
    code, _, err = run(["check", "hex_maneuver", str(tmp_path / "s.json"),
                        str(tmp_path / "a.json")], capsys)
    assert code == 2 and "signed states only" in json.loads(err)["detail"]


def test_a_bad_setting_is_reported_not_raised(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ARBITER_MAX_CELLS", "many")
    (tmp_path / "s.json").write_text(json.dumps(EXAMPLE_STATE))
    (tmp_path / "a.json").write_text(json.dumps(EXAMPLE_ACTION))
    code, _, err = run(["check", "hex_maneuver", str(tmp_path / "s.json"),
                        str(tmp_path / "a.json")], capsys)
    assert code == 2 and "ARBITER_MAX_CELLS" in json.loads(err)["detail"]


def test_the_limits_of_the_environment_apply_at_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ARBITER_MAX_CELLS", "5")
    (tmp_path / "s.json").write_text(json.dumps(EXAMPLE_STATE))
    (tmp_path / "a.json").write_text(json.dumps(EXAMPLE_ACTION))
    code, _, err = run(["check", "hex_maneuver", str(tmp_path / "s.json"),
                        str(tmp_path / "a.json")], capsys)
    problem = json.loads(err)
    assert code == 2 and problem["status"] == 413
    assert problem["errors"][0]["source_pointer"] == "/hexes"


@pytest.mark.redis
def test_a_board_the_service_keeps_in_redis_is_named_at_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    client = require_redis()
    prefix, redis_url = f"arbiter-test-cli-{uuid.uuid4().hex[:12]}:", REDIS_URL
    try:
        _named_at_the_table(tmp_path, monkeypatch, capsys, prefix, redis_url)
    finally:
        for key in client.scan_iter(match=prefix + "*"):
            client.delete(key)


def _named_at_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str], prefix: str, redis_url: str) -> None:
    ruleset = load("hex_maneuver")
    board = {f: EXAMPLE_STATE[f] for f in ruleset.board_fields}
    bid = board_id(board)
    # The service stores the board in Redis (as a PUT to a replica does) ...
    settings = Settings(redis_url=redis_url, redis_key_prefix=prefix)

    async def put() -> None:
        service = configured(settings)
        await service.put_board(ruleset, bid, orjson.dumps(board))
        await service.boards.flush()

    asyncio.run(put())
    # ... and the table names it.
    monkeypatch.setenv("ARBITER_REDIS_URL", redis_url)
    monkeypatch.setenv("ARBITER_REDIS_KEY_PREFIX", prefix)
    lean = {k: v for k, v in EXAMPLE_STATE.items() if k not in ruleset.board_fields}
    (tmp_path / "s.json").write_text(json.dumps({**lean, "board": bid}))
    (tmp_path / "a.json").write_text(json.dumps(EXAMPLE_ACTION))
    code, outcome, err = run(["check", "hex_maneuver", str(tmp_path / "s.json"),
                              str(tmp_path / "a.json")], capsys)
    assert code == 0, err
    assert outcome["legal"] and outcome["state"]["board"] == bid
    # Without Redis, nothing outlives one command: the board is not found.
    monkeypatch.delenv("ARBITER_REDIS_URL")
    code, _, err = run(["check", "hex_maneuver", str(tmp_path / "s.json"),
                        str(tmp_path / "a.json")], capsys)
    problem = json.loads(err)
    assert code == 2 and problem["board"] == bid and problem["type"].endswith("board-not-found")

"""Log lines for a person: ``ARBITER_LOG_FORMAT=text`` (or ``auto`` on a terminal) makes
each request one readable line on a live ``arbiter serve``; JSON stays the default off
a terminal, and ``auto`` reads a terminal as one (a real pseudo-terminal)."""

from __future__ import annotations

import json
import os
import pty
import re
import time

import httpx
import pytest

from arbiter.telemetry.logs import text_logs
from support import serving

pytestmark = pytest.mark.server
LINE = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} INFO    GET /v1/rulesets 200 \d+\.\d ms 0 B in "
                  r"\d+ B out \(\d+ B br\)  request_id=given-id$", re.M)


def requested(env: dict[str, str]) -> str:
    """The server's log once it has written the line of one request."""
    with serving({"ARBITER_LOG_LEVEL": "info", **env}) as server:
        assert httpx.get(server.base + "/v1/rulesets", headers={
            "x-request-id": "given-id", "accept-encoding": "br"}).status_code == 200
        deadline = time.monotonic() + 10
        while "given-id" not in server.log() and time.monotonic() < deadline:
            time.sleep(0.05)
        return server.log()


def test_text_log_lines_read_as_a_request() -> None:
    log = requested({"ARBITER_LOG_FORMAT": "text"})
    assert LINE.search(log), log
    assert not any(line.startswith("{") for line in log.splitlines())


def test_json_stays_the_default_off_a_terminal() -> None:
    log = requested({})  # (the server's stderr is a file)
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    assert any(line.get("path") == "/v1/rulesets" and line["request_id"] == "given-id"
               for line in lines)


def test_auto_means_text_on_a_terminal_only() -> None:
    leader, follower = pty.openpty()
    try:
        with os.fdopen(follower, "w") as terminal:
            assert text_logs("auto", terminal)
            assert not text_logs("json", terminal)
    finally:
        os.close(leader)
    with open(os.devnull, "w") as file:
        assert not text_logs("auto", file) and text_logs("text", file)

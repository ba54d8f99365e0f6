"""`arbiter conformance` against live servers: the suite's own `arbiter serve` passes every
case; a server that answers one verdict flipped and one violation dropped (a proxy in front
of the real one) fails exactly those two cases, with the exit code a CI job reads."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from arbiter.cli.conformance import misses, outcome_misses
from support import serve_script
from test_golden_engine import REGISTRY

SUITE = Path(__file__).resolve().parents[2] / "conformance"


def conformance(*args: str) -> subprocess.CompletedProcess[str]:
    """``arbiter conformance ARGS``, run from outside the checkout: it finds the suite
    beside the package it runs from, whatever the working directory."""
    return subprocess.run([sys.executable, "-m", "arbiter", "conformance", *args],
                          capture_output=True, text=True, timeout=900,
                          cwd=tempfile.gettempdir())


def suite_cases(ruleset: str) -> list[dict[str, Any]]:
    return [json.loads(p.read_text())
            for p in sorted((SUITE / "cases" / ruleset).rglob("*.json"))]


@pytest.mark.server
def test_every_case_passes_against_arbiter_serve(server: str) -> None:
    rulesets = [r.id for r in REGISTRY]
    flags = [arg for r in rulesets for arg in ("--ruleset", r)]
    run = conformance("--base", server, *flags)
    lines = run.stdout.splitlines()
    assert run.returncode == 0, [line for line in lines if not line.startswith("PASS")]
    wanted = sum(len(suite_cases(r)) for r in rulesets)
    assert sum(line.startswith("PASS ") for line in lines) == wanted
    assert f": {wanted} cases, {wanted} passed, 0 failed (" in lines[-1]


# A proxy in front of the real server that answers the case of the file argv[2] with its
# verdict flipped, and the case of the file argv[3] with its last violation dropped.
TAMPERING_PROXY = """
import json, sys
import httpx, uvicorn
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

upstream, flip_file, drop_file, port = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
flip = json.load(open(flip_file))["request"]["body"]
drop = json.load(open(drop_file))["request"]["body"]
client = httpx.AsyncClient(base_url=upstream, timeout=60)

async def forward(request):
    body = await request.body()
    answer = await client.request(request.method, request.url.path, content=body,
                                  headers={"content-type": "application/json"})
    content = answer.content
    sent = json.loads(body) if body else None
    if sent in (flip, drop):
        outcome = answer.json()
        if sent == flip:
            outcome["legal"] = not outcome["legal"]
        else:
            outcome["violations"] = outcome["violations"][:-1]
        content = json.dumps(outcome).encode()
    return Response(content, status_code=answer.status_code,
                    media_type=answer.headers.get("content-type"))

app = Starlette(routes=[Route("/{path:path}", forward, methods=["GET", "POST"])])
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
"""


@pytest.mark.server
def test_a_server_that_flips_a_verdict_and_drops_a_violation_fails_those_cases(
        server: str, tmp_path: Path) -> None:
    ruleset = "region_conquest"
    if REGISTRY.get(ruleset) is None:
        pytest.skip(f"ARBITER_RULESETS leaves out {ruleset}")
    cases = suite_cases(ruleset)
    flip = next(c for c in cases if c["expect"].get("outcome", {}).get("legal") is True)
    drop = next(c for c in cases if c["expect"].get("outcome", {}).get("violations"))
    files = [str(SUITE / "cases" / f"{c['id']}.json") for c in (flip, drop)]
    with serve_script(TAMPERING_PROXY, server, *files) as proxy:
        run = conformance("--base", proxy, "--ruleset", ruleset, "--jobs", "3",
                          "--report", str(tmp_path / "report.json"))
    failed = [line for line in run.stdout.splitlines() if line.startswith("FAIL ")]
    assert run.returncode == 1, run.stdout + run.stderr
    assert len(failed) == 2, failed
    by_id = {line.split()[1]: line for line in failed}
    assert set(by_id) == {flip["id"], drop["id"]}
    assert "legal: expected true, got false" in by_id[flip["id"]]
    assert "violations (code, rule): expected" in by_id[drop["id"]]
    n = len(cases)
    report = json.loads((tmp_path / "report.json").read_text())
    assert (report["passed"], report["failed"]) == (n - 2, 2)
    assert sorted(c["id"] for c in report["cases"] if not c["passed"]) == \
        sorted([flip["id"], drop["id"]])
    assert f": {n} cases, {n - 2} passed, 2 failed ({ruleset} {n - 2}/{n})" in run.stdout


def test_unreachable_server_and_unknown_ruleset_exit_2() -> None:
    from support import free_port

    run = conformance("--base", f"http://127.0.0.1:{free_port()}")
    assert run.returncode == 2 and "cannot reach" in run.stderr
    run = conformance("--base", "http://127.0.0.1:1", "--ruleset", "chess")
    assert run.returncode == 2 and "no ruleset chess" in run.stderr


def test_an_answer_with_the_right_code_under_another_rule_fails() -> None:
    expected = {"legal": False, "violations": [{"code": "not_adjacent",
                                                "rule": "region_conquest/adjacent.1"}]}
    cited = {"code": "not_adjacent", "rule": "region_conquest/adjacent.1"}
    assert outcome_misses(expected, {"legal": False, "violations": [cited]}) == []
    wrong = outcome_misses(expected, {"legal": False, "violations": [
        {**cited, "rule": "region_conquest/target.1"}]})
    assert len(wrong) == 1 and wrong[0].startswith("violations (code, rule)")
    # true is not 1, and a subset of the state must be there.
    assert outcome_misses({"legal": True}, {"legal": 1}) != []
    assert outcome_misses({"state": {"turn": 2}}, {"state": {}}) == ["/state/turn: missing"]
    refused = {"expect": {"status": 422, "pointers": ["/state/turn"]}}
    assert misses(refused, 422, {"errors": [{"pointer": "/state/turn"}]}) == []
    assert misses(refused, 200, {"legal": True})[0].startswith("status: expected 422")

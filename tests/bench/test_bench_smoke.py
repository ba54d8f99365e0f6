"""`make bench --quick` runs end to end (no figures are asserted: benchmarks are never
timed assertions in the test suite)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.server
def test_quick_bench_runs_and_writes_its_results(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    done = subprocess.run([sys.executable, "-m", "tests.bench", "--quick", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    results = json.loads(out.read_text())
    for section in ("engine", "rulesets", "graphql_inprocess", "cache", "http", "memory",
                    "transport"):
        assert section in results
    assert all(row["errors"] == 0 for row in results["http"])
    # The probe's figures are there, one engine call a request (counts, not times).
    assert all(row["calls_per_request"] == 1 for row in results["transport"]["rows"]
               if "engine_us" in row)

"""Starting servers for the HTTP benchmarks (loopback only), each in its own process with
the same uvicorn settings: one worker, uvloop, httptools, no access log."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from tests.support import free_port, stop

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def serve(kind: str, env: dict[str, str] | None = None) -> Iterator[tuple[int, int]]:
    """(port, pid) of a running server: ``kind`` is "echo" or "arbiter"."""
    port = free_port()
    if kind == "echo":
        cmd = [sys.executable, "-m", "uvicorn", "tests.bench.echo_app:create_app", "--factory",
               "--host", "127.0.0.1", "--port", str(port), "--loop", "uvloop", "--http",
               "httptools", "--no-access-log", "--log-level", "warning"]
    else:
        cmd = [sys.executable, "-m", "arbiter", "serve", "--host", "127.0.0.1", "--port",
               str(port)]
    full_env = {**os.environ, "ARBITER_LOG_LEVEL": "warning", **(env or {})}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=full_env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{kind} server did not start") from None
                time.sleep(0.05)
        yield port, proc.pid
    finally:
        stop(proc)


def load(port: int, path: str, bodies: list[bytes], *, connections: int = 16,
         seconds: float = 5.0, max_requests: int = 200_000) -> dict[str, Any]:
    """Run the load generator in its own process against ``port``."""
    suffix = ".jsonl" if len(bodies) > 1 else ".json"
    with tempfile.NamedTemporaryFile("wb", suffix=suffix, delete=False) as f:
        f.write(b"\n".join(bodies) if len(bodies) > 1 else bodies[0])
        name = f.name
    try:
        done = subprocess.run([sys.executable, "-m", "tests.bench.loadgen", "127.0.0.1",
                               str(port), path, name, str(connections), str(seconds),
                               str(max_requests)], cwd=ROOT, capture_output=True, text=True,
                              check=True, timeout=seconds + 60)
    finally:
        os.unlink(name)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU of process ``pid`` so far, all its threads (/proc/<pid>/stat)."""
    # The command name (field 2) may hold spaces and parentheses: count from its end.
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of stat(5)
    return (utime + stime) / os.sysconf("SC_CLK_TCK")


def check(port: int, path: str, body: bytes) -> Any:
    r = httpx.post(f"http://127.0.0.1:{port}{path}", content=body,
                   headers={"content-type": "application/json"}, timeout=30)
    r.raise_for_status()
    return r.json()

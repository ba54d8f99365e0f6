"""Real ``arbiter serve`` processes for the hardening and load tests: each on a free
loopback port with its own settings, stopped when the block ends."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serve(env: dict[str, str] | None = None) -> Iterator[str]:
    """Base URL of an ``arbiter serve`` process with ``env`` on top of the environment."""
    port = free_port()
    full = {**os.environ, "ARBITER_LOG_LEVEL": "warning", **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "serve", "--host", "127.0.0.1",
                             "--port", str(port)], env=full,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.stdout.read().decode() if proc.stdout else ""
                raise RuntimeError(f"arbiter serve did not start:\n{out}")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

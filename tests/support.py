"""What several test modules need to run real servers on loopback: a free port, waiting
until a server answers, stopping it, and a whole ``arbiter serve`` process with its own
settings for the length of a block."""

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


def wait_healthy(base: str, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Poll ``base``/healthz until it answers 200; fail with the server's output if the
    process dies or the time runs out."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            out = proc.stdout.read().decode() if proc.stdout else ""
            raise RuntimeError(f"the server at {base} did not start:\n{out}")
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate ``proc``, and kill it if it has not exited within 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def serve(env: dict[str, str] | None = None) -> Iterator[str]:
    """Base URL of an ``arbiter serve`` process (the entry point the Dockerfile runs) with
    ``env`` on top of the environment, stopped when the block ends."""
    port = free_port()
    full = {**os.environ, "ARBITER_LOG_LEVEL": "warning", **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "serve", "--host", "127.0.0.1",
                             "--port", str(port)], env=full,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc)
        yield base
    finally:
        stop(proc)

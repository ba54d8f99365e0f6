"""Real ``arbiter serve`` processes for the hardening and load tests: each on a free
loopback port with its own settings, stopped when the block ends."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator

from support import free_port, stop, wait_healthy

__all__ = ["free_port", "serve"]


@contextlib.contextmanager
def serve(env: dict[str, str] | None = None) -> Iterator[str]:
    """Base URL of an ``arbiter serve`` process with ``env`` on top of the environment."""
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

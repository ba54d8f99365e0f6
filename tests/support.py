"""What several test modules need to run real servers on loopback: a free port, waiting
until a server answers, stopping it, and for the length of a block a whole ``arbiter
serve`` process with its own settings, or a server of one more ruleset than the built-in
ones."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import httpx


def peak_rss_mib(pid: int) -> float:
    """The peak resident memory of process ``pid`` so far (VmHWM), in MiB."""
    return peak_rss_kib(pid) / 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_healthy(base: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Poll ``base``/healthz until it answers 200; fail with the server's output if the
    process dies or the time runs out (a busy machine has taken 14 s to start one)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)  # else reading its output would wait for it to end
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
    with serving(env) as server:
        yield server.base


@dataclass(frozen=True)
class Server:
    """A running ``arbiter serve`` of one worker: its base URL and its process."""

    base: str
    pid: int
    output: Path  # what it wrote to stdout and stderr: its log lines

    def log(self) -> str:
        return self.output.read_text(errors="replace")

    def peak_rss_mib(self) -> float:
        """The most memory the worker has held since it started (``VmHWM``), in MiB."""
        return peak_rss_mib(self.pid)


@contextlib.contextmanager
def serving(env: dict[str, str] | None = None) -> Iterator[Server]:
    """``serve``, with the process (one worker: uvicorn serves in the process it starts
    in) and its log, for tests that read its memory from /proc or what it logged."""
    args = ["-m", "arbiter", "serve", "--host", "127.0.0.1", "--port"]
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "server.log"
        with output.open("wb") as sink, _running(args, env, sink) as (base, proc):
            yield Server(base, proc.pid, output)


def peak_rss_kib(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), in KiB."""
    for line in open(f"/proc/{pid}/status").read().splitlines():  # noqa: SIM115  # one read
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmHWM for process {pid}")


# A process serving the built-in rulesets and one more, registered from a module outside
# the package, through ``create_app(settings, registry)`` on uvicorn with the protocol
# ``arbiter serve`` gives it.
SERVE_ONE_MORE = """
import sys
import uvicorn
from arbiter.http.app import create_app
from arbiter.http.connections import protocol
from arbiter.rulesets import builtin_registry
from arbiter.settings import Settings
module = __import__(sys.argv[1])
registry = builtin_registry()
registry.register(module.RULESET)
uvicorn.run(create_app(Settings.from_env(), registry), host="127.0.0.1",
            port=int(sys.argv[2]), log_level="warning", http=protocol())
"""


@contextlib.contextmanager
def serve_one_more(module: str, folder: str) -> Iterator[str]:
    """Base URL of a server of the built-in rulesets and ``module``'s ``RULESET``, the
    module imported from ``folder``, stopped when the block ends."""
    path = os.pathsep.join(p for p in (folder, os.environ.get("PYTHONPATH", "")) if p)
    with _running(["-c", SERVE_ONE_MORE, module], {"PYTHONPATH": path}) as (base, _):
        yield base


@contextlib.contextmanager
def serve_script(code: str, *args: str) -> Iterator[str]:
    """Base URL of ``python -c code *args PORT`` (a server of a test's own, on a free
    port, which must answer ``GET /healthz``), stopped when the block ends."""
    with _running(["-c", code, *args], None) as (base, _):
        yield base


@contextlib.contextmanager
def _running(args: list[str], env: dict[str, str] | None, output: IO[bytes] | None = None
             ) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Base URL and process of ``python <args> <port>`` on a free port, once it answers;
    its output to ``output`` when given (else a pipe, read if it fails to start)."""
    port = free_port()
    full = {**os.environ, "ARBITER_LOG_LEVEL": "warning", **(env or {})}
    proc = subprocess.Popen([sys.executable, *args, str(port)], env=full,
                            stdout=output or subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc)
        yield base, proc
    finally:
        stop(proc)

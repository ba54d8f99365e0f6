"""The engine's share of a server's CPU, counted from inside the server. The bench
(transport_cpu.py) copies this file as ``sitecustomize.py`` into a temporary directory on
the server's PYTHONPATH, so it runs as the interpreter starts: it wraps the engine's entry
points named by BENCH_CPU_ENTRY ("module:Qualified.name", several separated by commas:
the engine's two steps by default, compiling a state and judging an action against it) so
that each call's ``time.thread_time()`` (the calling thread's user + system CPU, what the
server's /proc/<pid>/stat counts) is added up, and appends the totals as JSON lines to the
file BENCH_CPU_OUT names: once wrapped (or why it could not be), on SIGUSR1 (the bench
marks both ends of a measured window) and at exit.

Imported as ``tests.bench.cpu_probe`` it installs nothing: the bench times ``Tally.wrap``
around a no-op with it, for what the probe itself adds to each call.

Standard library only: it runs before site-packages' own imports are settled."""

from __future__ import annotations

import atexit
import functools
import importlib
import inspect
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

ENTRY = "BENCH_CPU_ENTRY"
OUT = "BENCH_CPU_OUT"
DEFAULT_ENTRY = ("arbiter.engine.ruleset:Position.ruling,"
                 "arbiter.engine.ruleset:Ruleset.position")


class Tally:
    """CPU seconds and calls of the wrapped function, kept per thread: each judging thread
    adds to its own counters, so the measured path takes no lock and no update from one
    thread is lost to another's. Read when no call is running (the bench marks a window
    once its load has ended)."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._threads: list[list[float]] = []  # [seconds, calls, inside] of each thread

    def _own(self) -> list[float]:
        try:
            own: list[float] = self._local.counters
        except AttributeError:
            own = self._local.counters = [0.0, 0, 0]
            self._threads.append(own)  # one bytecode: atomic under the GIL
        return own

    def wrap(self, fn: Callable[..., Any], counted: bool = True) -> Callable[..., Any]:
        """``fn`` timed; ``counted``: its calls are the ones reported (one entry of several
        stands for the request's engine work)."""
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            own = self._own()
            if own[2]:
                # Called from inside a timed call (validate_batch calls validate): its
                # time is already in its caller's, so it is counted once.
                return fn(*args, **kwargs)
            own[2] = 1
            started = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                own[0] += time.thread_time() - started
                own[1] += counted
                own[2] = 0

        return timed

    def totals(self) -> dict[str, float]:
        threads = list(self._threads)
        return {"seconds": sum(t[0] for t in threads), "calls": sum(t[1] for t in threads)}


def wrap_entry(spec: str, tally: Tally) -> str:
    """Replace each function ``spec`` names (separated by commas) by ``tally``'s wrapper
    of it, the first one's calls counted; the file of the module the first came from (so
    the bench can check which source tree the server runs)."""
    files = [_wrap_one(one.strip(), tally, i == 0) for i, one in enumerate(spec.split(","))]
    return files[0]


def _wrap_one(spec: str, tally: Tally, counted: bool) -> str:
    module_name, _, qualname = spec.partition(":")
    module = importlib.import_module(module_name)
    *path, name = qualname.split(".")
    owner: Any = module
    for part in path:
        owner = getattr(owner, part)
    # Looked up statically: a staticmethod or classmethod is rewrapped as one, and a
    # method inherited from a base class is shadowed on this class alone.
    found = inspect.getattr_static(owner, name)
    fn = found.__func__ if isinstance(found, staticmethod | classmethod) else found
    if inspect.iscoroutinefunction(fn):
        # A coroutine's thread CPU between its start and end includes whatever else the
        # event loop ran while it awaited: not its own cost.
        raise TypeError(f"{spec} is a coroutine function: name the synchronous work")
    wrapped = tally.wrap(fn, counted)
    setattr(owner, name, type(found)(wrapped) if fn is not found else wrapped)
    return str(getattr(module, "__file__", ""))


def install(out: str, spec: str) -> None:
    tally = Tally()

    def write(event: str, **more: Any) -> None:
        with open(out, "a") as f:
            f.write(json.dumps({"event": event, **tally.totals(), **more}) + "\n")

    try:
        # At start-up, before any other module has imported the entry point: a plain
        # function bound by ``from m import f`` elsewhere would otherwise escape the wrap.
        source = wrap_entry(spec, tally)
    except Exception as exc:  # site.py would print it to a stderr the bench discards
        write("error", error=f"{spec}: {exc!r}")
        return
    write("wrapped", entry=spec, file=source)
    signal.signal(signal.SIGUSR1, lambda _sig, _frame: write("mark"))
    exited = []

    def at_exit() -> None:
        if not exited:
            exited.append(True)
            write("exit")

    atexit.register(at_exit)

    def on_term(_sig: int, _frame: Any) -> None:
        # uvicorn handles SIGTERM gracefully, then restores the handler it found (this one)
        # and raises SIGTERM again so the process dies of it as expected: a death by
        # signal, which runs no atexit hook. So the totals are written here, and the
        # signal raised again with its default action.
        at_exit()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, on_term)


if __name__ == "sitecustomize" and os.environ.get(OUT):
    install(os.environ[OUT], os.environ.get(ENTRY) or DEFAULT_ENTRY)

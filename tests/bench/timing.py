"""Timing helpers: medians of repeated runs, sized so each item takes a bounded time."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], *, budget: float = 0.5, min_runs: int = 3,
                   max_runs: int = 2000) -> float:
    """Median wall time of ``fn`` over as many runs as fit in ``budget`` seconds."""
    return interleaved_medians([fn], budget=budget, min_runs=min_runs, max_runs=max_runs)[0]


def interleaved_medians(fns: list[Callable[[], object]], *, budget: float = 0.5,
                        min_runs: int = 3, max_runs: int = 2000) -> list[float]:
    """Median wall times of several functions sampled in turn (a, b, c, a, b, c, ...), so
    a slow spell of a shared machine lands on all of them alike and their ratios hold."""
    for fn in fns:
        fn()  # warm up
    started = time.perf_counter()
    for fn in fns:
        fn()
    one = max(time.perf_counter() - started, 1e-7)
    runs = max(min_runs, min(max_runs, int(budget / one)))
    samples: list[list[float]] = [[] for _ in fns]
    # As timeit does: a collection of the whole heap (networkx's graph is millions of
    # objects) would land on whichever function happens to be running, not on its cost.
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            for fn, own in zip(fns, samples, strict=True):
                t = time.perf_counter()
                fn()
                own.append(time.perf_counter() - t)
    finally:
        if enabled:
            gc.enable()
    return [statistics.median(own) for own in samples]


def us(seconds: float) -> float:
    return round(seconds * 1e6, 1)

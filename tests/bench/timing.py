"""Timing helpers: medians of repeated runs, sized so each item takes a bounded time."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], *, budget: float = 0.5, min_runs: int = 3,
                   max_runs: int = 2000) -> float:
    """Median wall time of ``fn`` over as many runs as fit in ``budget`` seconds."""
    fn()  # warm up (imports, caches of the interpreter)
    started = time.perf_counter()
    fn()
    one = max(time.perf_counter() - started, 1e-7)
    runs = max(min_runs, min(max_runs, int(budget / one)))
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def us(seconds: float) -> float:
    return round(seconds * 1e6, 1)

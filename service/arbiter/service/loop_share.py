"""How much of the event loop's own time small work may take.

Work small enough to be done on the event loop itself (one action on a small state:
``lifecycle.INLINE_BYTES``) skips the hop to a worker thread, which cost 40% of a small
validate's throughput (docs/performance.md). ``LoopShare`` keeps that from starving the
probes: at most ``share`` of each ``window`` seconds; past it, work offered inline goes
to a thread until the window ends, so however many small validates arrive at once, a
probe waits behind at most ``share × window`` of them (80 ms) plus the one running; a
larger share of a saturated loop sent to threads cost more throughput (0.6 of 50 ms:
about a quarter)."""

from __future__ import annotations

import time


class LoopShare:
    def __init__(self, window: float = 0.100, share: float = 0.8) -> None:
        self.window = window
        self.allowed = window * share
        self.started = 0.0
        self.used = 0.0

    def take(self) -> bool:
        """Whether the loop may do one more piece of small work now."""
        now = time.perf_counter()
        if now - self.started > self.window:
            self.started, self.used = now, 0.0
        return self.used < self.allowed

    def spend(self, seconds: float) -> None:
        self.used += seconds

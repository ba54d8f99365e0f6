"""A circuit breaker for Redis: after a run of failures stop calling it, and try again
once after a cool-down. A dead Redis then costs nothing per request."""

from __future__ import annotations

import time
from collections.abc import Callable


class CircuitBreaker:
    def __init__(self, failures_to_open: int = 3, cooldown_seconds: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.failures_to_open = failures_to_open
        self.cooldown_seconds = cooldown_seconds
        self._clock = clock
        self._failures = 0
        self._opened_at: float | None = None

    @property
    def state(self) -> str:
        if self._opened_at is None:
            return "closed"
        if self._clock() - self._opened_at >= self.cooldown_seconds:
            return "half-open"
        return "open"

    def allow(self) -> bool:
        """Closed: yes. Open: no. Half-open: yes, for one trial call (the clock restarts so
        concurrent requests do not all try at once)."""
        state = self.state
        if state == "half-open":
            self._opened_at = self._clock()
            return True
        return state == "closed"

    def success(self) -> None:
        self._failures = 0
        self._opened_at = None

    def failure(self) -> None:
        self._failures += 1
        if self._failures >= self.failures_to_open:
            self._opened_at = self._clock()

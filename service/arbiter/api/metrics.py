"""Prometheus metrics: request count and latency per route and ruleset, cache hits and
misses per tier. Each app owns its registry, so tests can build many apps."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("arbiter_requests_total", "Requests answered.",
                                ("route", "ruleset", "status"), registry=self.registry)
        self.latency = Histogram("arbiter_request_seconds", "Time to answer a request.",
                                 ("route", "ruleset"), buckets=BUCKETS, registry=self.registry)
        self.cache = Counter("arbiter_cache_total", "Cache lookups by tier and result.",
                             ("tier", "result"), registry=self.registry)

    def observe(self, route: str, ruleset: str, status: int, seconds: float) -> None:
        self.requests.labels(route, ruleset, str(status)).inc()
        self.latency.labels(route, ruleset).observe(seconds)

    def cache_event(self, tier: str, result: str) -> None:
        self.cache.labels(tier, result).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)

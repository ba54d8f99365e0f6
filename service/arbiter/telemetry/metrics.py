"""Prometheus metrics, right with any number of worker processes.

What is counted: every HTTP request by endpoint and status (so 401s and 429s too) with its
latency, the requests in flight, each REST route's requests and latency per ruleset, the
violations found per ruleset and code, the limits hit (a 408, 429 or 503 naming one too),
the authentications refused by reason, cache lookups per tier and result,
the state of each Redis circuit breaker, and each worker process's CPU, memory and file
descriptors (``process_*``, labelled with its ``pid``).

One process (``ARBITER_WORKERS=1``, the in-process tests): each app owns its registry.
Several workers: ``arbiter serve`` sets ``PROMETHEUS_MULTIPROC_DIR`` to a fresh directory
before uvicorn starts them, prometheus-client's multiprocess mode keeps every worker's
values there in memory-mapped files, and whichever worker answers a scrape adds them all
up. The process metrics, which that mode cannot share, are read from ``/proc`` for every
worker whose files are in the directory; a worker that died has its live gauges removed
at the next scrape.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from arbiter import __version__
from arbiter.cache.breaker import CircuitBreaker

BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
_PID_FILE = re.compile(r"_(\d+)\.db$")


def multiprocess_dir() -> Path | None:
    """The shared metrics directory, when this process is one of several workers."""
    value = os.environ.get(MULTIPROC_ENV)
    return Path(value) if value else None


def reset_multiprocess_dir(path: Path) -> None:
    """Make ``path`` ready for a new server: it exists and holds no values of an earlier
    run (which would otherwise be added to this one's)."""
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()


def endpoint_of(path: str) -> str:
    """A bounded label for a request path (never the path itself: clients choose it)."""
    if path.startswith("/v1/"):
        return "rest"
    return {"/graphql": "graphql", "/healthz": "health", "/readyz": "health",
            "/metrics": "metrics", "/openapi.json": "openapi"}.get(path, "other")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class WorkerProcesses(Collector):
    """``process_*`` metrics of each worker, labelled ``pid``: prometheus-client's own
    ProcessCollector, read once per worker (from /proc, which every worker can read for
    its siblings)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def pids(self) -> list[int]:
        found = {os.getpid()}
        if self.folder is not None:
            for path in self.folder.glob("*.db"):
                match = _PID_FILE.search(path.name)
                if match:
                    found.add(int(match.group(1)))
        return sorted(found)

    def collect(self) -> Iterator[Metric]:
        merged: dict[str, Metric] = {}
        for pid in self.pids():
            if not _alive(pid):
                continue
            for family in _process_families(pid):
                into = merged.setdefault(family.name, Metric(family.name, family.documentation,
                                                             family.type))
                for sample in family.samples:
                    into.add_sample(sample.name, {**sample.labels, "pid": str(pid)},
                                    sample.value)
        yield from merged.values()


def _process_families(pid: int) -> Iterable[Metric]:
    return ProcessCollector(pid=lambda: pid, registry=None).collect()


def _mark_dead(pid: int, folder: Path) -> None:
    multiprocess.mark_process_dead(pid, str(folder))  # type: ignore[no-untyped-call]  # prometheus-client leaves it unannotated


def forget_dead_workers(folder: Path) -> None:
    """Remove the live gauges (in flight, breaker state) of workers that have died:
    uvicorn replaces a dead worker, and its last values must not count any more."""
    for path in folder.glob("*.db"):
        match = _PID_FILE.search(path.name)
        if match and not _alive(int(match.group(1))):
            _mark_dead(int(match.group(1)), folder)


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.folder = multiprocess_dir()
        self.registry = CollectorRegistry()
        # Several workers: the values live in the shared folder, and a scrape builds a
        # registry that reads them all; the objects are registered nowhere.
        own: CollectorRegistry | None = None if self.folder else self.registry
        self.http = Counter("arbiter_http_requests_total", "HTTP requests answered, by "
                            "endpoint (rest, graphql, health, metrics, openapi, other) and "
                            "status.", ("endpoint", "status"), registry=own)
        self.http_latency = Histogram("arbiter_http_request_seconds", "Time to answer an "
                                      "HTTP request, by endpoint.", ("endpoint",),
                                      buckets=BUCKETS, registry=own)
        self.in_flight = Gauge("arbiter_requests_in_flight", "HTTP requests being answered.",
                               registry=own, multiprocess_mode="livesum")
        self.requests = Counter("arbiter_requests_total", "REST requests answered, by route, "
                                "ruleset and status.", ("route", "ruleset", "status"),
                                registry=own)
        self.latency = Histogram("arbiter_request_seconds", "Time to answer a REST request, "
                                 "by route and ruleset.", ("route", "ruleset"),
                                 buckets=BUCKETS, registry=own)
        self.violations = Counter("arbiter_violations_total", "Violations found in judged "
                                  "actions, by ruleset and code.", ("ruleset", "code"),
                                  registry=own)
        self.limit_hits = Counter("arbiter_limit_hits_total", "Requests refused for going "
                                  "over a limit, by the variable that sets it.", ("limit",),
                                  registry=own)
        self.auth_failures = Counter("arbiter_auth_failures_total", "Requests refused for "
                                     "their API key, by reason: missing, invalid, or "
                                     "throttled (too many failures from the address).",
                                     ("reason",), registry=own)
        self.cache = Counter("arbiter_cache_total", "Cache lookups by tier and result.",
                             ("tier", "result"), registry=own)
        self.breaker_open = Gauge("arbiter_redis_breaker_open", "1 while a Redis circuit "
                                  "breaker is open (Redis failing: calls are skipped), else 0.",
                                  ("breaker",), registry=own, multiprocess_mode="livemax")
        info = Gauge("arbiter_info", "The running version (always 1).", ("version",),
                     registry=own, multiprocess_mode="livemax")
        info.labels(__version__).set(1)
        if own is not None:
            own.register(WorkerProcesses(None))
            PlatformCollector(registry=own)
        self._breakers: dict[str, CircuitBreaker] = {}
        self._children: dict[tuple[Any, tuple[str, ...]], Any] = {}

    # --- what the app reports ---------------------------------------------------------

    def request_started(self) -> None:
        self.in_flight.inc()

    def _child(self, metric: Any, *labels: str) -> Any:
        """``metric.labels(*labels)``, kept: every request reports four of them, and
        ``labels`` checks and locks each time. (As many as the metric's own children.)"""
        key = (metric, labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    def request_finished(self, path: str, status: int, seconds: float) -> None:
        endpoint = endpoint_of(path)
        self.in_flight.dec()
        self._child(self.http, endpoint, str(status)).inc()
        self._child(self.http_latency, endpoint).observe(seconds)

    def observe(self, route: str, ruleset: str, status: int, seconds: float) -> None:
        self._child(self.requests, route, ruleset, str(status)).inc()
        self._child(self.latency, route, ruleset).observe(seconds)

    def violations_found(self, ruleset: str, codes: Iterable[str]) -> None:
        for code in codes:
            self._child(self.violations, ruleset, code).inc()

    def limit_hit(self, limit: str) -> None:
        self.limit_hits.labels(limit).inc()

    def auth_failed(self, reason: str) -> None:
        self.auth_failures.labels(reason).inc()

    def cache_event(self, tier: str, result: str) -> None:
        self.cache.labels(tier, result).inc()

    def breaker(self, name: str, cooldown_seconds: float) -> CircuitBreaker:
        """A circuit breaker whose state this registry reports as ``name``."""
        breaker = ObservedBreaker(self, name, cooldown_seconds=cooldown_seconds)
        self._breakers[name] = breaker
        self.breaker_open.labels(name).set(0)
        return breaker

    # --- the scrape ---------------------------------------------------------------------

    def render(self) -> bytes:
        for name, breaker in self._breakers.items():
            self.breaker_open.labels(name).set(0 if breaker.state == "closed" else 1)
        if self.folder is None:
            return generate_latest(self.registry)
        forget_dead_workers(self.folder)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, str(self.folder))  # type: ignore[no-untyped-call]  # unannotated upstream
        registry.register(WorkerProcesses(self.folder))
        PlatformCollector(registry=registry)
        return generate_latest(registry)

    def close(self) -> None:
        """This worker is stopping: its live gauges stop counting."""
        if self.folder is not None:
            _mark_dead(os.getpid(), self.folder)


class ObservedBreaker(CircuitBreaker):
    """A circuit breaker that reports every change of its state to the metrics."""

    def __init__(self, metrics: Metrics, name: str, **options: Any) -> None:
        super().__init__(**options)
        self._gauge = metrics.breaker_open.labels(name)

    def _report(self) -> None:
        self._gauge.set(0 if self.state == "closed" else 1)

    def allow(self) -> bool:
        allowed = super().allow()
        self._report()
        return allowed

    def success(self) -> None:
        super().success()
        self._report()

    def failure(self) -> None:
        super().failure()
        self._report()

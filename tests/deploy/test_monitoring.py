"""deploy/monitoring/: the Grafana dashboard is JSON Grafana imports, the Prometheus rules
are a rule file with the three alerts the README promises (error rate, p99, Redis
degraded), and every metric either of them names is one the service exposes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from arbiter.telemetry.metrics import Metrics

MONITORING = Path(__file__).resolve().parents[2] / "deploy" / "monitoring"
DASHBOARD = MONITORING / "grafana-dashboard.json"
ALERTS = MONITORING / "alerts.yaml"
METRIC = re.compile(r"\b((?:arbiter|process|python)_[a-z_]+)\b")


def exposed() -> set[str]:
    """Every sample name the service can expose: each family of a fresh app's registry
    (labelled families are listed before their first sample) with the suffixes of its
    type."""
    names = set()
    for family in Metrics().registry.collect():
        suffixes = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_sum",
                                                                     "_count", "_created"),
                    }.get(family.type, ("",))
        names |= {family.name + suffix for suffix in suffixes}
    return names


def expressions(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["expr"]] if isinstance(node.get("expr"), str) else []
        return found + [e for value in node.values() for e in expressions(value)]
    if isinstance(node, list):
        return [e for value in node for e in expressions(value)]
    return []


def named(expr: str) -> set[str]:
    # Label values inside {...} and strings are not metric names.
    return set(METRIC.findall(re.sub(r'"[^"]*"', "", expr)))


def test_the_dashboard_is_an_importable_grafana_dashboard() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["title"] and dashboard["uid"] and dashboard["schemaVersion"] >= 30
    assert [i["name"] for i in dashboard["__inputs"]] == ["DS_PROMETHEUS"]
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids)) >= 10
    for panel in dashboard["panels"]:
        assert panel["targets"] and all(t["expr"] for t in panel["targets"]), panel["title"]
        assert {"h", "w", "x", "y"} <= set(panel["gridPos"])


def test_the_alert_rules_cover_errors_latency_and_redis() -> None:
    (document,) = yaml.safe_load_all(ALERTS.read_text())
    rules = [rule for group in document["groups"] for rule in group["rules"]]
    assert {rule["alert"] for rule in rules} == {"ArbiterErrorRate", "ArbiterSlowP99",
                                                 "ArbiterRedisDegraded"}
    for rule in rules:
        assert set(rule) == {"alert", "expr", "for", "labels", "annotations"}, rule["alert"]
        assert re.fullmatch(r"\d+[smh]", rule["for"])
        assert rule["labels"]["severity"] and rule["annotations"]["summary"]
        assert rule["expr"].count("(") == rule["expr"].count(")")
    by_name = {rule["alert"]: rule["expr"] for rule in rules}
    assert "5.." in by_name["ArbiterErrorRate"]
    assert "histogram_quantile(0.99" in by_name["ArbiterSlowP99"]
    assert "arbiter_redis_breaker_open" in by_name["ArbiterRedisDegraded"]


def test_every_metric_named_is_one_the_service_exposes() -> None:
    available = exposed() | {"process_cpu_seconds_total", "process_resident_memory_bytes",
                             "python_info"}
    exprs = expressions(json.loads(DASHBOARD.read_text())) + expressions(
        yaml.safe_load(ALERTS.read_text()))
    assert len(exprs) >= 15
    unknown = {name for expr in exprs for name in named(expr)} - available
    assert not unknown, unknown

"""Render a `make bench` results file as the Markdown tables of docs/performance.md
(docs/bench/make-bench.md): `python -m tests.bench.report bench-results.json`."""

from __future__ import annotations

import json
import sys
from typing import Any


def md(rows: list[dict[str, Any]], cols: list[tuple[str, str]]) -> str:
    head = "| " + " | ".join(title for _, title in cols) + " |"
    rule = "|" + "|".join("---" for _ in cols) + "|"
    body = ["| " + " | ".join(str(r.get(key, "")) for key, _ in cols) + " |" for r in rows]
    return "\n".join([head, rule, *body])


def render(results: dict[str, Any]) -> str:
    out = [f"Machine: {results['machine']['cpu']}, {results['machine']['cores']} cores, "
           f"Python {results['machine']['python']}; run {results['started']}."]
    if "http" in results:
        out += ["", "HTTP, one uvicorn worker (uvloop, httptools), 16 connections, loopback:", "",
                md(results["http"], [("what", "request"), ("rps", "req/s"), ("p50_ms", "p50 ms"),
                                     ("p99_ms", "p99 ms"), ("errors", "errors"),
                                     ("vs_echo_rps", "× echo req/s"),
                                     ("vs_echo_p99", "× echo p99"),
                                     ("vs_rest_pair_rps", "× REST pair")])]
    if "transport" in results:
        out += ["", "CPU of one REST validate, board by reference, in the server (µs a request; "
                f"the probe adds {results['transport']['probe_us_per_call']} µs a call):", "",
                md(results["transport"]["rows"], [("round", "round"), ("what", "request"),
                                                  ("server_us", "server"),
                                                  ("engine_us", "engine"),
                                                  ("outside_us", "outside the engine"),
                                                  ("outside_per_engine", "outside ÷ engine"),
                                                  ("outside_vs_floor", "outside × floor"),
                                                  ("rps", "req/s")])]
    if "http_latency" in results:
        out += ["", "One connection, median latency by board size:", "",
                md(results["http_latency"], [("what", "request"), ("p50_ms", "p50 ms"),
                                             ("p99_ms", "p99 ms"), ("rps", "req/s")])]
    if "rulesets" in results:
        out += ["", "Engine only (parse, judge or answer, serialise; no HTTP), median:", "",
                md(results["rulesets"], [("what", "request"), ("median_us", "µs"),
                                         ("of_which_parse_us", "of which parsing µs")])]
    if "http_conquest_cost" in results:
        out += ["", "conquest-cost over HTTP, one connection:", "",
                md(results["http_conquest_cost"], [("what", "request"), ("p50_ms", "p50 ms"),
                                                   ("p99_ms", "p99 ms"), ("rps", "req/s")])]
    if "graphql_inprocess" in results:
        out += ["", "GraphQL in process, one question, parser and validation caches on:", "",
                md(results["graphql_inprocess"], [("what", "state given as"),
                                                  ("median_us", "µs"),
                                                  ("vs_scalar", "× scalar")])]
    if "engine" in results:
        out += ["", "Reachability search alone on a compiled board (µs, median):", "",
                md(results["engine"], [("hexes", "hexes"), ("budget", "budget"),
                                       ("arbiter_us", "Arbiter"),
                                       ("bucket_queue_us", "bare bucket queue"),
                                       ("networkx_us", "networkx"),
                                       ("vs_floor", "× bucket queue"),
                                       ("vs_networkx", "× networkx")])]
    if "cache" in results:
        cache = results["cache"]
        out += ["", "`reachable` through the cache (µs, median; a miss parses, answers and "
                "serialises):", "",
                md(cache["rows"], [("hexes", "hexes"), ("request_bytes", "request bytes"),
                                   ("computed_us", "computed"),
                                   ("memory_hit_us", "in-process hit"),
                                   ("redis_hit_us", "Redis hit"),
                                   ("redis_vs_computed", "Redis ÷ computed")]),
                "", f"A Redis hit beats computing from {cache.get('redis_pays_from_bytes')} "
                "request bytes on."]
    if "memory" in results:
        mem = results["memory"]
        readings = ", ".join(f"{k.replace('_kib', '').replace('_', ' ')}: {v // 1024} MiB"
                             for k, v in mem.items() if k.endswith("_kib"))
        out += ["", f"Resident size of one worker over {mem['requests']} requests on "
                f"{mem['boards']} distinct boards: {readings}."]
    return "\n".join(out)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(render(json.load(f)))

"""`make bench`: every benchmark side by side in one run; prints a table and writes a JSON
file of results (`--out`, default bench-results.json). `--quick` runs each item briefly
(the smoke test uses it). Loopback only; every load is bounded in time and count."""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform()}


def table(title: str, rows: list[dict[str, Any]]) -> str:
    if not rows:
        return ""
    cols = list(dict.fromkeys(k for r in rows for k in r))
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in cols}
    lines = [f"\n## {title}", " | ".join(c.ljust(widths[c]) for c in cols),
             "-|-".join("-" * widths[c] for c in cols)]
    lines += [" | ".join(str(r.get(c, "")).ljust(widths[c]) for c in cols) for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(prog="make bench")
    parser.add_argument("--quick", action="store_true", help="brief runs (smoke test)")
    parser.add_argument("--out", default="bench-results.json")
    parser.add_argument("--only", default="", help="comma-separated sections")
    args = parser.parse_args()

    from tests.bench import (
        cache_bench,
        engine_bench,
        graphql_inprocess,
        http_bench,
        ruleset_bench,
        transport_cpu,
    )

    sections = {
        "engine": lambda: engine_bench.run(args.quick),
        "rulesets": lambda: ruleset_bench.run(args.quick),
        "graphql_inprocess": lambda: graphql_inprocess.run(args.quick),
        "cache": lambda: cache_bench.run(args.quick),
        "http": lambda: http_bench.throughput(args.quick),
        "http_latency": lambda: http_bench.latency_big(args.quick),
        "http_conquest_cost": lambda: http_bench.conquest_cost(args.quick),
        "boards": lambda: http_bench.boards(args.quick),
        "transport": lambda: transport_cpu.run(args.quick),
        "memory": lambda: http_bench.memory(args.quick),
    }
    wanted = [s for s in args.only.split(",") if s] or list(sections)
    results: dict[str, Any] = {"machine": machine(), "quick": args.quick,
                               "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    print(f"machine: {results['machine']}")
    for name in wanted:
        started = time.perf_counter()
        results[name] = sections[name]()
        value = results[name]
        if isinstance(value, dict) and "rows" in value:
            print(table(name, value["rows"]))
            print({k: v for k, v in value.items() if k != "rows"})
        elif isinstance(value, dict):
            print(table(name, [value]))
        else:
            print(table(name, value))
        print(f"({name}: {time.perf_counter() - started:.1f} s)")
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()

"""A small closed-loop HTTP/1.1 load generator for loopback benchmarks: N keep-alive
connections, each sending the same POST back to back, bounded in requests and seconds.
Runs in its own process so it does not share the server's interpreter.

    python -m tests.bench.loadgen HOST PORT PATH BODY_FILE CONNECTIONS SECONDS MAX_REQUESTS

(BODY_FILE ending in .jsonl: one body per line, sent round-robin.)

prints one JSON line: requests, seconds, rps, p50_ms, p99_ms, errors.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time


async def client(host: str, port: int, requests: list[bytes], deadline: float,
                 budget: list[int], latencies: list[float], errors: list[int]) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while budget[0] > 0 and time.perf_counter() < deadline:
            budget[0] -= 1
            request = requests[budget[0] % len(requests)]
            started = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            if status >= 400:
                errors[0] += 1
    finally:
        writer.close()


async def run(host: str, port: int, path: str, bodies: list[bytes], connections: int,
              seconds: float, max_requests: int) -> dict[str, float]:
    requests = [(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
                 f"\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body for body in bodies]
    latencies: list[float] = []
    errors = [0]
    budget = [max_requests]
    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(*(client(host, port, requests, deadline, budget, latencies, errors)
                           for _ in range(connections)))
    elapsed = time.perf_counter() - started
    latencies.sort()
    n = len(latencies)
    return {"requests": n, "seconds": round(elapsed, 3), "rps": round(n / elapsed, 1),
            "p50_ms": round(latencies[n // 2] * 1000, 3) if n else 0.0,
            "p99_ms": round(latencies[min(n - 1, int(n * 0.99))] * 1000, 3) if n else 0.0,
            "errors": errors[0]}


def main() -> None:
    host, port, path, body_file, conns, seconds, max_requests = sys.argv[1:8]
    with open(body_file, "rb") as f:
        raw = f.read()
    # A .jsonl file holds one body per line, sent round-robin.
    bodies = raw.splitlines() if body_file.endswith(".jsonl") else [raw]
    result = asyncio.run(run(host, int(port), path, bodies, int(conns), float(seconds),
                             int(max_requests)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()

"""The figures behind http/compression.py: answer bytes in each coding for the 331-hex
validate answer and /openapi.json, and the CPU time of each encoding per answer
(process time, averaged over many runs), at the levels the service uses and others.

    PYTHONPATH=service:. .venv/bin/python tests/bench/compression_bench.py
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable

import orjson
from starlette.testclient import TestClient
from tests.bench import boards_hex_maneuver as hexes

from arbiter.http.app import create_app
from arbiter.http.compression import encode
from arbiter.settings import Settings


def cpu_us(work: Callable[[], bytes], runs: int) -> float:
    work()
    started = time.process_time()
    for _ in range(runs):
        work()
    return (time.process_time() - started) / runs * 1e6


def main() -> None:
    warnings.simplefilter("ignore")
    with TestClient(create_app(Settings.from_env())) as client:
        validate = client.post("/v1/rulesets/hex_maneuver/validate",
                               content=orjson.dumps(hexes.validate_body(10)),
                               headers={"accept-encoding": "identity"}).content
        openapi = client.get("/openapi.json", headers={"accept-encoding": "identity"}).content
    for name, data, runs in (("validate, 331 hexes", validate, 200),
                             ("/openapi.json", openapi, 3),
                             ("1,000 bytes of it", validate[:1000], 2000),
                             ("300 bytes of it", validate[:300], 2000)):
        print(f"{name}: {len(data):,} bytes as it is")
        for coding in ("br", "zstd", "gzip"):
            for best in (False, True):
                if best and name.startswith("validate") and coding == "br":
                    runs_here = 3
                else:
                    runs_here = runs
                out = encode(coding, data, best)
                us = cpu_us(lambda c=coding, b=best, d=data: encode(c, d, b), runs_here)
                print(f"  {coding:4} {'once' if best else 'per request':11} "
                      f"{len(out):>9,} bytes {us:>10,.0f} µs")


if __name__ == "__main__":
    main()

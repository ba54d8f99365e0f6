"""The CPU one REST ``validate`` of a board sent by reference costs the server, split into
the engine's part (compiling the state and judging the action: ``Ruleset.position`` and
``Position.ruling``, or the entry points a tree names instead) and the
rest, the transport (reading the request, parsing it, the HTTP stack, writing the answer);
beside them the floor, the orjson echo server's CPU for the same body (the least any JSON
service spends on it). All in µs per request.

Each server is ``arbiter serve`` from a source tree (one worker, ARBITER_CACHE_SIZE=0,
loopback) with cpu_probe.py as its sitecustomize; the 331-hex board is stored with a PUT,
then a check and a warm-up, then windows of N requests from 16 connections (as the
`boards` section). A window's server CPU comes from /proc/<pid>/stat (every thread), the
engine's from the probe, asked for its totals (SIGUSR1) at both ends of the window.

This machine's speed varies about 2x from minute to minute, so figures are compared only
within one run, with windows interleaved (A, B, floor, A, B, floor, ...). Even so a
window's µs moves by a quarter from one to the next; the outside's µs per engine µs of the
same window moves by a few % (a slow spell slows both alike), and compares two trees whose
engines do the same work:

    python -m tests.bench.transport_cpu [--tree TREE]
    python -m tests.bench.transport_cpu --ab TREE_A TREE_B [--entry-a X --entry-b Y]
        [--rounds 6 --requests 3000]

An entry of ``none`` runs that server without the probe: ``--ab T T --entry-b none`` gives
what the probe costs the server. `make bench` runs the first form as its `transport`."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
from tests.bench import boards_hex_maneuver as hexes
from tests.bench import cpu_probe
from tests.bench.http_bench import split_board
from tests.bench.servers import ROOT, check, cpu_seconds, load, serve
from tests.bench.timing import interleaved_medians

PATH = "/v1/rulesets/hex_maneuver/validate"
FLOOR = "floor: orjson echo"
CONNECTIONS = 16
NO_PROBE = "none"
Row = dict[str, Any]


@dataclass(frozen=True)
class Side:
    """A server to measure: ``arbiter serve`` from ``tree``, its ``entry`` wrapped by the
    probe (None: no probe, the server as it runs)."""

    label: str
    tree: Path
    entry: str | None


@dataclass(frozen=True)
class Server:
    label: str
    port: int
    pid: int
    probe: Path | None  # the file the probe writes its totals to


def validate_request() -> tuple[str, bytes, bytes]:
    """The board's id, the board as stored, and the validate body that names it."""
    body = hexes.validate_body(10)
    board_id, board, state = split_board(body["state"], ("hexes",))
    return board_id, orjson.dumps(board), orjson.dumps({**body, "state": state})


def records(probe: Path) -> list[Row]:
    # Only whole lines: the server may be writing the last one.
    text = probe.read_text() if probe.exists() else ""
    return [json.loads(line) for line in text.split("\n")[:-1]]


def totals(server: Server) -> Row:
    """The probe's totals now: it writes them on SIGUSR1, in the server's main thread."""
    assert server.probe is not None
    seen = len(records(server.probe))
    os.kill(server.pid, signal.SIGUSR1)
    deadline = time.monotonic() + 10
    while len(got := records(server.probe)) == seen:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{server.label}: the probe did not answer SIGUSR1")
        time.sleep(0.01)
    return got[seen]


def drive(server: Server, path: str, body: bytes, requests: int) -> Row:
    got = load(server.port, path, [body], connections=CONNECTIONS,
               seconds=max(60.0, requests / 20), max_requests=requests)
    if got["requests"] != requests or got["errors"]:
        raise RuntimeError(f"{server.label}: {got['requests']} of {requests} requests "
                           f"answered, {got['errors']} errors")
    return got


def window(server: Server, path: str, body: bytes, requests: int) -> Row:
    """CPU µs per request over ``requests`` requests: the server's, and with a probe the
    engine's and the rest (outside)."""
    before = totals(server) if server.probe else None
    started = cpu_seconds(server.pid)
    got = drive(server, path, body, requests)
    spent = (cpu_seconds(server.pid) - started) / requests
    row: Row = {"what": server.label, "server_us": round(spent * 1e6, 1), "rps": got["rps"]}
    if before is not None:
        after = totals(server)
        calls = after["calls"] - before["calls"]
        if not calls:
            raise RuntimeError(f"{server.label}: the probed entry point was never called")
        engine = (after["seconds"] - before["seconds"]) / requests
        # The machine's speed swings a window's µs by up to 2x, but moves the engine and
        # the rest of the same window alike: outside per engine µs holds within a few %
        # from window to window, where the engine does the same work.
        row.update(engine_us=round(engine * 1e6, 1), outside_us=round((spent - engine) * 1e6, 1),
                   outside_per_engine=round((spent - engine) / engine, 3),
                   calls_per_request=round(calls / requests, 2))
    return row


def probed_source(side: Side, probe: Path) -> None:
    """Fail unless the probe wrapped the entry point, from the side's own tree."""
    first = (records(probe) or [{"event": "error", "error": "the probe did not run"}])[0]
    if first["event"] != "wrapped":
        raise RuntimeError(f"{side.label}: {first['error']}")
    if not Path(first["file"]).resolve().is_relative_to(side.tree.resolve()):
        raise RuntimeError(f"{side.label}: the server imported {first['file']}, "
                           f"not {side.tree}'s")


@contextlib.contextmanager
def arbiter(side: Side, scratch: Path, request: tuple[str, bytes, bytes],
            warmup: int) -> Iterator[Server]:
    """``side``'s server, its board stored and warmed up; the probe's exit totals checked
    once it has stopped."""
    board_id, board, body = request
    source = str(side.tree.resolve() / "service")
    # One worker, the pid measured; computing every answer, not the cache.
    env = {"ARBITER_WORKERS": "1", "ARBITER_CACHE_SIZE": "0", "PYTHONPATH": source}
    probe = None
    if side.entry is not None:
        probe = scratch / f"{side.label}.jsonl"
        env.update({"PYTHONPATH": f"{scratch}{os.pathsep}{source}", cpu_probe.ENTRY: side.entry,
                    cpu_probe.OUT: str(probe)})
    with serve("arbiter", env) as (port, pid):
        server = Server(side.label, port, pid, probe)
        if probe is not None:
            probed_source(side, probe)
        httpx.put(f"http://127.0.0.1:{port}/v1/rulesets/hex_maneuver/boards/{board_id}",
                  content=board, timeout=30).raise_for_status()
        if check(port, PATH, body).get("legal") is not True:
            raise RuntimeError(f"{side.label}: the benchmark's maneuver is not legal")
        drive(server, PATH, body, warmup)
        yield server
    if probe is not None and records(probe)[-1]["event"] != "exit":
        raise RuntimeError(f"{side.label}: the probe wrote no totals at exit")


@contextlib.contextmanager
def echo(body: bytes, warmup: int) -> Iterator[Server]:
    with serve("echo") as (port, pid):
        server = Server(FLOOR, port, pid, None)
        drive(server, "/echo-json", body, warmup)
        yield server


def measure(sides: list[Side], rounds: int, requests: int, warmup: int,
            on_row: Callable[[Row], None] = lambda _row: None) -> list[Row]:
    """Rows of every window: each round measures every side in turn, then the floor."""
    request = validate_request()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-cpu-") as tmp, \
            contextlib.ExitStack() as stack:
        scratch = Path(tmp)
        shutil.copyfile(cpu_probe.__file__, scratch / "sitecustomize.py")
        servers = [stack.enter_context(arbiter(side, scratch, request, warmup))
                   for side in sides]
        floor_server = stack.enter_context(echo(request[2], warmup))
        for number in range(1, rounds + 1):
            measured = [window(s, PATH, request[2], requests) for s in servers]
            floor = window(floor_server, "/echo-json", request[2], requests)
            for got in [*measured, floor]:
                row = {"round": number, **got}
                if "outside_us" in row:
                    row["outside_vs_floor"] = round(row["outside_us"] / floor["server_us"], 2)
                rows.append(row)
                on_row(row)
    return rows


def medians(rows: list[Row]) -> dict[str, Row]:
    """Each side's median of every figure over the rounds."""
    out: dict[str, Row] = {}
    for label in dict.fromkeys(r["what"] for r in rows):
        own = [r for r in rows if r["what"] == label]
        out[label] = {"round": "median", "what": label} | {
            key: round(statistics.median(r[key] for r in own), 2)
            for key in own[0] if key not in ("round", "what")}
    return out


def probe_cost_us(calls: int = 1000) -> float:
    """What the probe adds to one call, in µs: a wrapped no-op against the bare one, in
    this process (the server pays it once a request; the engine's figure holds the part
    between its two clock reads)."""

    def noop() -> None:
        return None

    def repeat(fn: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            for _ in range(calls):
                fn()

        return run

    bare, probed = interleaved_medians([repeat(noop), repeat(cpu_probe.Tally().wrap(noop))],
                                       budget=0.3)
    return round((probed - bare) / calls * 1e6, 2)


def run(quick: bool) -> Row:
    """`make bench`'s `transport`: this tree, three rounds (one with --quick)."""
    side = Side("REST validate by reference (331 hexes)", ROOT, cpu_probe.DEFAULT_ENTRY)
    rows = measure([side], rounds=1 if quick else 3, requests=200 if quick else 3000,
                   warmup=50 if quick else 500)
    if not quick:
        rows += medians(rows).values()
    return {"rows": rows, "probe_us_per_call": probe_cost_us()}


def compare(rows: list[Row], a: str, b: str) -> Row:
    """B against A, for each figure: the ratio of their medians, and each round's own
    ratio (a slow spell of the machine lands on both windows of a round alike). Outside
    the engine, in µs and per engine µs, when both are probed; else the server's CPU."""
    pair = [r for r in rows if r["what"] in (a, b)]
    probed = all("outside_us" in r for r in pair)
    med = medians(pair)
    rounds = sorted({r["round"] for r in pair})
    out: Row = {}
    for key in ("outside_us", "outside_per_engine") if probed else ("server_us",):
        by = {(r["round"], r["what"]): r[key] for r in pair}
        per_round = [round(by[n, b] / by[n, a], 3) for n in rounds]
        out[key] = {"A": med[a][key], "B": med[b][key],
                    "B/A": round(med[b][key] / med[a][key], 3), "B/A by round": per_round,
                    "B/A by round, median": round(statistics.median(per_round), 3)}
    return out


def show(row: Row) -> None:
    parts = [f"round {row['round']}", f"{row['what']}:", f"server {row['server_us']} µs"]
    if "outside_us" in row:
        parts += [f"engine {row['engine_us']}", f"outside {row['outside_us']}",
                  f"({row['outside_per_engine']}x engine, {row['outside_vs_floor']}x floor)"]
        if row["calls_per_request"] != 1:
            parts.append(f"{row['calls_per_request']} calls/request")
    print(" ".join([*parts, f"{row['rps']} req/s"]), flush=True)


def entry_point(name: str) -> str | None:
    return None if name == NO_PROBE else name


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.transport_cpu",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the source tree measured alone (default: this one)")
    parser.add_argument("--ab", nargs=2, type=Path, metavar=("TREE_A", "TREE_B"),
                        help="two source trees, measured in turn")
    parser.add_argument("--entry", default=cpu_probe.DEFAULT_ENTRY,
                        help=f"the engine's entry point, module:Qualified.name, or "
                             f"'{NO_PROBE}' (default %(default)s)")
    parser.add_argument("--entry-a", help="tree A's entry point (default --entry)")
    parser.add_argument("--entry-b", help="tree B's entry point (default --entry)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=3000, help="per window")
    parser.add_argument("--warmup", type=int, default=500, help="requests, per server")
    parser.add_argument("--out", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args()
    if args.ab:
        sides = [Side("A", args.ab[0], entry_point(args.entry_a or args.entry)),
                 Side("B", args.ab[1], entry_point(args.entry_b or args.entry))]
    else:
        sides = [Side("tree", args.tree, entry_point(args.entry))]
    for side in sides:
        print(f"{side.label}: {side.tree} (probe: {side.entry or 'none'})")
    print(f"the probe costs {probe_cost_us()} µs a call (a wrapped no-op, in process)")
    rows = measure(sides, args.rounds, args.requests, args.warmup, on_row=show)
    summary = list(medians(rows).values())
    for row in summary:
        show(row)
    result: Row = {"rows": rows, "medians": summary}
    if args.ab:
        result["compare"] = compare(rows, "A", "B")
        for key, figures in result["compare"].items():
            print(f"{key}: {json.dumps(figures, ensure_ascii=False)}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

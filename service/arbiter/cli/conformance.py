"""``arbiter conformance --base URL [--ruleset X]``: run the conformance suite
(conformance/README.md) against any HTTP server that speaks the contract, one line per
case (PASS or FAIL, with every way the answer missed) and a summary; exit 0 when every case
passed, 1 when one failed, 2 when the suite or the server cannot be reached.

The runner judges from the suite's files alone, with the standard library: it imports
nothing of the engine (tests/test_import_boundary.py checks it), so what it reports is
what the server answered over HTTP, whichever engine is behind it.

The suite is the ``conformance/`` folder at the top of the checkout (``--suite`` names
another): the runner finds it beside ``service/`` from its own file, which an editable
install (``make run``, ``make test``) leaves in the checkout; an installed wheel (the
image) has no suite, so give it ``--suite``."""

from __future__ import annotations

import argparse
import itertools
import json
import socket
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# service/arbiter/cli/conformance.py -> the checkout's top level.
CHECKOUT_SUITE = Path(__file__).resolve().parents[3] / "conformance"


@dataclass
class Result:
    case: dict[str, Any]
    misses: list[str] = field(default_factory=list)
    unreachable: bool = False

    @property
    def passed(self) -> bool:
        return not self.misses


class SuiteError(Exception):
    """The suite cannot be read, or does not hold what was asked for."""


def add_command(sub: Any) -> None:
    """The ``conformance`` subcommand, on the ``arbiter`` parser's subparsers."""
    command = sub.add_parser(
        "conformance", help="run the conformance suite against a server",
        description=textwrap.fill(
            "Send every case of the conformance suite (conformance/) to the server at "
            "--base, as the HTTP request the case gives, and check the answer against "
            "the case's expectation: one PASS or FAIL line per case, then a summary. The "
            "suite's files alone judge the answers, so any server that speaks the "
            "contract can be run against it.", 78),
        epilog="exit status:\n  0  every case passed\n  1  a case failed (its FAIL line says "
        "how)\n  2  the suite could not be read, or the server could not be reached",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("--base", required=True, metavar="URL",
                         help="the server's base URL (http://127.0.0.1:8000)")
    command.add_argument("--ruleset", action="append", metavar="RULESET",
                         help="run only this ruleset's cases (repeat for more)")
    command.add_argument("--suite", metavar="DIR", type=Path,
                         help="the suite's folder (default: conformance/ of the checkout)")
    command.add_argument("--header", action="append", default=[], metavar="'NAME: VALUE'",
                         help="a header to send with every request (an API key: "
                         "'X-API-Key: ...'; repeat for more)")
    command.add_argument("--jobs", type=int, default=1, metavar="N",
                         help="requests in flight at once (default: 1)")
    command.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                         help="how long to wait for one answer (default: 60)")
    command.add_argument("--report", metavar="FILE", type=Path,
                         help="also write the results as JSON to FILE")
    command.set_defaults(run=run)


def suite_folder(given: Path | None) -> Path:
    folder = given if given is not None else CHECKOUT_SUITE
    if not (folder / "manifest.json").is_file():
        raise SuiteError(f"no conformance suite in {folder} (no manifest.json): pass --suite "
                         "DIR, the conformance/ folder of an Arbiter checkout")
    return folder


def load(folder: Path, rulesets: list[str] | None) -> tuple[dict[str, Any],
                                                            list[dict[str, Any]]]:
    """The manifest and the cases to run, in the suite's order (per ruleset, per group,
    by number)."""
    manifest: dict[str, Any] = json.loads((folder / "manifest.json").read_text())
    known = list(manifest["rulesets"])
    unknown = sorted(set(rulesets or []) - set(known))
    if unknown:
        raise SuiteError(f"the suite has no ruleset {', '.join(unknown)} (it has "
                         f"{', '.join(known)})")
    cases = []
    for ruleset in known:
        if rulesets and ruleset not in rulesets:
            continue
        for group in manifest["rulesets"][ruleset]["groups"]:
            for case_id in group["cases"]:
                path = folder / "cases" / f"{case_id}.json"
                if not path.is_file():
                    raise SuiteError(f"the manifest lists {case_id}, but {path} is missing")
                cases.append(json.loads(path.read_text()))
    return manifest, cases


def ask(base: str, request: dict[str, Any], headers: dict[str, str],
        timeout: float) -> tuple[int, Any]:
    """The status and the JSON body (None when it is not JSON) of a case's request.
    Raises URLError when the server cannot be reached."""
    # Imported here: every command's parser is built with this module (35 ms of
    # urllib's and the thread pool's imports on a busy 2-core machine, for --help).
    import urllib.error
    import urllib.request

    data = json.dumps(request["body"]).encode()
    sent = urllib.request.Request(
        base.rstrip("/") + request["path"], data=data, method=request["method"],
        headers={"Content-Type": "application/json", "Accept": "application/json",
                 **headers})
    try:
        with urllib.request.urlopen(sent, timeout=timeout) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as refused:  # a 4xx or 5xx: an answer all the same
        status, raw = refused.code, refused.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, None


def same(expected: Any, actual: Any) -> bool:
    """JSON equality: a number equals a number of the same value, but true is not 1."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    return bool(expected == actual)


def subset_miss(expected: Any, actual: Any, where: str) -> str | None:
    """None when ``actual`` holds ``expected`` (objects: every key given, recursively;
    arrays: the same length, element by element; anything else: equal), else the first
    place it does not."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where or '/'}: expected an object, got {_short(actual)}"
        for key, value in expected.items():
            if key not in actual:
                return f"{where}/{key}: missing"
            miss = subset_miss(value, actual[key], f"{where}/{key}")
            if miss:
                return miss
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{where or '/'}: expected {_short(expected)}, got {_short(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            miss = subset_miss(e, a, f"{where}/{i}")
            if miss:
                return miss
        return None
    if not same(expected, actual):
        return f"{where or '/'}: expected {_short(expected)}, got {_short(actual)}"
    return None


def _short(value: Any, limit: int = 200) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _pairs(entries: Any, name: str) -> list[tuple[Any, Any]] | None:
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        return None
    return [(e.get(name), e.get("rule")) for e in entries]


def outcome_misses(expected: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    """Every way a validate answer misses the case's expected outcome."""
    misses = []
    for key in ("legal", "applied", "reversible"):
        if key in expected and not same(expected[key], outcome.get(key)):
            misses.append(f"{key}: expected {_short(expected[key])}, "
                          f"got {_short(outcome.get(key))}")
    if "violations" in expected:
        got = _pairs(outcome.get("violations"), "code")
        wanted = [(v["code"], v["rule"]) for v in expected["violations"]]
        if got is None or sorted(got, key=str) != sorted(wanted, key=str):
            misses.append(f"violations (code, rule): expected {sorted(wanted)}, got "
                          f"{sorted(got, key=str) if got is not None else 'none'}")
    if "events" in expected:
        got = _pairs(outcome.get("events"), "kind")
        wanted = [(e["kind"], e["rule"]) for e in expected["events"]]
        if got != wanted:
            misses.append(f"events (kind, rule) in order: expected {wanted}, got {got}")
    for key in ("state", "derived"):
        if key in expected:
            miss = subset_miss(expected[key], outcome.get(key), f"/{key}")
            if miss:
                misses.append(miss)
    return misses


def misses(case: dict[str, Any], status: int, body: Any) -> list[str]:
    """Every way an answer (status, JSON body) misses the case's expectation."""
    expect = case["expect"]
    if status != expect["status"]:
        return [f"status: expected {expect['status']}, got {status}: {_short(body)}"]
    if not isinstance(body, dict):
        return [f"the answer is not a JSON object: {_short(body)}"]
    if "pointers" in expect:
        errors = body.get("errors")
        if not isinstance(errors, list):
            return [f"the 422 lists no errors: {_short(body)}"]
        got = sorted(str(e.get("pointer")) for e in errors if isinstance(e, dict))
        return [] if got == expect["pointers"] else [
            f"pointers: expected {expect['pointers']}, got {got}"]
    if "answer" in expect:
        miss = subset_miss(expect["answer"], body, "")
        return [miss] if miss else []
    return outcome_misses(expect["outcome"], body)


def judge(case: dict[str, Any], base: str, headers: dict[str, str],
          timeout: float) -> Result:
    try:
        status, body = ask(base, case["request"], headers, timeout)
    except OSError as failed:  # no answer (urllib's URLError too): refused, reset, timeout
        reason = getattr(failed, "reason", failed)
        # No server there at all (refused, no such host), as against one that timed out
        # or dropped the connection on this case: a failure of the case.
        nobody = isinstance(reason, ConnectionRefusedError | socket.gaierror)
        return Result(case, [f"no answer: {reason}"], unreachable=nobody)
    return Result(case, misses(case, status, body))


def results(cases: list[dict[str, Any]], base: str, headers: dict[str, str],
            timeout: float, jobs: int) -> Iterator[Result]:
    """Each case's result, in the suite's order."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        yield from pool.map(lambda case: judge(case, base, headers, timeout), cases)


def _headers(given: list[str]) -> dict[str, str]:
    out = {}
    for header in given:
        name, colon, value = header.partition(":")
        if not colon or not name.strip():
            raise SuiteError(f"--header {header!r} is not 'NAME: VALUE'")
        out[name.strip()] = value.strip()
    return out


def run(args: argparse.Namespace) -> int:
    try:
        folder = suite_folder(args.suite)
        manifest, cases = load(folder, args.ruleset)
        headers = _headers(args.header)
    except (SuiteError, OSError, ValueError, KeyError) as exc:
        print(f"arbiter conformance: {exc}", file=sys.stderr)
        return 2
    started = time.monotonic()
    done: list[Result] = []
    if cases:
        first = judge(cases[0], args.base, headers, args.timeout)
        if first.unreachable:
            print(f"arbiter conformance: cannot reach {args.base}: {first.misses[0]}",
                  file=sys.stderr)
            return 2
        for result in itertools.chain([first], results(cases[1:], args.base, headers,
                                                       args.timeout, args.jobs)):
            _print(result)
            done.append(result)
    seconds = time.monotonic() - started
    print(summary(manifest, args.base, done, seconds))
    if args.report:
        args.report.write_text(json.dumps(report(manifest, args.base, done, seconds),
                                          indent=2) + "\n")
    return 0 if all(r.passed for r in done) else 1


def _print(result: Result) -> None:
    case = result.case
    where = f"{case['id']}  [{case['group']} #{case['number']}]"
    if result.passed:
        print(f"PASS {where}")
    else:
        print(f"FAIL {where}: " + "; ".join(result.misses))
    sys.stdout.flush()


def summary(manifest: dict[str, Any], base: str, done: list[Result], seconds: float) -> str:
    """``arbiter-conformance 1.0.0 against URL: 917 cases, 917 passed, 0 failed
    (area_movement 214/214, ...) in 12.3 s``."""
    per: dict[str, list[int]] = {}
    for result in done:
        counts = per.setdefault(result.case["ruleset"], [0, 0])
        counts[0] += result.passed
        counts[1] += 1
    passed = sum(r.passed for r in done)
    rulesets = ", ".join(f"{r} {p}/{n}" for r, (p, n) in per.items())
    return (f"{manifest['suite']} {manifest['version']} against {base}: {len(done)} cases, "
            f"{passed} passed, {len(done) - passed} failed ({rulesets}) in {seconds:.1f} s")


def report(manifest: dict[str, Any], base: str, done: list[Result],
           seconds: float) -> dict[str, Any]:
    """The results as JSON: what an engine publishes against a version of the suite."""
    return {
        "suite": manifest["suite"], "version": manifest["version"], "base": base,
        "seconds": round(seconds, 1),
        "passed": sum(r.passed for r in done), "failed": sum(not r.passed for r in done),
        "cases": [{"id": r.case["id"], "group": r.case["group"], "number": r.case["number"],
                   "passed": r.passed, "misses": r.misses} for r in done],
    }

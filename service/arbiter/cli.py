"""The ``arbiter`` command: ``serve`` (the HTTP service, configured by the ``ARBITER_*``
variables, which its flags override), ``check`` (judge one action from files, exit 0 legal,
1 illegal, 2 malformed), ``export-schema`` (write schema/) and ``export-docs`` (write
docs/rules/ and the README's configuration table)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from arbiter import __version__, render_cli
from arbiter.settings import Settings, SettingsError

# What a flag of `arbiter serve` overrides.
FLAGS = {"host": "ARBITER_HOST", "port": "ARBITER_PORT", "workers": "ARBITER_WORKERS"}


@contextlib.contextmanager
def metrics_directory(workers: int) -> Iterator[None]:
    """With several workers, a directory where prometheus-client's multiprocess mode keeps
    every worker's metrics (``PROMETHEUS_MULTIPROC_DIR``, set before uvicorn starts them):
    the operator's, emptied of an earlier run's values, or a fresh one removed at exit."""
    from arbiter.api.metrics import MULTIPROC_ENV, reset_multiprocess_dir

    given = os.environ.get(MULTIPROC_ENV)
    if given:
        reset_multiprocess_dir(Path(given))
        yield
        return
    if workers <= 1:
        yield
        return
    folder = tempfile.mkdtemp(prefix="arbiter-metrics-")
    os.environ[MULTIPROC_ENV] = folder
    try:
        yield
    finally:
        del os.environ[MULTIPROC_ENV]
        shutil.rmtree(folder, ignore_errors=True)


def _serve(args: argparse.Namespace) -> int:
    # The flags win over the environment, and the workers (which read the environment
    # again) see what this process checked.
    for flag, name in FLAGS.items():
        value = getattr(args, flag)
        if value is not None:
            os.environ[name] = str(value)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"arbiter: cannot start: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    from arbiter.api.connections import protocol
    from arbiter.api.logs import log_config

    with metrics_directory(settings.workers):
        # One JSON line per request comes from the app itself (arbiter.api.logs), so
        # uvicorn's own access log stays off. X-Forwarded-* are believed from the trusted
        # proxies only (uvicorn's default believes any loopback peer); the protocol adds
        # the header deadline and counts connections (arbiter.api.connections).
        proxies = settings.trusted_proxies.replace(" ", "")
        uvicorn.run("arbiter.app:create_app", factory=True, host=settings.host,
                    port=settings.port, workers=settings.workers,
                    log_level=settings.log_level, log_config=log_config(settings.log_level),
                    access_log=False, server_header=False, http=protocol(),
                    proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)
    return 0


def _check(args: argparse.Namespace) -> int:
    from arbiter.api.problems import parse_document, problem_body, validation_problems
    from arbiter.engine.errors import InvalidInput, Problem
    from arbiter.rulesets import builtin_registry

    ruleset = builtin_registry().get(args.ruleset)
    if ruleset is None:
        print(json.dumps(problem_body(404, f"no ruleset {args.ruleset!r}"), indent=2))
        return 2
    try:
        state_bytes = Path(args.state).read_bytes()
        action_bytes = Path(args.action).read_bytes()
    except OSError as exc:
        print(json.dumps(problem_body(400, f"cannot read input: {exc}"), indent=2))
        return 2
    body = b'{"state":' + state_bytes + b',"action":' + action_bytes + b"}"
    problems: list[Problem]
    try:
        state = ruleset.state_model.model_validate_json(state_bytes, strict=True)
        action = ruleset.action_model.model_validate_json(action_bytes, strict=True)
        outcome = ruleset.validate(state, action, args.mode)
    except ValidationError as exc:
        # Pointers are those of the REST body {"state": ..., "action": ...}.
        which = "state" if not _valid(ruleset.state_model, state_bytes) else "action"
        problems = validation_problems(exc, parse_document(body), (which,))
    except InvalidInput as exc:
        problems = exc.problems
    else:
        print(outcome.model_dump_json(indent=2))
        return 0 if outcome.legal else 1
    detail = "the request does not match its schema: see errors"
    print(json.dumps(problem_body(422, detail, problems), indent=2))
    return 2


def _valid(model: Any, raw: bytes) -> bool:
    try:
        model.model_validate_json(raw, strict=True)
    except ValidationError:
        return False
    return True


def _export(args: argparse.Namespace) -> int:
    from arbiter.schema_export import export

    written = export(Path(args.out))
    for path in written:
        print(path)
    return 0


def _export_docs(args: argparse.Namespace) -> int:
    from arbiter.docs_export import export, write_readme_table

    for path in export(Path(args.out)):
        print(path)
    if args.readme:
        write_readme_table(Path(args.readme))
        print(args.readme)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arbiter", description="Rules-as-a-service for "
                                     "board games.")
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP service (configured by the "
                           "ARBITER_* variables; see the README's configuration table)")
    serve.add_argument("--host", help="overrides ARBITER_HOST")
    serve.add_argument("--port", help="overrides ARBITER_PORT")
    serve.add_argument("--workers", help="overrides ARBITER_WORKERS")
    serve.set_defaults(run=_serve)
    check = sub.add_parser("check", help="judge one action; exit 0 legal, 1 illegal, "
                           "2 malformed")
    check.add_argument("--ruleset", required=True)
    check.add_argument("--mode", choices=("strict", "advisory"), default="strict")
    check.add_argument("state")
    check.add_argument("action")
    check.set_defaults(run=_check)
    export = sub.add_parser("export-schema", help="write schema/ (OpenAPI, GraphQL SDL, "
                            "JSON Schemas)")
    export.add_argument("--out", default="schema")
    export.set_defaults(run=_export)
    docs = sub.add_parser("export-docs", help="write docs/rules/<ruleset>.md from each "
                          "ruleset's catalogue, and the README's configuration table")
    docs.add_argument("--out", default="docs/rules")
    docs.add_argument("--readme", default="README.md",
                      help="README whose configuration table to rewrite ('' : none)")
    docs.set_defaults(run=_export_docs)
    render_cli.add_command(sub)
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())

"""The ``arbiter`` command: ``serve`` (the HTTP service, configured by the ``ARBITER_*``
variables, which its flags override), ``export-schema`` (write schema/) and
``export-docs`` (write docs/rules/ and the configuration page's table),
``export-conformance`` (write conformance/ from tests/cases/; ``cli.export_conformance``),
``conformance`` (run that suite against a server; ``cli.conformance``); and the table's
commands, which answer from JSON files in-process as the REST API does: ``check`` (judge
one action, exit 0 legal, 1 illegal, 2 malformed, 3 legal but waiting for decisions;
``cli.check``), ``new-game`` (a game's first state, seeded and signed; ``cli.new_game``),
``render`` (the picture; ``cli.render``)
and one subcommand per query the rulesets answer (``cli.queries``), all answered by the
service's lifecycle in-process (``cli.io.answered``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from arbiter import __version__

if TYPE_CHECKING:  # imported where used: a light command loads no engine (start-up time)
    from arbiter.engine.registry import Registry

# What a flag of `arbiter serve` overrides.
FLAGS = {"host": "ARBITER_HOST", "port": "ARBITER_PORT", "workers": "ARBITER_WORKERS"}


@contextlib.contextmanager
def metrics_directory(workers: int) -> Iterator[None]:
    """With several workers, a directory where prometheus-client's multiprocess mode keeps
    every worker's metrics (``PROMETHEUS_MULTIPROC_DIR``, set before uvicorn starts them):
    the operator's, emptied of an earlier run's values, or a fresh one removed at exit."""
    import shutil
    import tempfile

    from arbiter.telemetry.metrics import MULTIPROC_ENV, reset_multiprocess_dir

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
    from arbiter.settings import Settings, SettingsError

    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"arbiter: cannot start: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    from arbiter.http.connections import protocol
    from arbiter.telemetry.logs import log_config, text_logs

    with metrics_directory(settings.workers):
        # One JSON line per request comes from the app itself (arbiter.telemetry.logs), so
        # uvicorn's own access log stays off. X-Forwarded-* are believed from the trusted
        # proxies only (uvicorn's default believes any loopback peer); the protocol adds
        # the header deadline and counts connections (arbiter.http.connections).
        proxies = settings.trusted_proxies.replace(" ", "")
        uvicorn.run("arbiter.http.app:create_app", factory=True, host=settings.host,
                    port=settings.port, workers=settings.workers,
                    log_level=settings.log_level,
                    log_config=log_config(settings.log_level, text_logs(settings.log_format)),
                    access_log=False, server_header=False, http=protocol(),
                    proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)
    return 0


def _export(args: argparse.Namespace) -> int:
    from arbiter.cli.export_schema import export

    written = export(Path(args.out))
    for path in written:
        print(path)
    return 0


def _export_docs(args: argparse.Namespace) -> int:
    from arbiter.cli.export_docs import export, write_table

    for path in export(Path(args.out)):
        print(path)
    if args.configuration:
        write_table(Path(args.configuration))
        print(args.configuration)
    return 0


def _export_conformance(args: argparse.Namespace) -> int:
    from arbiter.cli.export_conformance import export

    for path in export(Path(args.cases), Path(args.out)):
        print(path)
    return 0


# The service's own commands, which read no ruleset: given one, the rulesets are not loaded.
SERVICE_COMMANDS = frozenset({"serve", "export-schema", "export-docs", "export-conformance",
                              "conformance"})


def command_of(argv: list[str]) -> str:
    """The command ``argv`` names ('' for none: ``--help``, ``--version``, nothing)."""
    return next((arg for arg in argv if not arg.startswith("-")), "")


def ruleset_named(argv: list[str]) -> str | None:
    """RULESET in ``arbiter COMMAND RULESET ...`` (where a table command takes it)."""
    if len(argv) < 2 or argv[0].startswith("-") or argv[1].startswith("-"):
        return None
    return argv[1]


def parser(registry: Registry | None = None, command: str | None = None,
           ruleset: str | None = None) -> argparse.ArgumentParser:
    """The ``arbiter`` command line: the service's commands, and the table's (``check``,
    ``render`` and a subcommand per query the rulesets of ``registry`` answer; the
    built-in rulesets by default).

    Start-up is most of a command's time at the table, and building a ruleset most of
    that, so no ruleset is built to list them (``cli.choices``), and with ``command``
    given (what ``main`` parses) only that command gets its options: a query's come from
    the JSON Schemas of its request models, those of ``ruleset`` alone when it is named
    (``arbiter QUERY RULESET ...``); a service command lists no ruleset at all."""
    table = command not in SERVICE_COMMANDS
    top = argparse.ArgumentParser(
        prog="arbiter", description="Rules-as-a-service for board games: the HTTP service, "
        "and the same answers at the table from JSON files ('arbiter COMMAND --help').")
    top.add_argument("--version", action="version", version=__version__,
                     help="print the version and exit")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = sub.add_parser("serve", help="run the HTTP service (configured by the "
                           "ARBITER_* variables; see docs/configuration.md)",
                           description="Run the HTTP service. Exit 2 when a setting is "
                           "not allowed, naming it.")
    serve.add_argument("--host", help="the address to listen on; overrides ARBITER_HOST")
    serve.add_argument("--port", help="the port to listen on; overrides ARBITER_PORT")
    serve.add_argument("--workers", help="worker processes; overrides ARBITER_WORKERS")
    serve.set_defaults(run=_serve)
    if table:
        from arbiter.cli import check, new_game, queries, render
        from arbiter.cli.choices import Choices

        choices = Choices.builtin() if registry is None else Choices.of(registry)
        check.add_command(sub, choices)
        new_game.add_command(sub, choices)
        queries.add_commands(sub, choices, detailed=command, named=ruleset)
        render.add_command(sub, choices)
    from arbiter.cli import conformance  # the standard library alone: any engine's suite

    conformance.add_command(sub)
    export = sub.add_parser("export-schema", help="write schema/ (OpenAPI, GraphQL SDL, "
                            "JSON Schemas)")
    export.add_argument("--out", default="schema",
                        help="the folder to write (default: schema)")
    export.set_defaults(run=_export)
    docs = sub.add_parser("export-docs", help="write docs/rules/<ruleset>.md from each "
                          "ruleset's catalogue, and the configuration page's table")
    docs.add_argument("--out", default="docs/rules",
                      help="the folder to write (default: docs/rules)")
    docs.add_argument("--configuration", default="docs/configuration.md",
                      help="the page whose configuration table to rewrite (default: "
                      "docs/configuration.md; '' : none)")
    docs.set_defaults(run=_export_docs)
    suite = sub.add_parser("export-conformance", help="write the conformance suite "
                           "(conformance/) from the golden cases (tests/cases/)")
    suite.add_argument("--cases", default="tests/cases",
                       help="the golden cases to read (default: tests/cases)")
    suite.add_argument("--out", default="conformance",
                       help="the suite's folder to write (default: conformance)")
    suite.set_defaults(run=_export_conformance)
    return top


# The commands whose ruleset was once an option (``check --ruleset X STATE ACTION``),
# still read: the option's value becomes the RULESET operand.
RULESET_OPERAND = ("check", "render")


def modern(argv: list[str]) -> list[str]:
    """``argv`` with an older ``--ruleset X`` (or ``--ruleset=X``) of ``check`` or
    ``render`` moved to where RULESET now stands, right after the command."""
    if not argv or argv[0] not in RULESET_OPERAND:
        return argv
    rest = list(argv[1:])
    for i, arg in enumerate(rest):
        if arg == "--ruleset" and i + 1 < len(rest):
            ruleset = rest[i + 1]
            del rest[i:i + 2]
            return [argv[0], ruleset, *rest]
        if arg.startswith("--ruleset="):
            del rest[i]
            return [argv[0], arg.removeprefix("--ruleset="), *rest]
    return argv


def main(argv: list[str] | None = None, registry: Registry | None = None) -> int:
    args_given = sys.argv[1:] if argv is None else argv
    try:
        argv = modern(list(args_given))
        command = command_of(argv)
        if not command and "-h" not in argv and "--help" not in argv:
            command = "serve"  # --version, or no command: the rulesets are not listed
        args = parser(registry, command, ruleset_named(argv)).parse_args(argv)
    except SystemExit as exc:
        # --help, --version, or a usage error (argparse says which on standard error).
        return exc.code if isinstance(exc.code, int) else 2
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())

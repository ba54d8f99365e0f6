"""``arbiter render RULESET STATE [ACTION] [--overlay OVERLAY.json] [-o board.svg]``: the
``render`` query in-process, the SVG on standard output or in the ``-o`` file. Exit 0 with
a picture; 2 for malformed input, the problem on standard error naming the file (and the
JSON pointer inside it) each error comes from. The request is REST's body
``{state, overlay: {...OVERLAY, action: ACTION}}``, answered by the ruleset's own
``render`` query through the service's lifecycle (``cli.io.answered``)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from arbiter.cli import io as cli_io
from arbiter.cli.choices import Choices
from arbiter.cli.io import Source, Sources, Unanswered

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


def add_command(sub: Any, choices: Choices) -> None:
    """The ``render`` subcommand, on the ``arbiter`` parser's subparsers."""
    ids = choices.answering("render")
    render = sub.add_parser(
        "render", help="draw a state (and an action) as SVG",
        description=textwrap.fill(
            "Draw STATE (and ACTION, judged, its violations marked where they "
            "occur) as an SVG picture, in-process, as POST /v1/rulesets/RULESET/render "
            "answers it. The older spelling 'render --ruleset RULESET STATE' is still read.", 78),
        epilog=cli_io.exit_codes(), formatter_class=argparse.RawDescriptionHelpFormatter)
    render.add_argument("ruleset", metavar="RULESET", choices=ids,
                        help=f"the ruleset whose picture to draw: {', '.join(ids)}")
    render.add_argument("state", metavar="STATE",
                        help="the state's JSON file ('-': standard input)")
    render.add_argument("action", metavar="ACTION", nargs="?",
                        help="a proposed action's JSON file ('-': standard input): drawn as "
                        "arrows, judged, and its violations marked")
    render.add_argument("--overlay", metavar="FILE",
                        help="a JSON file ('-': standard input) with the ruleset's overlay "
                        "(reachable, costs, ...), as in the REST body")
    render.add_argument("-o", "--output", metavar="FILE",
                        help="write the SVG to FILE rather than standard output")
    cli_io.add_output_options(render, "the same picture", answer="the picture, and ",
                              pretty=False)
    render.set_defaults(run=partial(run, choices))


def run(choices: Choices, args: argparse.Namespace) -> int:
    ruleset = choices.get(args.ruleset)  # argparse's choices are among its ids
    query = ruleset.queries["render"]
    sources = [Source("/state", cli_io.shown(args.state))]
    if args.overlay is not None:
        sources.append(Source("/overlay", cli_io.shown(args.overlay)))
    if args.action is not None:
        sources.append(Source("/overlay/action", cli_io.shown(args.action)))
    try:
        files = cli_io.read_files({"state": args.state, "overlay": args.overlay,
                                   "overlay/action": args.action})
        sent = _body(files["state"], files.get("overlay", b"{}"), files.get("overlay/action"))
        picture = orjson.loads(cli_io.answered(
            lambda service: service.query(ruleset, query, sent)))
    except Unanswered as failure:
        return cli_io.report("render", failure, Sources(sources), args)
    svg = XML_DECLARATION + picture["svg"] + "\n"
    if not args.output:
        sys.stdout.write(svg)
        return 0
    try:
        Path(args.output).write_text(svg, encoding="utf-8")
    except OSError as exc:
        sys.stderr.write(f"arbiter render: cannot write {args.output}: {exc.strerror}\n")
        return 2
    return 0


def _body(state: bytes, overlay: bytes, action: bytes | None) -> bytes:
    """``{"state": STATE, "overlay": {...OVERLAY, "action": ACTION}}``, the state's bytes
    as they are (pointers and strictness are then those of the REST body). An overlay
    that is no object is sent as it is, for the request model to report."""
    extra: Any = orjson.loads(overlay)
    if action is not None and isinstance(extra, dict):
        extra = {**extra, "action": orjson.loads(action)}
    return cli_io.body([("state", state), ("overlay", orjson.dumps(extra))])

"""``arbiter new-game RULESET STATE``: a game's first state, in-process, as
``POST /v1/rulesets/{id}/new-game`` answers it: the state checked as every state is, with a
seed the service draws when the state has one (digital mode), and signed when
``ARBITER_STATE_KEYS`` holds the service's keys, so a game master's table and the service
play the same signed game. Exit 0 with the first state; 2 for malformed input."""

from __future__ import annotations

import argparse
import textwrap
from functools import partial
from typing import Any

from arbiter.cli import io as cli_io
from arbiter.cli.choices import Choices
from arbiter.cli.io import Source, Sources, Unanswered


def add_command(sub: Any, choices: Choices) -> None:
    """The ``new-game`` subcommand, on the ``arbiter`` parser's subparsers."""
    command = sub.add_parser(
        "new-game", help="start a game: its first state, seeded and signed as the service does",
        description=textwrap.fill(
            "Start a game from STATE (its board, players and every piece) with RULESET's "
            "rules, in-process (no server), as POST /v1/rulesets/RULESET/new-game answers "
            "it: a seed drawn by the service when the state has one, and a signature when "
            "ARBITER_STATE_KEYS holds the service's keys.", 78),
        epilog=cli_io.exit_codes(), formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("ruleset", metavar="RULESET", choices=choices.ids(),
                         help=f"the rules of the game: {', '.join(choices.ids())}")
    command.add_argument("state", metavar="STATE",
                         help="the setup's JSON file ('-': standard input)")
    cli_io.add_output_options(command, cli_io.ANSWER_AS_TEXT)
    command.set_defaults(run=partial(run, choices))


def run(choices: Choices, args: argparse.Namespace) -> int:
    ruleset = choices.get(args.ruleset)  # argparse's choices are among its ids
    sources = Sources([Source("/state", cli_io.shown(args.state))])
    try:
        files = cli_io.read_files({"state": args.state})
        sent = cli_io.body([("state", files["state"])])
        # The operator's own command, with the state keys in its environment: an issuer.
        answer = cli_io.answered(lambda service: service.new_game(ruleset, sent, issuer=True))
    except Unanswered as failure:
        return cli_io.report("new-game", failure, sources, args)
    cli_io.write_answer(answer, args)
    return 0

"""``arbiter check RULESET STATE ACTION``: judge one action at the table, in-process, as
``POST /v1/rulesets/{id}/validate`` does (the same body, lifecycle and answer: a board by
reference, a signed state and its signature work here as they do there).
Exit 0 legal, 1 illegal, 2 not judged (the problem on standard error), 3 legal but waiting
for decisions (a phased_orders turn whose ``derived.status`` is ``pending``: nothing is
applied until the questions in ``derived.pending_decisions`` are answered - a script that
took exit 0 for "applied" must not take this for it, nor 1 for a broken rule);
``--format text`` prints the verdict with each violation's code and rule id, and each
pending decision with its options, instead of the Outcome."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from functools import partial
from typing import TYPE_CHECKING, Any

from arbiter.cli import io as cli_io
from arbiter.cli.choices import Choices
from arbiter.cli.io import Source, Sources, Unanswered

if TYPE_CHECKING:  # imported where used: --help and a usage error build no model
    from arbiter.service.contract import Outcome


def add_command(sub: Any, choices: Choices) -> None:
    """The ``check`` subcommand, on the ``arbiter`` parser's subparsers."""
    check = sub.add_parser(
        "check", help="judge one action: exit 0 legal, 1 illegal, 2 not judged, 3 legal "
        "but waiting for decisions",
        description=textwrap.fill(
            "Judge ACTION against STATE with RULESET's rules, in-process (no "
            "server), as POST /v1/rulesets/RULESET/validate answers it. The older spelling "
            "'check --ruleset RULESET STATE ACTION' is still read.", 78),
        epilog=cli_io.exit_codes(judged=True),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("ruleset", metavar="RULESET", choices=choices.ids(),
                       help=f"the rules to judge by: {', '.join(choices.ids())}")
    check.add_argument("state", metavar="STATE",
                       help="the state's JSON file ('-': standard input)")
    check.add_argument("action", metavar="ACTION",
                       help="the proposed action's JSON file ('-': standard input)")
    check.add_argument("--mode", choices=("strict", "advisory"), default="strict",
                       help="advisory: apply an illegal action whose effect is well defined, "
                       "its violations as warnings (default: strict)")
    check.add_argument("--return", dest="returns", choices=("state", "patch", "omit"),
                       default="state", help="how the resulting state comes back: whole "
                       "(state, the default), as a JSON Patch against STATE (patch), or not "
                       "at all (omit)")
    check.add_argument("--signature", metavar="FILE",
                       help="the state's signature as the service answered it, a JSON file "
                       "('-': standard input): checked, and a legal action's resulting state "
                       "signed, when ARBITER_STATE_KEYS holds the service's keys")
    cli_io.add_output_options(check, "the verdict, each violation with its code and rule "
                              "id, and each event")
    check.set_defaults(run=partial(run, choices))


def run(choices: Choices, args: argparse.Namespace) -> int:
    from arbiter.service.contract import Outcome

    ruleset = choices.get(args.ruleset)  # argparse's choices are among its ids
    sources = Sources([Source("/state", cli_io.shown(args.state)),
                       Source("/action", cli_io.shown(args.action)),
                       Source("/mode", "--mode"), Source("/return", "--return")])
    if args.signature is not None:
        sources.sources.append(Source("/signature", cli_io.shown(args.signature)))
    try:
        files = cli_io.read_files({"state": args.state, "action": args.action,
                                   "signature": args.signature})
        signed = [("signature", files["signature"])] if "signature" in files else []
        sent = cli_io.body([("state", files["state"]), *signed,
                            ("action", files["action"]), ("mode", f'"{args.mode}"'.encode()),
                            ("return", f'"{args.returns}"'.encode())])
        answer = cli_io.answered(lambda service: service.validate(ruleset, sent))
    except Unanswered as failure:
        return cli_io.report("check", failure, sources, args)
    outcome = Outcome.model_validate_json(answer)
    if args.format == "text":
        sys.stdout.write(summary(outcome))
    else:
        cli_io.write_answer(answer, args)
    if not outcome.legal:
        return 1
    return PENDING if waiting(outcome) else 0


# The exit status of a legal action that waits for decisions before it can be applied.
PENDING = 3


def waiting(outcome: Outcome) -> list[dict[str, Any]]:
    """The questions a legal outcome waits for (phased_orders' turn stopped for decisions:
    ``derived.status`` pending); none for any other outcome."""
    if outcome.applied or outcome.derived.get("status") != "pending":
        return []
    return list(outcome.derived.get("pending_decisions", []))


def _plural(count: int, what: str) -> str:
    return f"{count} {what}" + ("" if count == 1 else "s")


def summary(outcome: Outcome) -> str:
    """The verdict for a person: legal or not (and applied anyway, in advisory mode), each
    violation as ``code (rule): message``, each event as ``kind (rule): message``."""
    verdict = "legal" if outcome.legal else "illegal"
    if not outcome.legal and outcome.applied:
        verdict += ", applied (advisory)"
    questions = waiting(outcome) if outcome.legal else []
    if questions:
        verdict = f"pending: {_plural(len(questions), 'decision')} to answer, nothing applied"
    lines = [f"{verdict}: {_plural(len(outcome.violations), 'violation')}, "
             f"{_plural(len(outcome.events), 'event')}"]
    for q in questions:
        options = " | ".join(_option(o) for o in q["options"])
        lines.append(f"  decision {q['id']} ({q['rule']}): {q['question']} [{options}]")
    for v in outcome.violations:
        warning = " [warning]" if v.severity == "warning" else ""
        lines.append(f"  {v.code} ({v.rule}){warning}: {v.message}")
    for e in outcome.events:
        lines.append(f"  event {e.kind} ({e.rule}): {e.message}")
    if outcome.state_hash is not None:
        lines.append(f"state_hash: {outcome.state_hash}")
    return "\n".join(lines) + "\n"


def _option(option: dict[str, Any]) -> str:
    """An option as the decision's answer takes it: ``{"choice": ..., ...}`` in JSON."""
    return json.dumps({k: v for k, v in option.items() if v is not None},
                      separators=(",", ":"))

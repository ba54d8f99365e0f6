"""`arbiter COMMAND --help` for every subcommand: each operand and option says what it is,
and the table's commands document their exit statuses."""

from __future__ import annotations

import argparse

import pytest

from arbiter.cli.main import main, parser
from test_cli_queries import subcommands

TOP = parser()
COMMANDS = subcommands(TOP)
TABLE = sorted(set(COMMANDS) - {"serve", "export-schema", "export-docs", "export-conformance",
                                 "conformance"})


def test_every_option_and_operand_of_every_command_has_help() -> None:
    unexplained = []
    for name, command in [("arbiter", TOP), *COMMANDS.items()]:
        for action in command._actions:  # argparse lists a parser's arguments only here
            if isinstance(action, argparse._SubParsersAction):
                continue
            if not (action.help or "").strip() or action.help == argparse.SUPPRESS:
                unexplained.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert not unexplained, f"no help text: {unexplained}"


def test_the_table_commands_are_the_queries_check_and_render() -> None:
    assert {"check", "render", "reachable", "legal-actions", "conquest-cost"} <= set(TABLE)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_prints_and_exits_0(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: arbiter {name}")
    if name in TABLE:
        assert "exit status:" in out and "'-': standard input" in out


def test_the_checks_help_documents_exit_1_for_an_illegal_action(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--help"]) == 0
    out = capsys.readouterr().out
    assert "1  answered: the action is illegal" in out

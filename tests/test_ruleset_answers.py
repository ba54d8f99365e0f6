"""Each ruleset package declares the queries it answers (``ANSWERS``, in its
``__init__``) so that ``arbiter --help`` lists them without building any model; the
declaration is what its ``RULESET`` answers, and ``arbiter.rulesets.load`` refuses one that
drifts, so the service cannot serve a ruleset the CLI lists otherwise."""

from __future__ import annotations

import importlib

import pytest

from arbiter.cli.main import parser
from arbiter.rulesets import answers, builtin_registry, load, names
from test_cli_queries import subcommands


@pytest.mark.parametrize("name", names())
def test_a_rulesets_declared_answers_are_what_it_answers(name: str) -> None:
    assert answers(name) == set(load(name).queries)


def test_the_toys_declared_answers_are_what_it_answers() -> None:
    toy = importlib.import_module("toy.tic_tac_toe")
    assert set(toy.ANSWERS) == set(toy.RULESET.queries)


@pytest.mark.parametrize("declared", [("legal-actions", "why-not", "render"),
                                      ("legal-actions", "reachable", "render", "why-not",
                                       "standing")])
def test_a_ruleset_whose_declaration_drifts_is_not_loaded(
        declared: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """hex_maneuver answers reachable: a declaration without it, or with another ruleset's
    query, is refused."""
    package = importlib.import_module("arbiter.rulesets.hex_maneuver")
    monkeypatch.setattr(package, "ANSWERS", declared)
    with pytest.raises(TypeError, match=r"hex_maneuver\.ANSWERS declares"):
        load("hex_maneuver")
    with pytest.raises(TypeError):
        builtin_registry("hex_maneuver")


def test_a_declaration_that_is_missing_or_no_tuple_of_names_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    package = importlib.import_module("arbiter.rulesets.hex_maneuver")
    monkeypatch.setattr(package, "ANSWERS", "reachable")
    with pytest.raises(TypeError, match="missing or not a tuple of query names"):
        answers("hex_maneuver")
    monkeypatch.delattr(package, "ANSWERS")
    with pytest.raises(TypeError, match="missing or not a tuple of query names"):
        answers("hex_maneuver")


def test_the_help_made_from_the_declarations_is_the_registrys() -> None:
    """``arbiter --help`` and every command's, from the packages' declarations (rulesets
    built for a query's options only), read as they do from the built registry."""
    declared, built = parser(), parser(builtin_registry())
    assert declared.format_help() == built.format_help()
    commands = subcommands(built)
    for name, command in subcommands(declared).items():
        assert command.format_help() == commands[name].format_help(), name

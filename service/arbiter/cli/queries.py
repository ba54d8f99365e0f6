"""The rulesets' derived queries as ``arbiter`` subcommands, generated from the registry:
``arbiter QUERY RULESET STATE [--FIELD VALUE ...] [--params FILE]`` for every query a
ruleset registers (``reachable``, ``legal-actions``, ``conquest-cost``, ...; ``render`` has
its own command, which writes the picture), so a new ruleset's queries appear here with no
change to the CLI.

A subcommand's options are the fields of its request models (besides ``state``), each
with its model's description: a field that takes text takes the option's text, any other
its JSON (``--limit 20``, ``--march false``, ``--targets '["hills"]'``). ``--params FILE``
holds the other fields as one JSON object, as in the REST body; an option wins over it.
The answer is the service's, through the same lifecycle as
``POST /v1/rulesets/{id}/{query}`` (``cli.io.answered``).
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson

from arbiter.cli import io as cli_io
from arbiter.cli.choices import Choices
from arbiter.cli.io import Source, Sources, Unanswered
from arbiter.engine.errors import Problem

if TYPE_CHECKING:  # imported where used: listing the queries builds no engine
    from arbiter.engine.registry import AnyRuleset

# Drawn by ``arbiter render``, which writes SVG rather than the answer's JSON.
OWN_COMMANDS = frozenset({"render"})
# The options every query subcommand has, which no request field may take.
RESERVED = frozenset({"params", "format", "pretty", "help"})


@dataclass
class Option:
    """A request field of one query across the rulesets that answer it: per ruleset,
    whether it takes text (else JSON) and what its help says."""

    key: str
    text: dict[str, bool] = field(default_factory=dict)
    gloss: dict[str, str] = field(default_factory=dict)

    def help(self, answering: Sequence[str]) -> str:
        """Its gloss (per group of rulesets whose glosses differ), the rulesets that have
        it when not all do, and whether it takes text or JSON where that differs."""
        groups: dict[str, list[str]] = {}
        for ruleset, said in self.gloss.items():
            groups.setdefault(said, []).append(ruleset)
        if len(groups) == 1:
            said = next(iter(groups))
            if len(self.gloss) < len(answering):
                said += f" [{', '.join(self.gloss)} only]"
        else:
            said = " ".join(f"{', '.join(ids)}: {gloss}." for gloss, ids in groups.items())
        kinds = set(self.text.values())
        if len(kinds) > 1:
            said += " (text for " + ", ".join(r for r, t in self.text.items() if t) + \
                "; JSON for the others)"
        return said.replace("%", "%%")


def _resolve(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _resolve(defs[ref.removeprefix("#/$defs/")], defs)
    return schema


def takes_text(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> bool:
    """Whether a field's JSON Schema admits text and nothing else (null aside): such an
    option's value is its text, any other field's its JSON."""
    schema = _resolve(schema, defs)
    if "anyOf" in schema:
        members = [m for m in schema["anyOf"] if _resolve(m, defs).get("type") != "null"]
        return bool(members) and all(takes_text(m, defs) for m in members)
    if "enum" in schema:
        return all(isinstance(v, str) for v in schema["enum"])
    return schema.get("type") == "string"


def gloss(schema: Mapping[str, Any], key: str, defs: Mapping[str, Any]) -> str:
    """What an option's help says: the field's description, else its type and bounds, and
    its default."""
    shape = _resolve(schema, defs)
    said = str(schema.get("description") or shape.get("description") or "").strip()
    said = said.removesuffix(".")
    if not said:
        title = str(schema.get("title") or key.replace("_", " ")).lower()
        if shape.get("type") == "integer" and "minimum" in shape and "maximum" in shape:
            said = f"the {title}: an integer from {shape['minimum']} to {shape['maximum']}"
        elif "enum" in shape:
            said = f"the {title}: one of {', '.join(map(str, shape['enum']))}"
        else:
            said = f"the {title}"
    default = schema.get("default")
    if default is not None and "default" not in said.lower():
        said += f"; default {orjson.dumps(default).decode()}"
    return said


def options(name: str, answering: Sequence[AnyRuleset]) -> dict[str, Option]:
    """The request fields of query ``name`` across ``answering``, in first-seen order."""
    found: dict[str, Option] = {}
    for ruleset in answering:
        model = ruleset.queries[name].request
        schema = model.model_json_schema()
        defs = schema.get("$defs", {})
        for field_name, info in model.model_fields.items():
            key = info.alias or field_name
            if key == "state":
                continue
            if key in RESERVED:
                raise ValueError(f"{ruleset.id} {name}: a request field may not be called "
                                 f"{key!r}, an option every query command has")
            prop = schema["properties"][key]
            option = found.setdefault(key, Option(key))
            option.text[ruleset.id] = takes_text(prop, defs)
            option.gloss[ruleset.id] = gloss(prop, key, defs)
    return found


def add_commands(sub: Any, choices: Choices, detailed: str | None = None,
                 named: str | None = None) -> None:
    """A subcommand per query name any ruleset of ``choices`` answers; with ``detailed``
    given, only that one with its options (the command being run: the others are listed
    by ``arbiter --help``, and their options, read from JSON Schemas, cost start-up),
    those of ruleset ``named`` alone when it is the RULESET given."""
    for name in sorted(set(choices.queries()) - OWN_COMMANDS):
        ids = choices.answering(name)
        if detailed is None or detailed == name:
            # Building a ruleset is most of the start-up: the one named, if it answers;
            # one that does not is refused by RULESET's choices before options matter.
            asked = ids if named is None else [named] if named in ids else []
            _add_command(sub, choices, name, ids, [choices.get(i) for i in asked])
        else:
            sub.add_parser(name, help=_help(name, ids))


def _help(name: str, ids: Sequence[str]) -> str:
    return f"ask {name} of a state ({', '.join(ids)})"


def _add_command(sub: Any, choices: Choices, name: str, ids: Sequence[str],
                 answering: Sequence[AnyRuleset]) -> None:
    """Query ``name``'s subcommand, taking any of ``ids``, its options those of the
    request models of ``answering`` (``ids``' rulesets, or some of them)."""
    described = "\n\n".join(textwrap.fill(f"{r.id}: {r.queries[name].summary}", 78)
                              for r in answering)
    parser = sub.add_parser(
        name, help=_help(name, ids),
        description=textwrap.fill(f"Ask {name} of STATE, in-process (no server), as POST "
                                  f"/v1/rulesets/RULESET/{name} answers it.", 78)
        + f"\n\n{described}",
        epilog=cli_io.exit_codes(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset", metavar="RULESET", choices=ids,
                        help=f"the ruleset to ask: {', '.join(ids)}")
    parser.add_argument("state", metavar="STATE",
                        help="the state's JSON file ('-': standard input)")
    fields = options(name, answering)
    for option in fields.values():
        text = all(option.text.values())
        parser.add_argument(cli_io.option_flag(option.key), dest=f"field_{option.key}",
                            metavar=option.key.upper() if text else "JSON",
                            help=option.help([r.id for r in answering]))
    parser.add_argument("--params", metavar="FILE",
                        help="a JSON file ('-': standard input) of one object with the "
                        "request's other fields, as in the REST body; an option given "
                        "beside it wins")
    cli_io.add_output_options(parser, cli_io.ANSWER_AS_TEXT)
    parser.set_defaults(run=partial(run, choices, name, fields))


def run(choices: Choices, name: str, fields: Mapping[str, Option],
        args: argparse.Namespace) -> int:
    ruleset = choices.get(args.ruleset)  # argparse's choices are among its ids
    query = ruleset.queries[name]
    given = {key: cli_io.parse_value(getattr(args, f"field_{key}"),
                                     option.text.get(ruleset.id, True))
             for key, option in fields.items() if getattr(args, f"field_{key}") is not None}
    sources = [Source("/state", cli_io.shown(args.state))]
    if args.params is not None:
        sources.append(Source("/params", cli_io.shown(args.params)))
    try:
        files = cli_io.read_files({"state": args.state, "params": args.params})
        params = _params(files.get("params"))
        # A field the params file holds is its; any other (given, missing or unknown to
        # this ruleset) is its option's.
        sources += [Source(f"/{key}", cli_io.shown(args.params), f"/{key}")
                    for key in params if key not in given]
        sources += [Source(f"/{key}", cli_io.option_flag(key)) for key in fields
                    if key in given or key not in params]
        sent = cli_io.body([("state", files["state"]), *(
            (key, orjson.dumps(value)) for key, value in {**params, **given}.items())])
        answer = cli_io.answered(lambda service: service.query(ruleset, query, sent))
    except Unanswered as failure:
        return cli_io.report(name, failure, Sources(sources), args)
    cli_io.write_answer(answer, args)
    return 0


def _params(raw: bytes | None) -> dict[str, Any]:
    """The ``--params`` file's fields (``/params`` is where its problems point)."""
    if raw is None:
        return {}
    value = orjson.loads(raw)
    if not isinstance(value, dict):
        raise Unanswered(422, cli_io.SCHEMA_DETAIL, [Problem(
            "/params", "must be a JSON object of the request's fields besides the state")])
    if "state" in value:
        raise Unanswered(422, cli_io.SCHEMA_DETAIL, [Problem(
            "/params/state", "the state comes in STATE, not in the params")])
    return value

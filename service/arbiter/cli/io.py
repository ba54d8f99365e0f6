"""What the table commands (``check``, ``render`` and each ruleset's queries) share: reading
their files (``-`` is standard input, for one of them at most), building the request body
the REST API would receive from them, answering it through the service's own lifecycle
in this process (``answered``), writing the answer, and reporting what keeps a request
from being answered on standard error, each problem naming the file (or option) it comes
from and the JSON pointer inside it.

The body is the REST body and the service the one ``arbiter serve`` runs, configured by
the same ``ARBITER_*`` variables (limits, compute budget, state keys, Redis): the answers,
the problems and their pointers are the API's own. ``Sources`` only translates a body
pointer (``/state/armies/0``) back to where the person wrote it (``state.json:
/armies/0``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from arbiter.engine.errors import Problem

if TYPE_CHECKING:  # imported where a request is answered: --help builds no service
    from arbiter.service.lifecycle import Service

STDIN = "-"
STDIN_NAME = "<stdin>"
# What a problem no source holds (the body as a whole) is said to come from.
REQUEST_NAME = "the request"

EXIT_CODES = """exit status:
  0  answered{legal}
{illegal}  2  not answered: an input is unreadable, not JSON, or does not match the
     ruleset's schema (the problem on standard error, naming the file and the JSON
     pointer inside it), or the command line is wrong (usage on standard error){pending}"""


def exit_codes(judged: bool = False) -> str:
    """The ``--help`` epilog on exit statuses; ``judged``: the command gives a verdict."""
    if judged:
        return EXIT_CODES.format(
            legal=": the action is legal", illegal="  1  answered: the action is illegal\n",
            pending="\n  3  answered: the action is legal but waits for decisions before "
            "anything\n     is applied (a phased_orders turn: derived.status pending, the "
            "questions in\n     derived.pending_decisions)")
    return EXIT_CODES.format(legal="", illegal="", pending="")


class Unanswered(Exception):
    """A request the command cannot answer: a problem document's status and detail, and
    its problems, whose pointers are into the request body."""

    def __init__(self, status: int, detail: str, problems: Sequence[Problem] = (),
                 **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.problems = list(problems)
        # What the API's problem document adds for its kind (type, limit, board, ...).
        self.extra = extra


SCHEMA_DETAIL = "the request does not match its schema: see errors"
T = TypeVar("T")


def service() -> Service:
    """The service as the environment configures it, answering in this process (built
    for each command: a few objects, and the environment is read as it is now)."""
    from arbiter.service.configured import configured
    from arbiter.settings import Settings, SettingsError

    try:
        return configured(Settings.from_env())
    except SettingsError as exc:
        raise Unanswered(400, f"a setting is not allowed: {exc}") from None


def answered(call: Callable[[Service], Coroutine[Any, Any, T]]) -> T:
    """One request answered to its end by the service's lifecycle (``call``), here; what
    keeps it from being answered raised as ``Unanswered``."""
    import asyncio

    from arbiter.service.account import opened
    from arbiter.service.problems import UNANSWERED, status_and_detail

    serving = service()

    async def run() -> T:
        with opened():
            return await call(serving)

    try:
        return asyncio.run(run())
    except UNANSWERED as exc:
        from arbiter.http.problems import problem_of  # (Starlette: on failure only)

        status, extra = problem_of(exc)
        raise Unanswered(status, status_and_detail(exc)[1], exc.problems, **extra) from None


def shown(path: str) -> str:
    return STDIN_NAME if path == STDIN else path


def read_files(paths: Mapping[str, str | None]) -> dict[str, bytes]:
    """Each named input's bytes (``paths``: the body field it fills -> its path, or None
    when not given), each checked to be JSON. ``-`` reads standard input, which only one
    input can do. A file that cannot be read or is no JSON is a problem at its field."""
    given = {field: path for field, path in paths.items() if path is not None}
    if sum(path == STDIN for path in given.values()) > 1:
        raise Unanswered(400, "only one input can be standard input ('-')")
    out: dict[str, bytes] = {}
    for field, path in given.items():
        try:
            raw = sys.stdin.buffer.read() if path == STDIN else Path(path).read_bytes()
        except OSError as exc:
            raise Unanswered(400, "an input cannot be read: see errors",
                             [Problem(f"/{field}", f"cannot read it: {exc.strerror}")]) from None
        try:
            orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            problem = Problem(f"/{field}", f"not JSON: {exc}")
            raise Unanswered(422, SCHEMA_DETAIL, [problem]) from None
        out[field] = raw
    return out


def body(fields: Iterable[tuple[str, bytes]]) -> bytes:
    """A JSON object of ``fields``, each value's JSON bytes as they are (a file's bytes as
    the person wrote them, so the strict parse sees them as REST would)."""
    return b"{" + b",".join(orjson.dumps(key) + b":" + value for key, value in fields) + b"}"


@dataclass(frozen=True)
class Source:
    """Where the body's ``at`` came from: a file (or ``--option``) ``name``, at ``inside``
    within it."""

    at: str
    name: str
    inside: str = ""


class Sources:
    def __init__(self, sources: Iterable[Source]) -> None:
        self.sources = list(sources)

    def locate(self, pointer: str) -> tuple[str, str]:
        """The name of the source a body pointer falls in and the pointer inside it: the
        source whose ``at`` is the longest prefix of it, segment by segment."""
        holding = [s for s in self.sources
                   if pointer == s.at or pointer.startswith(s.at + "/")]
        best = max(holding, key=lambda s: len(s.at), default=None)
        if best is None:
            return REQUEST_NAME, pointer
        return best.name, best.inside + pointer[len(best.at):]


def add_output_options(parser: argparse.ArgumentParser, text: str,
                       answer: str = "the answer as the REST API writes it, and ",
                       pretty: bool = True) -> None:
    """``--format`` (``json``: ``answer`` and the problem document; ``text``: what ``text``
    says, and a line per problem) and, for JSON answers, ``--pretty``."""
    parser.add_argument("--format", choices=("json", "text"), default="json",
                        help=f"json (the default): {answer}a failure as the API's problem "
                        "document, each error naming its source file and the pointer inside "
                        f"it; text: {text}, and a failure as one 'FILE: POINTER: message' "
                        "line per problem")
    if pretty:
        parser.add_argument("--pretty", action="store_true",
                            help="indent the JSON (answer and problem document)")


# What --format text writes of an answer (a query's, new-game's): see cli.text.
ANSWER_AS_TEXT = "the answer as 'field: value' lines, nested fields indented (empty ones left out)"


def write_answer(answer: bytes, args: argparse.Namespace) -> None:
    """The answer on standard output: its JSON as REST writes it (indented with
    ``--pretty``), or in text format its fields as lines (``cli.text``)."""
    if args.format == "text":
        from arbiter.cli.text import text

        sys.stdout.write(text(orjson.loads(answer)))
        sys.stdout.flush()
        return
    if args.pretty:
        answer = orjson.dumps(orjson.loads(answer), option=orjson.OPT_INDENT_2)
    sys.stdout.buffer.write(answer + b"\n")
    sys.stdout.flush()


def report(command: str, failure: Unanswered, sources: Sources,
           args: argparse.Namespace) -> int:
    """``failure`` on standard error, in the ``--format`` asked; exit status 2."""
    located = [(problem, *sources.locate(problem.pointer)) for problem in failure.problems]
    if args.format == "text":
        lines = [f"arbiter {command}: {failure.detail.removesuffix(': see errors')}"]
        for problem, name, inside in located:
            lines.append(f"{name}: {inside}: {problem.detail}" if inside
                         else f"{name}: {problem.detail}")
        sys.stderr.write("\n".join(lines) + "\n")
        return 2
    document = problem_body(failure.status, failure.detail, failure.problems, **failure.extra)
    for error, (_, name, inside) in zip(document.get("errors", ()), located, strict=True):
        error["source"] = name
        error["source_pointer"] = inside
    indent = 2 if getattr(args, "pretty", False) else None
    sys.stderr.write(json.dumps(document, indent=indent, ensure_ascii=False) + "\n")
    return 2


def problem_body(status: int, detail: str, problems: Sequence[Problem],
                 **extra: Any) -> dict[str, Any]:
    """The API's problem document (RFC 9457) of a request not answered."""
    from arbiter.http.problems import problem_body as document  # (Starlette: on failure only)

    return document(status, detail, problems, **extra)


def option_flag(field: str) -> str:
    """A body field's option: ``combat_results`` -> ``--combat-results``."""
    return "--" + field.replace("_", "-")


def parse_value(text: str, as_text: bool) -> Any:
    """An option's value: the text itself for a field that takes text, else its JSON (a
    number, true/false, a list, an object); text that is no JSON stays text, for the
    request model to report at the field."""
    if as_text:
        return text
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return text

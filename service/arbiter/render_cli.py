"""``arbiter render --ruleset X STATE.json [ACTION.json] [--overlay OVERLAY.json]``: the
``render`` query offline, the SVG on standard output (``> board.svg``). Exit 0 with a
picture; 2 for malformed input or a ruleset without a picture, with the problem document
(pointers as in the REST body ``{state, overlay: {..., action}}``) on standard error."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


def add_command(sub: Any) -> None:
    """The ``render`` subcommand, on the ``arbiter`` parser's subparsers."""
    render = sub.add_parser("render", help="draw a state (and an action) as SVG on stdout")
    render.add_argument("--ruleset", required=True)
    render.add_argument("--overlay", help="a JSON file with the ruleset's overlay (reachable, "
                        "costs, ...), as in the REST body")
    render.add_argument("state")
    render.add_argument("action", nargs="?", help="a proposed action: drawn, judged, and its "
                        "violations marked")
    render.set_defaults(run=run)


def _fail(status: int, detail: str, problems: Any = ()) -> int:
    from arbiter.api.problems import problem_body

    print(json.dumps(problem_body(status, detail, problems), indent=2), file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from arbiter.api.problems import parse_document, validation_problems
    from arbiter.engine.errors import InvalidInput
    from arbiter.rulesets import builtin_registry

    ruleset = builtin_registry().get(args.ruleset)
    if ruleset is None:
        return _fail(404, f"no ruleset {args.ruleset!r}")
    query = ruleset.queries.get("render")
    if query is None:
        return _fail(404, f"ruleset {ruleset.id} has no picture")
    try:
        state = Path(args.state).read_bytes()
        overlay = Path(args.overlay).read_bytes() if args.overlay else b"{}"
        action = Path(args.action).read_bytes() if args.action else None
    except OSError as exc:
        return _fail(400, f"cannot read input: {exc}")
    body = _body(state, overlay, action)
    try:
        request = query.request.model_validate_json(body, strict=True)
        picture: Any = query.run(request)
    except ValidationError as exc:
        return _fail(422, "the request does not match its schema: see errors",
                     validation_problems(exc, parse_document(body)))
    except InvalidInput as exc:
        return _fail(422, "the request cannot be judged: see errors", exc.problems)
    sys.stdout.write(XML_DECLARATION + picture.svg + "\n")
    return 0


def _body(state: bytes, overlay: bytes, action: bytes | None) -> bytes:
    """``{"state": STATE, "overlay": {...OVERLAY, "action": ACTION}}``, the state's bytes
    as they are (pointers and strictness are then those of the REST body). A file that is
    no JSON leaves the body malformed, which the request model reports."""
    try:
        extra: Any = orjson.loads(overlay)
        if action is not None:
            extra = {**extra, "action": orjson.loads(action)} if isinstance(extra, dict) \
                else extra
    except orjson.JSONDecodeError:
        return b'{"state":' + state + b',"overlay":' + overlay + b"}"
    return b'{"state":' + state + b',"overlay":' + orjson.dumps(extra) + b"}"

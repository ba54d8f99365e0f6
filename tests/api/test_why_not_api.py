"""``why-not`` over a real server: docs/why-not.md's examples (a place per ruleset, then a
step of a plan for the rulesets whose actions are plans) run as pasted and answer what the
page shows; REST and GraphQL give the same answer; a target the state does not hold is a
422 at its pointer, and so is a request naming both a place and a step, or a step beyond
the plan."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.test_readme import send
from arbiter.graphql.types import to_graphql
from arbiter.rulesets import builtin_registry

pytestmark = pytest.mark.server

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "why-not.md").read_text()
RULESETS = ["hex_maneuver", "region_conquest", "territory_conquest", "area_movement",
            "phased_orders"]
# The rulesets whose actions are plans of steps: their step examples follow the places'.
STEPPED = ["area_movement", "phased_orders"]
EXAMPLES = len(RULESETS) + len(STEPPED)


def examples() -> list[tuple[list[str], dict[str, Any]]]:
    """Each curl block of the page, with the answer excerpt that follows it."""
    found = re.findall(r"```sh\n(curl .*?)```\n\nanswers \(in part\):\n\n```json\n(.*?)```",
                       PAGE, re.S)
    return [(shlex.split(cmd.replace("\\\n", " ")), json.loads(shown)) for cmd, shown in found]


def subset(shown: Any, answer: Any) -> bool:
    if isinstance(shown, dict):
        return isinstance(answer, dict) and all(k in answer and subset(v, answer[k])
                                                for k, v in shown.items())
    if isinstance(shown, list):
        return (isinstance(answer, list) and len(shown) == len(answer)
                and all(subset(s, a) for s, a in zip(shown, answer, strict=True)))
    return bool(shown == answer)


def test_the_page_has_one_example_per_ruleset() -> None:
    urls = [next(a for a in args if a.startswith("http")) for args, _ in examples()]
    assert [u.split("/")[-2] for u in urls] == RULESETS + STEPPED
    assert [("plan" in json.loads(args[args.index("-d") + 1])) for args, _ in examples()] \
        == [False] * len(RULESETS) + [True] * len(STEPPED)


@pytest.mark.parametrize("index", range(EXAMPLES))
def test_each_example_runs_as_pasted_and_answers_what_the_page_shows(server: str,
                                                                    index: int) -> None:
    args, shown = examples()[index]
    answer = send(args, server)
    assert subset(shown, answer), json.dumps(answer)[:2000]
    assert answer["possible"] is False and answer["violations"], "a place a player hovers over"


@pytest.mark.parametrize("index", range(EXAMPLES))
def test_graphql_answers_what_rest_answers(http: httpx.Client, server: str, index: int) -> None:
    args, _ = examples()[index]
    rest = send(args, server)
    body = json.loads(args[args.index("-d") + 1])
    ruleset = next(a for a in args if a.startswith("http")).split("/")[-2]
    prefix = "".join(w.title() for w in ruleset.split("_"))
    field = prefix[:1].lower() + prefix[1:]
    served = builtin_registry().get(ruleset)
    assert served is not None
    request = served.queries["why-not"].request
    # A plan goes in as GraphQL's input types take it (each step a one-of of its kinds).
    target = {k: to_graphql(request, {k: v})[k] for k, v in body.items() if k != "state"}
    declared = ", ".join(f"${k}: {_type(k, prefix)}" for k in target)
    passed = ", ".join(f"{k}: ${k}" for k in target)
    text = (f"query($state: {prefix}State!, {declared}) {{ {field}(state: $state) {{ "
            f"whyNot({passed}) {{ possible action {{ __typename }} violations {{ code rule message "
            f"at {{ step region piece hex {{ q r }} }} }} changes {{ code message }} }} }} }}")
    r = http.post("/graphql", json={"query": text, "variables": {"state": body["state"],
                                                                 **target}})
    answer = r.json()["data"][field]["whyNot"]
    assert answer["possible"] is rest["possible"]
    # The action comes typed as the ruleset's action union (one type per action type).
    assert (answer["action"] is None) is (rest["action"] is None)
    assert answer["violations"] == [{k: v[k] for k in ("code", "rule", "message", "at")}
                                    for v in rest["violations"]]
    assert answer["changes"] == [{k: c[k] for k in ("code", "message")}
                                 for c in rest["changes"]]


def _type(name: str, prefix: str) -> str:
    return {"hex": "AxialInput!", "march": "Boolean", "step": "Int!",
            "plan": f"{prefix}ActionInput!"}.get(name, "String!")


def test_a_target_off_the_map_is_a_422_at_its_pointer(http: httpx.Client) -> None:
    args, _ = examples()[0]
    body = json.loads(args[args.index("-d") + 1]) | {"hex": {"q": 9, "r": 9}}
    r = http.post("/v1/rulesets/hex_maneuver/why-not", json=body)
    assert r.status_code == 422
    assert [e["pointer"] for e in r.json()["errors"]] == ["/hex"]
    r = http.post("/v1/rulesets/region_conquest/why-not",
                  json={"state": json.loads(examples()[1][0][examples()[1][0].index("-d") + 1])
                        ["state"], "player": "orcs", "region": "atlantis"})
    assert r.status_code == 422
    assert [e["pointer"] for e in r.json()["errors"]] == ["/region"]


@pytest.mark.parametrize("ruleset", STEPPED)
def test_a_place_and_a_step_together_or_a_step_beyond_the_plan_is_a_422(
        http: httpx.Client, ruleset: str) -> None:
    args, _ = examples()[len(RULESETS) + STEPPED.index(ruleset)]
    body = json.loads(args[args.index("-d") + 1])
    place = {"area_movement": {"area": "athens"},
             "phased_orders": {"hex": {"q": 0, "r": 0}}}[ruleset]
    r = http.post(f"/v1/rulesets/{ruleset}/why-not", json=body | place)
    assert r.status_code == 422
    assert [e["pointer"] for e in r.json()["errors"]] == ["/" + next(iter(place))]
    r = http.post(f"/v1/rulesets/{ruleset}/why-not", json=body | {"step": 7})
    assert r.status_code == 422
    assert [e["pointer"] for e in r.json()["errors"]] == ["/step"]

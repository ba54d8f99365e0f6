"""The README's and the documentation's promises: their curl and GraphQL examples work as
pasted against a real server and give the answers they show; the configuration page's
table lists every setting."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import httpx
import pytest

from arbiter.settings import VARIABLES
from service.test_patch import apply

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
FIRST_REQUEST = (ROOT / "docs" / "getting-started.md").read_text()
GRAPHQL = (ROOT / "docs" / "graphql.md").read_text()
CONFIGURATION = (ROOT / "docs" / "configuration.md").read_text()


def curl_examples(text: str) -> list[list[str]]:
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [shlex.split(b.replace("\\\n", " ")) for b in blocks if b.startswith("curl")]


def send(args: list[str], base: str) -> dict[str, Any]:
    """Do what curl would do with these arguments (so the test needs no curl binary)."""
    url, headers, data = "", {}, None
    it = iter(args[1:])
    for arg in it:
        if arg == "-H":
            key, value = next(it).split(":", 1)
            headers[key.strip()] = value.strip()
        elif arg == "-d":
            data = next(it)
        elif arg.startswith("http"):
            url = arg.replace("http://127.0.0.1:8000", base)
    r = httpx.post(url, content=data, headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


@pytest.mark.server
def test_the_readme_request_gets_the_answer_it_shows(server: str) -> None:
    (args,) = curl_examples(README)
    shown = json.loads(re.findall(r"```json\n(.*?)```", README, re.S)[0])
    assert send(args, server) == shown


@pytest.mark.server
def test_curl_and_graphql_examples_give_the_same_verdict(server: str) -> None:
    rest_args, graphql_args = curl_examples(FIRST_REQUEST)
    rest = send(rest_args, server)
    assert rest["legal"] is False
    assert [v["code"] for v in rest["violations"]] == ["over_movement_points"]
    assert rest["violations"][0]["message"] in " ".join(FIRST_REQUEST.split())
    gql = send(graphql_args, server)
    answer = gql["data"]["hexManeuver"]
    assert answer["validate"]["legal"] is False
    assert [v["code"] for v in answer["validate"]["violations"]] == ["over_movement_points"]
    assert answer["validate"]["violations"][0]["message"] == rest["violations"][0]["message"]
    assert answer["reachable"]["destinations"][0] == {"hex": {"q": 0, "r": 0}, "cost": 0}


@pytest.mark.server
def test_graphql_new_game_and_patch_examples_answer_as_the_page_says(server: str) -> None:
    started_args, patched_args = curl_examples(GRAPHQL)
    started = send(started_args, server)["data"]["hexManeuverNewGame"]
    setup = json.loads(started_args[started_args.index("-d") + 1])["variables"]["setup"]
    assert isinstance(started["state"]["rng"], int) and started["signature"] is None
    assert started["state"]["armies"][0]["hex"] == setup["armies"][0]["hex"]
    sent = json.loads(patched_args[patched_args.index("-d") + 1])["variables"]["state"]
    answer = send(patched_args, server)["data"]
    judged = answer["hexManeuver"]["validate"]
    state = apply(sent, judged["patch"])
    assert judged["legal"] is True
    assert state["armies"][0]["hex"] == {"q": 2, "r": 0} and state["armies"][0]["depletion"] == 2
    codes = answer["hexManeuverCatalogue"]["violationCodes"]
    assert {"code": "over_movement_points", "rule": "hex_maneuver/movement.1"}.items() <= \
        next(c for c in codes if c["code"] == "over_movement_points").items()


def test_configuration_table_lists_every_setting_with_its_default() -> None:
    for var in VARIABLES:
        row = re.search(rf"^\| `{var.name}` \| (.*?) \|", CONFIGURATION, re.M)
        assert row, f"{var.name} missing from docs/configuration.md's table"
        shown = row.group(1)
        assert shown == (f"`{var.default}`" if var.default else "(empty)"), var.name


def test_readme_shows_the_two_commands() -> None:
    assert "make run" in README and "make test" in README

"""One lifecycle for every transport: a REST validate, a GraphQL validate and a CLI check
each open their state and judge their action through the same steps of
``service.lifecycle.Service`` (``_read``, ``_open``, ``_rule``), and a state's signature
is checked before its action is judged, whatever the transport."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

from arbiter.cli.main import main
from arbiter.graphql.types import to_graphql
from arbiter.http.app import create_app
from arbiter.rulesets import load
from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_ACTION, EXAMPLE_STATE
from arbiter.rulesets.hex_maneuver.models import HexManeuverAction
from arbiter.service.account import opened
from arbiter.service.configured import configured
from arbiter.service.lifecycle import Service
from arbiter.service.problems import SignatureRefused
from arbiter.settings import Settings

STEPS = ("_read", "_open", "_rule")
KEYS = "life:" + "k" * 40


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The lifecycle's steps as they are taken, by name."""
    taken: list[str] = []
    for name in STEPS:
        original = getattr(Service, name)

        def spy(self: Service, *args: Any, __name: str = name, __original: Any = original,
                **kwargs: Any) -> Any:
            taken.append(__name)
            return __original(self, *args, **kwargs)

        monkeypatch.setattr(Service, name, spy)
    yield taken


def test_rest_graphql_and_the_cli_take_the_same_steps(steps: list[str], tmp_path: Path
                                                      ) -> None:
    with TestClient(create_app(Settings())) as client:
        rest = client.post("/v1/rulesets/hex_maneuver/validate",
                           json={"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION})
        assert rest.status_code == 200 and rest.json()["legal"]
        assert steps == list(STEPS)
        steps.clear()
        graphql = client.post("/graphql", json={
            "query": "query($s: HexManeuverState!, $a: HexManeuverActionInput!) { "
                     "hexManeuver(state: $s) { validate(action: $a) { legal stateHash } } }",
            "variables": {"s": EXAMPLE_STATE,
                          "a": to_graphql(HexManeuverAction, EXAMPLE_ACTION)}}).json()
        assert graphql["data"]["hexManeuver"]["validate"]["legal"]
        assert steps == list(STEPS)
        steps.clear()
    (tmp_path / "s.json").write_text(json.dumps(EXAMPLE_STATE))
    (tmp_path / "a.json").write_text(json.dumps(EXAMPLE_ACTION))
    assert main(["check", "hex_maneuver", str(tmp_path / "s.json"),
                 str(tmp_path / "a.json")]) == 0
    assert steps == list(STEPS)
    # The same state judged the same way: the three answers agree.
    assert graphql["data"]["hexManeuver"]["validate"]["stateHash"] == \
        rest.json()["state_hash"]


def test_a_signature_is_checked_before_the_action_is_judged() -> None:
    """An edited signed state with an action the engine cannot judge (an army that does
    not exist) is refused for its signature: nothing of it was judged."""
    hex_maneuver = load("hex_maneuver")
    service = configured(Settings(state_keys=KEYS))

    async def run() -> None:
        with opened():
            game = orjson.loads(await service.new_game(
                hex_maneuver, orjson.dumps({"state": EXAMPLE_STATE}), issuer=True))
            edited = {**game["state"], "players": game["state"]["players"][::-1]}
            ghost = {**EXAMPLE_ACTION, "army": "ghost"}
            body = orjson.dumps({"state": edited, "signature": game["signature"],
                                 "action": ghost})
            with pytest.raises(SignatureRefused):
                await service.validate(hex_maneuver, body)
            # Opened to be asked several questions (GraphQL): refused as it opens.
            with pytest.raises(SignatureRefused):
                await service.open(hex_maneuver, edited, game["signature"])

    asyncio.run(run())

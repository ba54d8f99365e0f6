"""``"return": "patch"`` against a live ``arbiter serve``, for every ruleset's example
move: the patch applied to the state exactly as sent gives the resulting state (read by
the ruleset's model, as the service reads the next request), and every operation in it
is needed: leaving any one out gives another state. Defaults the client never sent and
the move left as they were are not in it (a two-field move was 15 operations)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.service.test_patch import apply

from arbiter.rulesets import builtin_registry

pytestmark = pytest.mark.server
REGISTRY = builtin_registry()


def example_body(http: httpx.Client, ruleset: str) -> dict[str, Any]:
    paths = http.get("/openapi.json").json()["paths"]
    body: dict[str, Any] = paths[f"/v1/rulesets/{ruleset}/validate"]["post"][
        "requestBody"]["content"]["application/json"]["example"]
    return body


def read(ruleset: str, state: Any) -> Any:
    found = REGISTRY.get(ruleset)
    assert found is not None
    return found.state_model.model_validate(state).model_dump(mode="json")


@pytest.mark.parametrize("ruleset", REGISTRY.ids())
def test_a_patch_gives_the_resulting_state_with_only_the_operations_needed(
        http: httpx.Client, ruleset: str) -> None:
    body = example_body(http, ruleset)
    whole = http.post(f"/v1/rulesets/{ruleset}/validate", json={**body, "return": "state"})
    lean = http.post(f"/v1/rulesets/{ruleset}/validate", json={**body, "return": "patch"})
    assert whole.status_code == lean.status_code == 200
    result, patch = whole.json()["state"], lean.json()["patch"]
    assert result is not None and patch
    assert lean.json()["state_hash"] == whole.json()["state_hash"]
    patched = apply(body["state"], patch)
    assert read(ruleset, patched) == read(ruleset, result)
    for i in range(len(patch)):
        without = apply(body["state"], patch[:i] + patch[i + 1:])
        assert read(ruleset, without) != read(ruleset, result), patch[i]
    # Fewer operations than the resulting state has fields the client never sent.
    sent_keys = set(body["state"])
    assert not [op for op in patch if op["path"].count("/") == 1
                and op["path"][1:] not in sent_keys
                and result[op["path"][1:]] == read(ruleset, body["state"]).get(op["path"][1:])]


def test_a_first_move_from_a_new_game_is_a_few_operations(http: httpx.Client) -> None:
    body = example_body(http, "hex_maneuver")
    lean = http.post("/v1/rulesets/hex_maneuver/validate", json={**body, "return": "patch"})
    # The move changes one army's units and adds the army that split off.
    assert [op["path"] for op in lean.json()["patch"]] == ["/armies/0/units/cavalrymen",
                                                          "/armies/3"]

"""The compiled-map cache of hex_maneuver: a map met again is not indexed again, the
cache stays within its bounds, and a malformed map is refused the same way on a hit."""

from __future__ import annotations

import pytest

from arbiter.engine.errors import InvalidInput
from arbiter.rulesets.hex_maneuver import board
from arbiter.rulesets.hex_maneuver.models import HexManeuverState


def state(hexes: list[dict[str, object]]) -> HexManeuverState:
    return HexManeuverState.model_validate({"hexes": hexes, "players": [{"id": "red"}]})


def strip(n: int, province: str = "p") -> list[dict[str, object]]:
    return [{"q": q, "r": 0, "terrain": "plains", "province": province} for q in range(n)]


def test_the_same_map_is_indexed_once() -> None:
    first = board.compile_board(state(strip(5)))
    again = board.compile_board(state(strip(5)))
    assert again.hex_map is first.hex_map


def test_a_changed_hex_is_another_map() -> None:
    hexes = strip(5)
    before = board.compile_board(state(hexes))
    hexes[2] = {**hexes[2], "terrain": "swamp"}
    after = board.compile_board(state(hexes))
    assert after.hex_map is not before.hex_map
    assert after.terrain[(2, 0)] == "swamp" and before.terrain[(2, 0)] == "plains"


def test_a_malformed_map_is_refused_on_every_request() -> None:
    hexes = [*strip(3), {"q": 1, "r": 0, "terrain": "forest", "province": "p"}]
    for _ in range(2):
        with pytest.raises(InvalidInput) as refused:
            board.compile_board(state(hexes))
        assert [p.pointer for p in refused.value.problems] == ["/state/hexes/3"]


def test_the_cache_is_bounded_in_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board, "_maps", {})
    monkeypatch.setattr(board, "_held", 0)
    # Room for one 4-hex map by content and by identity, and a 4-hex map by content more.
    bound = 4 * (board.KEYED_HEX_BYTES * 2 + board.LISTED_HEX_BYTES)
    monkeypatch.setattr(board, "MAP_CACHE_BYTES", bound)
    for i in range(6):
        board.compile_board(state(strip(4, province=f"p{i}")))
        assert board.map_cache_bytes() <= bound
    assert board.map_cache_bytes() == sum(e.cost for e in board._maps.values())
    assert len(board._maps) == 2  # the last map, by content and by identity
    board.compile_board(state(strip(100, province="huge")))  # larger than the whole bound
    assert all(e.cost <= bound for e in board._maps.values())
    assert board.map_cache_bytes() <= bound


def test_a_list_met_again_is_found_by_identity() -> None:
    hexes = state(strip(7, province="same")).hexes
    first = board.map_index(hexes)
    assert board._maps[id(hexes)].hexes is hexes
    assert board.map_index(hexes) is first


def test_an_outcome_changed_by_its_caller_leaves_the_next_one_alone() -> None:
    from arbiter.rulesets import load

    ruleset = load("hex_maneuver")
    body = {"hexes": strip(3, province="own"), "players": [{"id": "red"}],
            "armies": [{"id": "a", "owner": "red", "hex": {"q": 0, "r": 0},
                        "units": {"swordsmen": 1}}]}
    action = ruleset.action_model.model_validate(
        {"type": "maneuver", "player": "red", "army": "a", "path": [{"q": 1, "r": 0}]})
    first = ruleset.validate(ruleset.state_model.model_validate(body), action, "strict")
    assert first.state is not None
    first.state["hexes"][0]["terrain"] = "ocean"
    second = ruleset.validate(ruleset.state_model.model_validate(body), action, "strict")
    assert second.state is not None and second.state["hexes"][0]["terrain"] == "plains"

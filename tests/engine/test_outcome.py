import pytest

from arbiter.engine.catalogue import build_catalogue
from arbiter.engine.hexgrid import Axial
from arbiter.engine.outcome import Verdict, location, render, state_hash
from arbiter.rulesets import builtin_registry

CATALOGUE = build_catalogue(
    "demo", "1.0.0", "A demo",
    rules=[("move.1", "Moves cost movement points.")],
    codes=[("far", "move.1", "{hex} is {cost} MP away, you have {mp}")],
    events=[("moved", "move.1", "moved {units}")],
    param_types={"hex": Axial, "cost": int, "mp": int, "units": dict[str, int]})


def test_messages_fill_templates_with_hexes_and_unit_counts() -> None:
    assert render("{hex} and {units}", {"hex": {"q": 1, "r": -1},
                                         "units": {"archers": 2}}) == "(1,-1) and 2 archers"


def test_verdict_keeps_every_violation_with_params_and_place() -> None:
    verdict = Verdict(CATALOGUE)
    verdict.violate("far", location(step=2, hex=(1, -1)), hex={"q": 1, "r": -1}, cost=4, mp=3)
    verdict.violate("far", hex={"q": 2, "r": 0}, cost=5, mp=3)
    assert [v.message for v in verdict.violations] == ["(1,-1) is 4 MP away, you have 3",
                                                       "(2,0) is 5 MP away, you have 3"]
    assert verdict.violations[0].params == {"hex": {"q": 1, "r": -1}, "cost": 4, "mp": 3}
    assert verdict.violations[0].rule == "demo/move.1"
    assert verdict.violations[0].at.step == 2


def test_params_are_never_reinterpreted() -> None:
    # A pair of ints is a list, not a hex: only the ruleset knows what its values mean.
    verdict = Verdict(CATALOGUE)
    verdict.violate("far", hex=(1, -1), cost=4, mp=3)
    assert verdict.violations[0].params["hex"] == [1, -1]


def test_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        Verdict(CATALOGUE).violate("nope")


def test_state_hash_ignores_key_order() -> None:
    assert state_hash({"a": 1, "b": [1, 2]}) == state_hash({"b": [1, 2], "a": 1})
    assert state_hash({"a": 1}) != state_hash({"a": 2})


def test_every_builtin_ruleset_cites_only_its_listed_rules() -> None:
    for ruleset in builtin_registry():
        rule_ids = {r.id for r in ruleset.rules}
        assert all(c.rule in rule_ids for c in ruleset.codes.values())
        assert all(e.rule in rule_ids for e in ruleset.event_kinds.values())
        assert all(r.startswith(ruleset.id + "/") for r in rule_ids)

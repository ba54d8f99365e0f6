import pytest

from arbiter.engine.judging import conclude
from arbiter.engine.outcome import CodeRef, EventRef, Verdict, location, render, state_hash
from arbiter.engine.registry import check_catalogue
from arbiter.rulesets import builtin_registry

CODES = {"far": CodeRef("far", "demo/move.1", "{hex} is {cost} MP away, you have {mp}")}
EVENTS = {"moved": EventRef("moved", "demo/move.1", "moved {units}")}


def test_messages_fill_templates_with_hexes_and_unit_counts() -> None:
    assert render("{hex} and {units}", {"hex": {"q": 1, "r": -1},
                                         "units": {"archers": 2}}) == "(1,-1) and 2 archers"


def test_verdict_keeps_every_violation_with_params_and_place() -> None:
    verdict = Verdict(CODES, EVENTS)
    verdict.violate("far", location(step=2, hex=(1, -1)), hex=(1, -1), cost=4, mp=3)
    verdict.violate("far", hex=(2, 0), cost=5, mp=3)
    assert [v.message for v in verdict.violations] == ["(1,-1) is 4 MP away, you have 3",
                                                       "(2,0) is 5 MP away, you have 3"]
    assert verdict.violations[0].params == {"hex": {"q": 1, "r": -1}, "cost": 4, "mp": 3}
    assert verdict.violations[0].at.step == 2


def test_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        Verdict(CODES, EVENTS).violate("nope")


def test_state_hash_ignores_key_order() -> None:
    assert state_hash({"a": 1, "b": [1, 2]}) == state_hash({"b": [1, 2], "a": 1})
    assert state_hash({"a": 1}) != state_hash({"a": 2})


def test_strict_illegal_outcome_has_no_state_and_advisory_applies() -> None:
    from pydantic import BaseModel

    class S(BaseModel):
        x: int

    verdict = Verdict(CODES, EVENTS)
    verdict.violate("far", hex=(1, 0), cost=4, mp=3)
    strict = conclude(ruleset_id="demo", version="1", verdict=verdict, mode="strict",
                      apply=lambda: S(x=1))
    assert strict.state is None and not strict.applied and strict.state_hash is None
    advisory = conclude(ruleset_id="demo", version="1", verdict=verdict, mode="advisory",
                        apply=lambda: S(x=1))
    assert advisory.state == {"x": 1} and advisory.applied and not advisory.legal
    assert [v.severity for v in advisory.violations] == ["warning"]
    verdict.applicable = False
    undefined = conclude(ruleset_id="demo", version="1", verdict=verdict, mode="advisory",
                         apply=lambda: S(x=1))
    assert undefined.state is None


def test_every_builtin_ruleset_cites_only_its_listed_rules() -> None:
    for ruleset in builtin_registry():
        check_catalogue(ruleset)
        assert all(c.rule.startswith(ruleset.id + "/") for c in ruleset.codes.values())

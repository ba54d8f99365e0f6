import pytest

from arbiter.engine.catalogue import build_catalogue
from arbiter.engine.hexgrid import Axial


def test_codes_and_events_cite_full_rule_ids() -> None:
    catalogue = build_catalogue("demo", "1.0.0", "A demo",
                                rules=[("turn.1", "One at a time.")],
                                codes=[("not_your_turn", "turn.1", "wait, {player}")],
                                events=[("passed", "turn.1", "{player} passed",
                                         {"bonus": int})],
                                param_types={"player": str}, data={"dice": [1, 2]})
    assert [r.id for r in catalogue.rules] == ["demo/turn.1"]
    assert catalogue.codes["not_your_turn"].rule == "demo/turn.1"
    assert catalogue.events["passed"].rule == "demo/turn.1"
    assert catalogue.rule("turn.1") == "demo/turn.1"
    assert catalogue.data == {"dice": [1, 2]}
    assert catalogue.codes["not_your_turn"].params == {"player": str}
    assert catalogue.events["passed"].params == {"player": str, "bonus": int}
    model = catalogue.params_model("event", "passed")
    assert model.__name__ == "DemoPassedEventParams"
    given = {"player": "a", "bonus": 1}
    assert model.model_validate(given).model_dump() == given
    with pytest.raises(ValueError, match="bonus"):
        model.model_validate({"player": "a", "bonus": "1"})


@pytest.mark.parametrize(("codes", "events", "why"), [
    ([("far", "move.9", "x")], [], "cites unknown rule demo/move.9"),
    ([], [("moved", "nope.1", "x")], "cites unknown rule demo/nope.1"),
    ([("far", "move.1", "x"), ("far", "move.1", "y")], [], "declared twice"),
    ([("far", "move.1", "{cost} MP")], [], "far's param cost has no type"),
    ([], [("moved", "move.1", "{cost} MP", {"cost": int})], r"param_types \['hex'\] fill no"),
])
def test_a_catalogue_that_cites_nothing_or_repeats_itself_is_refused(
        codes: list[tuple[str, str, str]], events: list[tuple[str, str, str]],
        why: str) -> None:
    with pytest.raises(ValueError, match=why):
        build_catalogue("demo", "1.0.0", "A demo", rules=[("move.1", "Moves.")],
                        codes=codes, events=events, param_types={"hex": Axial})

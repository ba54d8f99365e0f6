import pytest

from arbiter.engine.catalogue import build_catalogue


def test_codes_and_events_cite_full_rule_ids() -> None:
    catalogue = build_catalogue("demo", "1.0.0", "A demo",
                                rules=[("turn.1", "One at a time.")],
                                codes=[("not_your_turn", "turn.1", "wait, {player}")],
                                events=[("passed", "turn.1", "{player} passed")],
                                data={"dice": [1, 2]})
    assert [r.id for r in catalogue.rules] == ["demo/turn.1"]
    assert catalogue.codes["not_your_turn"].rule == "demo/turn.1"
    assert catalogue.events["passed"].rule == "demo/turn.1"
    assert catalogue.rule("turn.1") == "demo/turn.1"
    assert catalogue.data == {"dice": [1, 2]}


@pytest.mark.parametrize(("codes", "events", "why"), [
    ([("far", "move.9", "x")], [], "cites unknown rule demo/move.9"),
    ([], [("moved", "nope.1", "x")], "cites unknown rule demo/nope.1"),
    ([("far", "move.1", "x"), ("far", "move.1", "y")], [], "declared twice"),
])
def test_a_catalogue_that_cites_nothing_or_repeats_itself_is_refused(
        codes: list[tuple[str, str, str]], events: list[tuple[str, str, str]],
        why: str) -> None:
    with pytest.raises(ValueError, match=why):
        build_catalogue("demo", "1.0.0", "A demo", rules=[("move.1", "Moves.")],
                        codes=codes, events=events)

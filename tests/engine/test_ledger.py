"""The ledger every ruleset writes an action's effect into (engine/ledger.py): a Draft of
the state whose lists of pieces are indexed by id the first time a rule touches them."""

from __future__ import annotations

from pydantic import BaseModel

from arbiter.engine.judging import settle
from arbiter.engine.ledger import Ledger
from arbiter.engine.wire import Frozen


class Army(Frozen):
    id: str
    units: int


class State(Frozen):
    armies: list[Army]
    turn: str


STATE = State(armies=[Army(id="a1", units=2), Army(id="a2", units=3), Army(id="a3", units=1)],
              turn="red")


def resulting(ledger: Ledger) -> BaseModel:
    model = settle(ledger.draft, State).model
    return model


def test_a_piece_is_found_by_id_and_written_in_place() -> None:
    ledger = Ledger(STATE)
    assert not ledger.draft.touched
    ledger.by_id("armies")["a2"]["units"] -= 1
    assert set(ledger.draft.touched) == {"armies"}
    assert resulting(ledger) == STATE.model_copy(update={"armies": [
        Army(id="a1", units=2), Army(id="a2", units=2), Army(id="a3", units=1)]})
    assert STATE.armies[1].units == 3  # the request's state is never changed


def test_pieces_added_come_last_and_removed_ones_leave_the_others_in_order() -> None:
    ledger = Ledger(STATE)
    ledger.remove("armies", "a2")
    ledger.add("armies", {"id": "a4", "units": 5})
    assert [a["id"] for a in ledger["armies"]] == ["a1", "a3", "a4"]
    assert list(ledger.by_id("armies")) == ["a1", "a3", "a4"]


def test_a_field_set_whole_is_indexed_afresh() -> None:
    ledger = Ledger(STATE)
    assert "a1" in ledger.by_id("armies")
    ledger["armies"] = [{"id": "b1", "units": 1}]
    assert list(ledger.by_id("armies")) == ["b1"]
    ledger["turn"] = "blue"
    assert resulting(ledger) == State(armies=[Army(id="b1", units=1)], turn="blue")

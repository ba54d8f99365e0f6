"""hex_maneuver asked in process, the way its rule tests ask it: ``judge`` a JSON state and
action and read the sorted violation ``codes``; ``pointers`` of a request refused with a
422; ``ask`` a query; ``armies_at`` a hex of the resulting state; and the structures and
province tiles those tests build boards with (a tile as its cells by offset from its
centre, ``FLOWER`` order)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from tests.rulesets.hex_maneuver_cases import FLOWER, h

from arbiter.engine.errors import InvalidInput
from arbiter.engine.outcome import Outcome
from arbiter.rulesets import load

RULESET = load("hex_maneuver")
Hex = tuple[int, int]


def judge(st: dict[str, Any], act: dict[str, Any], mode: str = "strict") -> Outcome:
    return RULESET.validate(RULESET.state_model.model_validate(st),
                            RULESET.action_model.model_validate(act), mode)


def codes(out: Outcome) -> list[str]:
    return sorted(v.code for v in out.violations)


def ask(name: str, body: dict[str, Any]) -> Any:
    query = RULESET.queries[name]
    return query.run(query.request.model_validate(body))


def pointers(call: Callable[[], object]) -> list[str]:
    """The sorted pointers of the 422 ``call`` must raise."""
    with pytest.raises(InvalidInput) as err:
        call()
    return sorted(p.pointer for p in err.value.problems)


def armies_at(out: Outcome, at: Hex, owner: str | None = None) -> list[dict[str, Any]]:
    assert out.state is not None
    return [a for a in out.state["armies"] if (a["hex"]["q"], a["hex"]["r"]) == at
            and (owner is None or a["owner"] == owner)]


def units_by_owner(armies: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for a in armies:
        out.setdefault(a["owner"], Counter()).update(a["units"])
    return out


def city(sid: str, owner: str, at: Hex, kind: str = "city") -> dict[str, Any]:
    return {"id": sid, "kind": kind, "owner": owner, "hex": h(*at)}


def tile(tid: str, cells: dict[Hex, str], symbol: tuple[Hex, str] | None = None
         ) -> dict[str, Any]:
    hexes = []
    for (dq, dr), terrain in cells.items():
        cell: dict[str, Any] = {"dq": dq, "dr": dr, "terrain": terrain}
        if symbol is not None and symbol[0] == (dq, dr):
            cell["relic_symbol"] = symbol[1]
        hexes.append(cell)
    return {"id": tid, "hexes": hexes}


PLAINS_FLOWER_TILE = tile("t-plains", {o: "plains" for o in FLOWER})
LAGOON_TILE = tile("t-lagoon", {o: "sea" for o in FLOWER})
# One sea hex on the E offset (the golden cases' t-sea): turned r sixths the sea lies on
# P2 (centre (2,1)) at r0 (3,1), r1 (3,0), r2 (2,0), r3 (1,1), r4 (1,2), r5 (2,2).
SEA_TILE = tile("t-sea", {(0, 0): "plains", (1, 0): "sea", (1, -1): "plains",
                          (0, -1): "plains", (-1, 0): "plains", (-1, 1): "plains",
                          (0, 1): "forest"})
# A solid relic symbol on the E offset: turned 2 sixths it lies on (2,0).
SOLID_TILE = tile("t-solid", {o: "plains" for o in FLOWER}, ((1, 0), "solid"))
OUTLINED_TILE = tile("t-out", {o: "plains" for o in FLOWER}, ((0, 0), "outlined"))

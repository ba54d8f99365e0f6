"""Rulesets, engine only: a whole request handled in process (parse the body, judge or
answer, serialise) without HTTP, for hex_maneuver's validate and reachable on radius-10
and radius-50 boards, for conquest-cost on the region and territory boards, for the
render query (the SVG picture) of the 331-hex board and of a 40-region map, and for a
validate on the 331-hex board with signed states against the same validate unsigned."""

from __future__ import annotations

from typing import Any

import orjson
from tests.bench import boards_hex_maneuver as hexes
from tests.bench.timing import interleaved_medians, median_seconds, us

from arbiter.rulesets import load
from arbiter.service.contract import contract


def run(quick: bool) -> list[dict[str, Any]]:
    from tests.bench.boards_region_conquest import conquest_cost_request as region_request
    from tests.bench.boards_territory_conquest import conquest_cost_request as territory_request

    rows = []
    hm = load("hex_maneuver")
    validate_model = contract(hm).validate_request
    reachable = hm.queries["reachable"]
    for radius in ((10,) if quick else (10, 50)):
        body = orjson.dumps(hexes.validate_body(radius))

        def judge(body: bytes = body) -> bytes:
            req: Any = validate_model.model_validate_json(body)
            return hm.validate(req.state, req.action, req.mode).model_dump_json().encode()

        def parse_only(body: bytes = body) -> object:
            return validate_model.model_validate_json(body)

        rbody = orjson.dumps(hexes.reachable_body(radius))

        def answer(rbody: bytes = rbody) -> bytes:
            return reachable.run(reachable.request.model_validate_json(rbody)) \
                .model_dump_json().encode()

        budget = 0.3 if quick else 3.0
        n = len(hexes.board(radius)["hexes"])
        judged, parsed, answered = interleaved_medians([judge, parse_only, answer],
                                                       budget=budget)
        rows.append({"what": f"engine validate, {n} hexes", "median_us": us(judged),
                     "of_which_parse_us": us(parsed)})
        rows.append({"what": f"engine reachable, {n} hexes", "median_us": us(answered)})
    cases = [("region_conquest", "40 regions", region_request(40)),
             ("territory_conquest", "real board", territory_request())]
    if not quick:
        cases.insert(1, ("region_conquest", "2,000 regions", region_request(2000)))
    for name, label, body in cases:
        query = load(name).queries["conquest-cost"]
        raw = orjson.dumps(body)

        def cost(raw: bytes = raw, query: Any = query) -> bytes:
            return query.run(query.request.model_validate_json(raw)).model_dump_json().encode()

        rows.append({"what": f"engine conquest-cost {name}, {label}",
                     "median_us": us(median_seconds(cost, budget=0.1 if quick else 1.0))})
    rows += area_movement_rows(quick)
    rows += phased_orders_rows(quick)
    rows += render_rows(quick)
    rows += signing_rows(quick)
    rows += sealing_rows(quick)
    return rows


def signing_rows(quick: bool) -> list[dict[str, Any]]:
    """Signed states (service/signing.py): a validate on the 331-hex board whose state
    comes signed (its digest made and checked before judging) and whose resulting state is
    signed, against the same request unsigned, sampled in turn, each through the service's
    lifecycle on one event loop; the state is a new-game state (a seed)."""
    import asyncio

    from arbiter.service.configured import configured
    from arbiter.settings import Settings

    hm = load("hex_maneuver")
    keys = Settings(state_keys="bench:" + "s" * 32)
    signer, off = configured(keys), configured(Settings())
    body = hexes.validate_body(10)
    first = hm.start({**body["state"], "rng": 0}, 7)
    plain = orjson.dumps({**body, "state": first.state})
    signed = orjson.dumps({**body, "state": first.state, "signature": signer.signer.sign(
        hm, first.canonical).model_dump()})
    loop = asyncio.new_event_loop()

    def judge(raw: bytes, service: Any) -> bytes:
        answer: bytes = loop.run_until_complete(service.validate(hm, raw))
        return answer

    assert b'"signature":{"key":"bench"' in judge(signed, signer)
    unsigned_s, signed_s = interleaved_medians(
        [lambda: judge(plain, off), lambda: judge(signed, signer)],
        budget=0.5 if quick else 6.0)
    return [{"what": "service validate, 331 hexes, unsigned", "median_us": us(unsigned_s)},
            {"what": "service validate, 331 hexes, signed state in and out",
             "median_us": us(signed_s),
             "added_pct": round((signed_s / unsigned_s - 1) * 100, 1)}]


def sealing_rows(quick: bool) -> list[dict[str, Any]]:
    """Sealed hidden fields (service/hidden.py): a validate on the 331-hex board in digital
    mode with a full tile stack (48 tiles), relic bag and event deck (40 cards), its state
    signed, sent in the clear against the same state sealed (every hidden field opened
    before judging and sealed again in the answer), sampled in turn through the lifecycle."""
    import asyncio

    from arbiter.service.configured import configured
    from arbiter.settings import Settings

    hm = load("hex_maneuver")
    service = configured(Settings(state_keys="bench:" + "s" * 32))
    body = hexes.validate_body(10)
    tile = {"hexes": [{"dq": dq, "dr": dr, "terrain": "plains"} for dq, dr in
                      ((0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))]}
    players = len(body["state"]["players"])
    setup = {**body["state"], "rng": 0, "tiles": [{**tile, "id": f"t-{i}"} for i in range(48)],
             "relics": {"total": players + 1, "to_place": players + 1,
                        "bag": [f"relic-{i}" for i in range(players + 1)], "placed": []},
             "events": {"deck": [f"card-{i}" for i in range(40)], "rows": []}}
    first = hm.start(setup, 7)
    signature = service.signer.sign(hm, first.canonical).model_dump()
    sealed_state = service.hiding.seal(hm, first.state)
    clear = orjson.dumps({**body, "state": first.state, "signature": signature})
    sealed = orjson.dumps({**body, "state": sealed_state, "signature": signature})
    loop = asyncio.new_event_loop()

    def judge(raw: bytes) -> bytes:
        answer: bytes = loop.run_until_complete(service.validate(hm, raw))
        return answer

    assert b'"sealed":"sealed:v1:bench:' in judge(sealed) and b'"legal":true' in judge(sealed)
    clear_s, sealed_s = interleaved_medians([lambda: judge(clear), lambda: judge(sealed)],
                                            budget=0.5 if quick else 6.0)
    return [{"what": "service validate, 331 hexes, signed, stack/bag/deck in the clear",
             "median_us": us(clear_s)},
            {"what": "service validate, 331 hexes, signed, stack/bag/deck/seed sealed",
             "median_us": us(sealed_s), "added_us": us(sealed_s - clear_s),
             "added_pct": round((sealed_s / clear_s - 1) * 100, 1)}]


def area_movement_rows(quick: bool) -> list[dict[str, Any]]:
    """A 40-step movement plan on a 100-area map: validated, and its conflicts."""
    from tests.bench.boards_area_movement import conflicts_request, validate_request

    am = load("area_movement")
    validate_model = contract(am).validate_request
    body = orjson.dumps(validate_request(100, 40))
    conflicts = am.queries["conflicts"]
    cbody = orjson.dumps(conflicts_request(100, 40))

    def judge() -> bytes:
        req: Any = validate_model.model_validate_json(body)
        return am.validate(req.state, req.action, req.mode).model_dump_json().encode()

    def conflicts_of() -> bytes:
        return conflicts.run(conflicts.request.model_validate_json(cbody)) \
            .model_dump_json().encode()

    judged, found = interleaved_medians([judge, conflicts_of], budget=0.3 if quick else 3.0)
    return [{"what": "engine validate area_movement, 40-step plan, 100 areas",
             "median_us": us(judged)},
            {"what": "engine conflicts area_movement, 40-step plan, 100 areas",
             "median_us": us(found)}]


def phased_orders_rows(quick: bool) -> list[dict[str, Any]]:
    """One whole turn: 40 units of 4 players (and a bandit and an undead) on 300 hexes."""
    from tests.bench.boards_phased_orders import resolve_request

    resolve = load("phased_orders").queries["resolve"]
    body = orjson.dumps(resolve_request())

    def resolved() -> bytes:
        return resolve.run(resolve.request.model_validate_json(body)).model_dump_json().encode()

    return [{"what": "engine resolve phased_orders, 40 units of 4 players, 300 hexes",
             "median_us": us(median_seconds(resolved, budget=0.3 if quick else 3.0))}]


def render_rows(quick: bool) -> list[dict[str, Any]]:
    """The picture of the 331-hex board with the reachable overlay of an army, and of the
    40-region map (laid out, no geometry in the state) with the conquest costs of the
    player to move: each a whole render request, the SVG's size beside its time. The map's
    layout, remembered per map (pictures.layout.cached), is computed afresh each time."""
    from tests.bench.boards_region_conquest import conquest_cost_state

    from arbiter.pictures.layout import cached

    cases = [("hex_maneuver", "331-hex board, reachable overlay", False,
              {"state": hexes.board(10), "overlay": {"reachable": {"army": "a0"}}}),
             ("region_conquest", "40-region map, conquest costs overlay", True,
              {"state": conquest_cost_state(40), "overlay": {"costs": {"player": "p0"}}})]
    rows = []
    for name, label, cold, body in cases:
        query = load(name).queries["render"]
        raw = orjson.dumps(body)

        def draw(raw: bytes = raw, query: Any = query, cold: bool = cold) -> bytes:
            if cold:
                cached.cache_clear()
            return query.run(query.request.model_validate_json(raw)).model_dump_json().encode()

        size = len(draw())
        rows.append({"what": f"engine render {name}, {label}", "svg_bytes": size,
                     "median_us": us(median_seconds(draw, budget=0.3 if quick else 3.0))})
    return rows

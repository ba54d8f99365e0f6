"""A realistic, deterministic turn for benchmarking ``phased_orders``: a 300-hex map (20
columns by 15 rows, a road along the middle row and another down the middle column),
four players (p0 allied with p1, p2 with p3, the two pairs at war) with 10 units each -
infantry, cavalry, flyers, archers, a caravan and a mage - camped around four points of
the map, two strongholds each (one a capital), bandits in the middle and uncontrolled
undead to the north, and orders for every unit and stronghold: the armies march on the
enemy camp across the map along shortest paths as far as their move takes them (so they
meet in the middle), the archers and mages shoot at the nearest enemy in reach, caravans
load at home, forts commission spearmen.

``resolve_request()`` is the body of ``POST /v1/rulesets/phased_orders/resolve`` with the
game master's decisions the turn needs already in it (answered by a fixed rule: halt at
communiques, let flyers pass, eject the first unit offered, place on the first hex
offered), so the turn resolves; ``validate_body()`` is the same turn as a ``validate``
body. No randomness in the building: the same call always gives the same body.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.hexgrid import distance, neighbours

WIDTH, HEIGHT = 20, 15
PLAYERS = ("p0", "p1", "p2", "p3")
# The corner each player starts from, in (column, row).
CORNERS = ((6, 4), (WIDTH - 7, 4), (6, HEIGHT - 5), (WIDTH - 7, HEIGHT - 5))
KINDS = ("infantry", "infantry", "infantry", "cavalry", "cavalry", "flyer", "archer",
         "archer", "caravan", "mage")


def _hex(col: int, row: int) -> tuple[int, int]:
    """Offset (column, row) to axial (q, r): the map is a rectangle on screen."""
    return col - row // 2, row


def hexes() -> list[dict[str, Any]]:
    out = []
    for row in range(HEIGHT):
        for col in range(WIDTH):
            q, r = _hex(col, row)
            cell: dict[str, Any] = {"q": q, "r": r}
            if row == HEIGHT // 2 or col == WIDTH // 2:
                cell["road"] = True
            out.append(cell)
    return out


def _players() -> list[dict[str, Any]]:
    allied = {("p0", "p1"), ("p2", "p3")}
    out = []
    for p in PLAYERS:
        relations = {o: ("allied" if (p, o) in allied or (o, p) in allied else "war")
                     for o in PLAYERS if o != p}
        out.append({"id": p, "resources": 12, "gems": 4, "relations": relations})
    return out


def _unit(uid: str, owner: str, kind: str, spot: tuple[int, int]) -> dict[str, Any]:
    stats = {"infantry": (2, 4, 2), "cavalry": (4, 4, 3), "flyer": (5, 3, 2),
             "archer": (2, 3, 2), "caravan": (2, 2, 1), "mage": (2, 2, 1)}[kind]
    move, hp, strength = stats
    unit: dict[str, Any] = {"id": uid, "owner": owner, "type": kind,
                            "hex": {"q": spot[0], "r": spot[1]}, "move": move,
                            "hit_points": hp, "max_hit_points": hp + 1, "strength": strength}
    if kind == "flyer":
        unit["flying"] = True
    if kind == "archer":
        unit.update(archer=True, range=3)
    if kind == "caravan":
        unit["caravan"] = {"durability": 3, "resources": 2}
    if kind == "mage":
        unit["spells"] = ["firebolt", "mend"]
    return unit


def _corner_spots(corner: tuple[int, int]) -> list[tuple[int, int]]:
    """The 11 hexes nearest the corner (ties in map order): 10 units and a fort."""
    centre = _hex(*corner)
    cells = [_hex(c, r) for r in range(HEIGHT) for c in range(WIDTH)]
    return sorted(cells, key=lambda h: distance(h, centre))[:11]


def turn_state() -> dict[str, Any]:
    units: list[dict[str, Any]] = []
    strongholds: list[dict[str, Any]] = []
    for k, (player, corner) in enumerate(zip(PLAYERS, CORNERS, strict=True)):
        spots = _corner_spots(corner)
        for i, kind in enumerate(KINDS):
            units.append(_unit(f"{player}-{i}", player, kind, spots[i]))
        strongholds.append({"id": f"{player}-capital", "owner": player, "capital": True,
                            "hex": units[-2]["hex"], "resources": 6, "maximum": 10})
        strongholds.append({"id": f"{player}-fort", "owner": player,
                            "hex": {"q": spots[-1][0], "r": spots[-1][1]},
                            "resources": 2 + k, "maximum": 6})
    middle = [_hex(WIDTH // 2, HEIGHT // 2), _hex(WIDTH // 2, 1)]
    units.append({"id": "brigands", "owner": "bandits", "type": "brigands",
                  "hex": {"q": middle[0][0], "r": middle[0][1]}, "move": 3,
                  "hit_points": 3, "max_hit_points": 3, "strength": 2})
    units.append({"id": "wights", "owner": "undead", "type": "wights", "undead": True,
                  "hex": {"q": middle[1][0], "r": middle[1][1]}, "move": 2,
                  "hit_points": 4, "max_hit_points": 4, "strength": 2})
    return {"hexes": hexes(), "players": _players(), "units": units,
            "strongholds": strongholds,
            "unit_types": [{"id": "spearmen", "cost": 3, "move": 2, "hit_points": 3,
                            "strength": 2}],
            "spells": [{"id": "firebolt", "gems": 2, "range": 3, "effect": "damage",
                        "amount": 2},
                       {"id": "mend", "gems": 1, "range": 2, "effect": "heal", "amount": 2}],
            "rng": 20_240_601}


def _march(start: tuple[int, int], goal: tuple[int, int], steps: int,
           cells: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """Greedy shortest path towards ``goal``: each step to the first neighbour (E, NE, NW,
    W, SW, SE) that is on the map and closer."""
    path: list[tuple[int, int]] = []
    here = start
    for _ in range(steps):
        closer = [n for n in neighbours(here)
                  if n in cells and distance(n, goal) < distance(here, goal)]
        if not closer:
            break
        here = closer[0]
        path.append(here)
    return path


def _enemy_in_reach(state: dict[str, Any], unit: dict[str, Any], reach: int) -> str | None:
    stances = {p["id"]: p["relations"] for p in state["players"]}
    here = (unit["hex"]["q"], unit["hex"]["r"])
    best = None
    for other in state["units"]:
        owner = other["owner"]
        hostile = owner in ("bandits", "undead") or stances[unit["owner"]].get(owner) == "war"
        d = distance(here, (other["hex"]["q"], other["hex"]["r"]))
        if hostile and d <= reach and (best is None or d < best[0]):
            best = (d, other["id"])
    return None if best is None else best[1]


def _unit_order(state: dict[str, Any], unit: dict[str, Any], goal: tuple[int, int],
                cells: set[tuple[int, int]]) -> dict[str, Any]:
    base = {"player": unit["owner"], "unit": unit["id"]}
    if unit["type"] in ("archer", "mage"):
        target = _enemy_in_reach(state, unit, 3)
        if target is not None:
            if unit["type"] == "archer":
                return {"order": "ranged_attack", "target": target, **base}
            return {"order": "cast", "spell": "firebolt", "target": target, **base}
    if unit["type"] == "caravan":
        return {"order": "load", "amount": 2, **base}
    here = (unit["hex"]["q"], unit["hex"]["r"])
    path = _march(here, goal, unit["move"], cells)
    if not path:
        return {"order": "hold", **base}
    return {"order": "move", "path": [{"q": q, "r": r} for q, r in path], **base}


def turn_orders(state: dict[str, Any]) -> list[dict[str, Any]]:
    cells = {(h["q"], h["r"]) for h in state["hexes"]}
    # Each player marches on the enemy across the map's width (p0 on p2, p1 on p3 and
    # back), so the armies meet in the middle.
    goals = {p: _hex(*CORNERS[(k + 2) % len(PLAYERS)]) for k, p in enumerate(PLAYERS)}
    orders = [_unit_order(state, u, goals[u["owner"]], cells) for u in state["units"]
              if u["owner"] in PLAYERS]
    for s in state["strongholds"]:
        if not s.get("capital"):
            orders.append({"order": "commission", "player": s["owner"], "stronghold": s["id"],
                           "unit_type": "spearmen", "new_unit": f"{s['id']}-spearmen"})
    return orders


def _answers(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The decisions the turn needs, by the fixed rule of the module docstring."""
    from arbiter.rulesets import load

    query = load("phased_orders").queries["resolve"]
    decisions: list[dict[str, Any]] = []
    preferred = {"communique": "halt", "archer": "let_pass"}
    for _ in range(100):
        answer = query.run(query.request.model_validate({**body, "decisions": decisions}))
        pending = answer.model_dump(mode="json")["pending_decisions"]
        if not pending:
            return decisions
        for question in pending:
            options = question["options"]
            want = preferred.get(question["kind"])
            option = next((o for o in options if o["choice"] == want), options[0])
            decisions.append({"id": question["id"],
                              **{k: v for k, v in option.items() if v is not None}})
    raise RuntimeError("the benchmark turn needs ever more decisions")


def resolve_request() -> dict[str, Any]:
    state = turn_state()
    body = {"state": state, "orders": turn_orders(state)}
    return {**body, "decisions": _answers(body)}


def validate_body() -> dict[str, Any]:
    request = resolve_request()
    return {"state": request["state"],
            "action": {"type": "resolve", "orders": request["orders"],
                       "decisions": request["decisions"]}}

"""Move armies: which of a player's territories may send pawns into a destination (adjacent
ones, and with double move those two away through no enemy territory), the checks of a
move (sources, majority over the enemy armies, soldier tokens, the opponent's castle, the
survivors' placement on bonus locations), and its effect: tokens paid, bonuses lost by
pawns leaving bonus locations, equal losses returned to both castles, survivors placed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.index import check_ref
from arbiter.engine.outcome import Verdict, location

from .board import Board
from .bonuses import gain_bonus, lose_bonus
from .ledger import Ledger
from .models import BonusEffect, TerritoryConquestMove, TerritoryConquestSource


@dataclass(frozen=True, slots=True)
class Reach:
    """A territory of the mover's from which pawns may enter the destination."""

    territory: str
    distance: int            # 1: adjacent to the destination; 2: by double move
    via: tuple[str, ...]     # distance 2: the territories between that it may pass through


def double_move_passable(board: Board, player: str, territory: str) -> bool:
    """May a double move pass through ``territory``? Never through enemy territory (the
    opponent's castle always is); through nobody's territory unless the option says not."""
    controller = board.controller(territory)
    if controller == player:
        return True
    if controller is None:
        return board.state.options.double_move_via_neutral
    return False


def reach(board: Board, player: str, destination: str, *,
          double_move: bool) -> dict[str, Reach]:
    """Every territory holding ``player``'s pawns from which they may move into
    ``destination``, in territory order."""
    around = board.graph.neighbours(destination)
    found = {t: Reach(t, 1, ()) for t in around if board.pawns(player, t) > 0}
    if double_move:
        via: dict[str, list[str]] = {}
        for middle in around:
            if not double_move_passable(board, player, middle):
                continue
            for t in board.graph.neighbours(middle):
                if t != destination and t not in around and board.pawns(player, t) > 0:
                    via.setdefault(t, []).append(middle)
        found.update({t: Reach(t, 2, tuple(sorted(ms))) for t, ms in via.items()})
    return dict(sorted(found.items()))


def holds_double_move(board: Board, player: str) -> bool:
    # Judged on the state before the move: the pawn giving double move may itself be among
    # the pawns that move (the bonus is lost once it leaves, after the sources are chosen).
    return board.holds(player, BonusEffect.double_move)


def free_locations(board: Board, player: str, destination: str) -> list[str]:
    """The destination's bonus locations a survivor may take: all but those already holding
    one of the mover's pawns (enemy pawns there are all returned to their castle)."""
    return [loc for loc in board.locations_in[destination]
            if board.occupant.get(loc) != player]


def move_problems(board: Board, act: TerritoryConquestMove) -> Problems:
    """What makes a move impossible to judge (422): unknown territories or locations, and
    pawns that are not where the move takes them from."""
    problems = Problems()
    check_ref(act.destination, board.territories, ("action", "destination"), "territory",
              problems)
    seen: set[str] = set()
    for i, src in enumerate(act.sources):
        _source_problems(board, act.player, src, ("action", "sources", i), seen, problems)
    if act.destination in board.territories:
        inside = set(board.locations_in[act.destination])
        for j, loc in enumerate(act.placement):
            if loc not in inside:
                problems.add(pointer("action", "placement", j),
                             f"{loc!r} is not a bonus location of {act.destination}")
    return problems


def _source_problems(board: Board, player: str, src: TerritoryConquestSource,
                     at: tuple[object, ...], seen: set[str], problems: Problems) -> None:
    """A source names a territory once, sends no more pawns than stand there, and names
    only bonus locations the player's pawns hold there."""
    if not check_ref(src.territory, board.territories, (*at, "territory"), "territory",
                     problems):
        return
    if src.territory in seen:
        problems.add(pointer(*at, "territory"), f"{src.territory} is listed twice")
        return
    seen.add(src.territory)
    pawns = board.pawns(player, src.territory)
    if src.count < 0:
        problems.add(pointer(*at, "count"), f"a count cannot be negative ({src.count})")
    elif src.count > pawns:
        problems.add(pointer(*at, "count"),
                     f"{src.count} pawns leave {src.territory}, where {player} has {pawns}")
    held = set(board.held_locations(player, src.territory))
    for j, loc in enumerate(src.from_bonus_locations):
        if loc in src.from_bonus_locations[:j]:
            problems.add(pointer(*at, "from_bonus_locations", j), f"{loc} is listed twice")
        elif loc not in held:
            problems.add(pointer(*at, "from_bonus_locations", j),
                         f"no pawn of {player}'s stands on bonus location {loc!r} of "
                         f"{src.territory}")
    if 0 <= src.count <= pawns:
        _leaving_problems(board, player, src, pawns, at, problems)


def _leaving_problems(board: Board, player: str, src: TerritoryConquestSource, pawns: int,
                      at: tuple[object, ...], problems: Problems) -> None:
    """The pawns leaving from off bonus locations are those not named as leaving one:
    no fewer than none, no more than stand off them."""
    named = len(src.from_bonus_locations)
    leaving_plain = src.count - named
    if src.count == pawns and src.count > 0 and leaving_plain >= 0:
        # Every pawn leaves: which bonus locations empty is not in doubt (all of them),
        # so they need not be named (see leaving_sources).
        return
    plain = board.plain_pawns(player, src.territory)
    if leaving_plain < 0:
        problems.add(pointer(*at, "from_bonus_locations"),
                     f"{named} bonus locations named for {src.count} leaving pawns")
    elif leaving_plain > plain:
        problems.add(pointer(*at, "from_bonus_locations"),
                     f"{leaving_plain} pawns would leave {src.territory} from off its bonus "
                     f"locations, where {plain} stand: name the bonus locations the others "
                     "leave")


@dataclass(frozen=True, slots=True)
class Leaving:
    """Pawns leaving one source as the move takes them, with the bonus locations they
    empty."""

    territory: str
    count: int
    from_bonus_locations: tuple[str, ...]


def leaving_sources(board: Board, act: TerritoryConquestMove) -> tuple[Leaving, ...]:
    """The move's sources as they leave: a source sending no pawn is no source at all (a
    move of 0 pawns is judged by the majority rule, move.2), and a source every pawn
    leaves empties all the player's bonus locations there, named or not (bonus.3)."""
    out = []
    for src in act.sources:
        if src.count == 0:
            continue
        emptied = src.from_bonus_locations
        if src.count == board.pawns(act.player, src.territory):
            emptied = board.held_locations(act.player, src.territory)
        out.append(Leaving(src.territory, src.count, tuple(emptied)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class MovePlan:
    player: str
    opponent: str
    destination: str
    sources: tuple[Leaving, ...]
    reaches: tuple[Reach, ...]        # of the sources that may send pawns
    moved: int
    enemy: int                        # enemy armies in the destination
    previous_controller: str | None
    placement: tuple[str, ...]

    @property
    def majority(self) -> bool:
        return self.moved > self.enemy

    @property
    def survivors(self) -> int:
        return max(self.moved - self.enemy, 0)


def judge_move(board: Board, act: TerritoryConquestMove, verdict: Verdict) -> MovePlan:
    player, dest = act.player, act.destination
    opponent = board.opponent(player)
    at_dest = location(region=dest)
    if board.castle[opponent] == dest:
        verdict.violate("enters_opponent_castle", at_dest, fatal=True, destination=dest,
                        opponent=opponent)
    double_move = holds_double_move(board, player)
    reachable = reach(board, player, dest, double_move=double_move)
    reaches = []
    sources = leaving_sources(board, act)
    for src in sources:
        found = reachable.get(src.territory)
        if found is not None:
            reaches.append(found)
        else:
            _unreachable(board, player, src.territory, dest, double_move, verdict)

    moved = sum(src.count for src in sources)
    enemy = board.pawns(opponent, dest)
    plan = MovePlan(player=player, opponent=opponent, destination=dest,
                    sources=sources, reaches=tuple(reaches), moved=moved,
                    enemy=enemy, previous_controller=board.controller(dest),
                    placement=tuple(act.placement))
    # A move without a majority would send home more pawns than arrive: undefined.
    if not plan.majority:
        verdict.violate("not_a_majority", at_dest, fatal=True, moved=moved, destination=dest,
                        enemy=enemy)
    soldier_tokens = board.players[player].soldier_tokens
    if moved > soldier_tokens:
        verdict.violate("move_short_of_soldier_tokens", at_dest, fatal=True, player=player,
                        moved=moved, soldier_tokens=soldier_tokens)
    _judge_placement(board, plan, verdict)
    return plan


def _unreachable(board: Board, player: str, source: str, dest: str, double_move: bool,
                 verdict: Verdict) -> None:
    """Say why pawns in ``source`` cannot move into ``dest``. Moving pawns from where the
    rules do not allow is still a well-defined change, so advisory mode may apply it."""
    at = location(region=source)
    between = [] if source == dest else [t for t in board.graph.neighbours(dest)
                                         if board.graph.are_adjacent(t, source)]
    if not between:
        verdict.violate("source_not_adjacent", at, source=source, destination=dest)
    elif not double_move:
        verdict.violate("needs_double_move", at, source=source, destination=dest,
                        player=player)
    else:
        verdict.violate("double_move_blocked", at, source=source, destination=dest,
                        via=between)


def _judge_placement(board: Board, plan: MovePlan, verdict: Verdict) -> None:
    # Where the pawns would stand is undefined when two share a location or there are
    # not enough pawns: these are fatal.
    seen: set[str] = set()
    for loc in plan.placement:
        at = location(region=plan.destination, piece=loc)
        if loc in seen:
            verdict.violate("bonus_location_named_twice", at, fatal=True, location=loc)
        elif board.occupant.get(loc) == plan.player:
            verdict.violate("bonus_location_occupied", at, fatal=True, location=loc,
                            player=plan.player)
        seen.add(loc)
    # Without a majority nobody survives; that violation already says why the move fails.
    if plan.majority and len(plan.placement) > plan.survivors:
        verdict.violate("placement_exceeds_survivors", location(region=plan.destination),
                        fatal=True, placed=len(plan.placement), survivors=plan.survivors,
                        destination=plan.destination)


def move_facts(board: Board, plan: MovePlan) -> dict[str, Any]:
    """What a frontend shows beside the verdict, known before the move is applied."""
    lost = {plan.player: sorted(loc for src in plan.sources
                                for loc in src.from_bonus_locations)}
    if plan.enemy and plan.majority:
        # Without a majority the move cannot happen (move.2): no enemy pawn goes home.
        lost[plan.opponent] = board.held_locations(plan.opponent, plan.destination)
    change: dict[str, Counter[str]] = {plan.player: Counter(), plan.opponent: Counter()}
    for who, locations in lost.items():
        for loc in locations:
            for resource, n in board.locations[loc].icons.items():
                change[who][resource.value] -= n
    for loc in plan.placement:
        for resource, n in board.locations[loc].icons.items():
            change[plan.player][resource.value] += n
    return {
        "moved": plan.moved,
        "enemy_armies": plan.enemy,
        "losses": plan.enemy if plan.majority else 0,
        "survivors": plan.survivors,
        "soldier_tokens_spent": plan.moved,
        "double_move_used": any(r.distance == 2 for r in plan.reaches),
        "sources": [{"territory": r.territory, "distance": r.distance, "via": list(r.via)}
                    for r in plan.reaches],
        "bonuses_lost": {who: locs for who, locs in lost.items() if locs},
        "bonuses_gained": {plan.player: sorted(plan.placement)} if plan.placement else {},
        "production_icons_change": {who: {r: n for r, n in sorted(c.items()) if n}
                              for who, c in change.items() if any(c.values())},
    }


def apply_move(board: Board, ledger: Ledger, plan: MovePlan, verdict: Verdict) -> None:
    player, dest = plan.player, plan.destination
    ledger.players[player]["soldier_tokens"] -= plan.moved
    for src in plan.sources:
        for loc in src.from_bonus_locations:
            lose_bonus(board, ledger, player, loc, verdict)
        ledger.take(player, src.territory, src.count)
        if src.territory not in ledger.armies(player) and src.territory != board.castle[player]:
            verdict.event("territory_abandoned", location(region=src.territory),
                          player=plan.player, territory=src.territory)
    ledger.put(player, dest, plan.moved)
    verdict.event("armies_moved", location(region=dest), player=player, moved=plan.moved,
                  sources={src.territory: src.count for src in plan.sources}, destination=dest)
    if plan.enemy:
        # Equal losses: every enemy army goes home, and as many of the mover's.
        for loc in board.held_locations(plan.opponent, dest):
            lose_bonus(board, ledger, plan.opponent, loc, verdict)
        for who in (plan.opponent, player):
            castle = board.castle[who]
            ledger.take(who, dest, plan.enemy)
            ledger.put(who, castle, plan.enemy)
            verdict.event("armies_returned", location(region=dest), player=who,
                          count=plan.enemy, territory=dest, castle=castle)
    for loc in plan.placement:
        gain_bonus(board, ledger, player, loc, verdict)
    if plan.previous_controller != plan.player:
        verdict.event("territory_taken", location(region=dest), player=plan.player,
                      territory=dest, previous=plan.previous_controller)

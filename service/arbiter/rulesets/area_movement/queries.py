"""The derived questions a frontend asks of a state, served at
``POST /v1/rulesets/area_movement/<name>``:

- ``census-order``: the order players move in, with the ties the A.S.T. broke, and whose
  turn it is;
- ``reachable``: for each of a player's areas, where its unmoved tokens can step by land;
  for each of his ships (and each ship he could build now), the areas it reaches within 4
  water steps, where it may end and land tokens, and what using it costs;
- ``city-eligibility``: per area and player, whether a city may be built there and by how
  many tokens the player is short;
- ``conflicts``: the conflict situations after one or more plans (in the order they are
  made), each with its cause; where each conflict stands after them (``net``) beside the
  history of the conflicts each plan caused and those voided; the first plan refused,
  with its violations as validate gives them.

They build on the same modules as ``validate`` (``order``, ``reach``, ``cities``,
``conflicts``, ``plan``), so they cannot disagree with it. ``legal-actions`` is the
engine's (``arbiter.engine.legal``), over ``candidates.py``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.judging import settle
from arbiter.engine.outcome import Verdict, Violation
from arbiter.engine.wire import Frozen

from .board import Board, compile_board
from .catalogue import BUILD_TREASURY, CATALOGUE, MAINTENANCE_TREASURY, SHIPS_PER_TURN
from .cities import AreaMovementEligibility, eligibility
from .conflicts import causes
from .models import (
    MAX_AREAS,
    MAX_STEPS,
    AreaId,
    AreaMovementConflictCause,
    AreaMovementState,
    AreaMovementStep,
    PlayerId,
)
from .order import judge_turn, turn, waiting_for
from .plan import check_plan, walk
from .reach import AreaMovementLandReach, AreaMovementWaterReach, land_reach, water_reach

MAX_PLANS = 16


def _board_for(state: AreaMovementState, player: str | None) -> Board:
    board = compile_board(state)
    if player is not None and player not in board.players:
        problems = Problems()
        problems.add(pointer("player"), f"unknown player {player}")
        problems.raise_if_any()
    return board


# -- census-order ---------------------------------------------------------------------------

class AreaMovementCensusOrderRequest(Frozen):
    state: AreaMovementState


class AreaMovementPlace(Frozen):
    player: str
    position: int = Field(description="1 moves first.")
    census: int
    ast_rank: int
    movement_ended: bool


class AreaMovementTie(Frozen):
    census: int
    players: list[str] = Field(description="In the order the A.S.T. ranks put them.")
    broken_by: Literal["ast_rank"] = "ast_rank"


class AreaMovementCensusOrderResponse(Frozen):
    order: list[AreaMovementPlace] = Field(description="Highest census first.")
    ties: list[AreaMovementTie] = Field(description="Equal censuses, broken by A.S.T. rank "
                                        "(rank 1 first).")
    moving: str | None = Field(description="Whose turn it is: the first player in order who "
                               "has not declared the end; null once all have.")
    may_move: list[str] = Field(description="Every player who may move now, in census order: "
                                "the moving player alone, or with simultaneous movement every "
                                "player who has not declared his end (validate's "
                                "derived.turn says the same).")
    simultaneous: bool = Field(description="Every player may move now (the "
                               "simultaneous_movement option).")


def run_census_order(request: AreaMovementCensusOrderRequest) -> AreaMovementCensusOrderResponse:
    board = _board_for(request.state, None)
    places = []
    by_census: dict[int, list[str]] = {}
    for k, pid in enumerate(board.order, start=1):
        p = board.players[pid]
        places.append(AreaMovementPlace(player=pid, position=k, census=p.census,
                                        ast_rank=p.ast_rank, movement_ended=p.movement_ended))
        by_census.setdefault(p.census, []).append(pid)
    ties = [AreaMovementTie(census=c, players=ps) for c, ps in by_census.items() if len(ps) > 1]
    now = turn(board)
    return AreaMovementCensusOrderResponse(
        order=places, ties=ties, moving=now["moving"], may_move=now["may_move"],
        simultaneous=now["simultaneous"])


# -- reachable ------------------------------------------------------------------------------

class AreaMovementReachableRequest(Frozen):
    state: AreaMovementState
    player: PlayerId


class AreaMovementShipReach(Frozen):
    ship: str
    area: str
    status: Literal["ready", "maintenance_due", "sailed"] = Field(
        description="ready: built or maintained this turn; maintenance_due: built in an "
        "earlier turn and not yet maintained; sailed: its voyage is made.")
    maintenance: list[Literal["treasury", "token"]] = Field(
        description="The ways the player can pay the maintenance due now (1 treasury token, "
        "or 1 of his tokens destroyed anywhere).")
    reach: list[AreaMovementWaterReach] = Field(description="Empty once the ship has sailed.")


class AreaMovementBuildReach(Frozen):
    area: str = Field(description="A coastal area holding the player's tokens.")
    ways: list[Literal["treasury", "treasury_and_token", "tokens"]] = Field(
        description="The ways the player can pay for a ship here now.")
    reach: list[AreaMovementWaterReach]


class AreaMovementReachableResponse(Frozen):
    player: str
    may_move_now: bool = Field(description="It is the player's turn (or movement is "
                               "simultaneous) and he has not declared the end.")
    waiting_for: list[str] = Field(description="The players before him in census order who "
                                   "have not declared the end.")
    land: list[AreaMovementLandReach]
    ships: list[AreaMovementShipReach]
    builds: list[AreaMovementBuildReach] = Field(
        description="Empty once the player has built 4 ships this turn.")


def _ship_reach(board: Board, player: str) -> list[AreaMovementShipReach]:
    p = board.players[player]
    ways: list[Literal["treasury", "token"]] = []
    if p.treasury >= MAINTENANCE_TREASURY:
        ways.append("treasury")
    if p.tokens:
        ways.append("token")
    out = []
    for ship in board.state.ships:
        if ship.owner != player:
            continue
        due = not (ship.built_this_turn or ship.maintained_this_turn)
        status: Literal["ready", "maintenance_due", "sailed"] = (
            "sailed" if ship.sailed_this_turn else "maintenance_due" if due else "ready")
        out.append(AreaMovementShipReach(
            ship=ship.id, area=ship.area, status=status, maintenance=ways if due else [],
            reach=[] if ship.sailed_this_turn else water_reach(board, ship.area)))
    return out


def _build_reach(board: Board, player: str) -> list[AreaMovementBuildReach]:
    p = board.players[player]
    if sum(1 for s in board.state.ships if s.owner == player and s.built_this_turn) \
            >= SHIPS_PER_TURN:
        return []
    out = []
    for area in p.tokens:
        if not board.areas[area].coastal:
            continue
        # The token ways need 1 token here (there is), and the tokens way 1 more anywhere.
        ways = [w for w in ("treasury", "treasury_and_token", "tokens")
                if p.treasury >= BUILD_TREASURY[w]
                and (w != "tokens" or sum(p.tokens.values()) >= 2)]
        out.append(AreaMovementBuildReach(area=area, ways=ways, reach=water_reach(board, area)))
    return out


def run_reachable(request: AreaMovementReachableRequest) -> AreaMovementReachableResponse:
    board = _board_for(request.state, request.player)
    player = request.player
    return AreaMovementReachableResponse(
        player=player, may_move_now=judge_turn(board, player, Verdict(CATALOGUE)),
        waiting_for=waiting_for(board, player), land=land_reach(board, player),
        ships=_ship_reach(board, player), builds=_build_reach(board, player))


# -- city-eligibility -----------------------------------------------------------------------

class AreaMovementCityEligibilityRequest(Frozen):
    state: AreaMovementState
    player: PlayerId | None = Field(default=None, description="One player; every player in "
                                    "census order when omitted.")
    areas: list[AreaId] | None = Field(default=None, max_length=MAX_AREAS,
                                       description="The areas to ask about; every land area "
                                       "in map order when omitted.")


class AreaMovementCityEligibilityResponse(Frozen):
    eligibility: list[AreaMovementEligibility] = Field(description="Each area, and within it "
                                                       "each player.")


def run_city_eligibility(request: AreaMovementCityEligibilityRequest
                         ) -> AreaMovementCityEligibilityResponse:
    board = _board_for(request.state, request.player)
    players = [request.player] if request.player is not None else list(board.order)
    if request.areas is None:
        areas = list(board.areas)
    else:
        areas = request.areas
        problems = Problems()
        for i, area in enumerate(areas):
            if area not in board.areas:
                problems.add(pointer("areas", i), f"unknown land area {area}")
        problems.raise_if_any()
    return AreaMovementCityEligibilityResponse(eligibility=eligibility(board, players, areas))


# -- conflicts ------------------------------------------------------------------------------

class AreaMovementPlayerPlan(Frozen):
    """A movement plan as the ``conflicts`` query takes it: the player and his steps (the
    action's shape without its ``type`` tag)."""

    player: PlayerId
    steps: list[AreaMovementStep] = Field(min_length=1, max_length=MAX_STEPS)


class AreaMovementConflictsRequest(Frozen):
    state: AreaMovementState
    plans: list[AreaMovementPlayerPlan] = Field(
        default_factory=list, max_length=MAX_PLANS,
        description="Movement plans in the order they are made (census order, or as players "
        "moved simultaneously), each judged against the state the previous one left; none: "
        "the situations in the state as it is.")


class AreaMovementConflict(Frozen):
    area: str
    causes: list[AreaMovementConflictCause] = Field(
        description="population_limit (with the limit, the tokens and the excess), "
        "enemy_city (with its owner), pirate_city.")
    tokens: dict[str, int] = Field(description="Each player's tokens in the area.")
    barbarians: int


class AreaMovementConflictChange(Frozen):
    plan: int = Field(description="The 0-based index of the plan in ``plans``.")
    step: int = Field(description="The 0-based index of the step in that plan's steps.")
    player: str
    area: str
    causes: list[AreaMovementConflictCause] = Field(
        description="Caused: why the area is in conflict; voided: why it was.")
    how: str | None = Field(default=None, description="Voided: moved_out or destroyed.")


class AreaMovementNetConflict(Frozen):
    """Where one area's conflict stands once the plans are made: the net of ``caused`` and
    ``voided``, so a client need not replay the history."""

    area: str
    stands: Literal["new", "standing", "voided", "caused_and_voided"] = Field(
        description="new: in conflict after the plans and not before; standing: before and "
        "after (whatever happened between); voided: before, not after; caused_and_voided: "
        "a plan caused it and a later step voided it, so neither before nor after.")
    before: list[AreaMovementConflictCause] = Field(
        description="Why the area was in conflict in the state as sent; empty: it was not.")
    after: list[AreaMovementConflictCause] = Field(
        description="Why it is in conflict after the plans (as in ``conflicts``); empty: "
        "it is not.")


class AreaMovementRefusal(Frozen):
    plan: int = Field(description="The 0-based index of the plan in ``plans``.")
    step: int | None = Field(description="The first illegal step, by its 0-based index in the "
                             "plan's steps; null when every step is legal (the plan is then "
                             "refused as a whole only).")
    whole_plan_violations: int = Field(
        description="How many of ``violations``, at their head, refuse the plan as a whole "
        "(out_of_turn, movement_already_ended: ``at.step`` null), as validate's "
        "derived.plan counts them.")
    codes: list[str] = Field(description="The codes of ``violations``, in their order.")
    violations: list[Violation] = Field(
        description="Each violation with its rule, message and params, as validate lists "
        "them: the refusals of the whole plan first, then the first illegal step's.")


class AreaMovementConflictsResponse(Frozen):
    conflicts: list[AreaMovementConflict] = Field(description="The conflict situations after "
                                                  "the plans, in map order.")
    net: list[AreaMovementNetConflict] = Field(
        description="Where each conflict stands after the plans, in map order: every area in "
        "conflict before or after them, or caused and voided on the way (the net of "
        "``caused`` and ``voided``, which are the history).")
    caused: list[AreaMovementConflictChange] = Field(
        description="History: every step that caused a conflict, in order, even if a later "
        "step voided it (``net`` says where each stands).")
    voided: list[AreaMovementConflictChange] = Field(
        description="History: conflicts void again after a later move, including situations "
        "that existed before the plans: as soon as the situation no longer holds, whoever's "
        "move it was (a reading: the other player moving out, the player who caused it "
        "moving back, or a payment destroying tokens there).")
    refused: AreaMovementRefusal | None = Field(
        description="The first plan that is not legal: it and the plans after it are not "
        "applied.")


def _conflicts_on(board: Board) -> list[AreaMovementConflict]:
    out = []
    for area in board.areas:
        here = board.occupants.get(area, {})
        found = causes(board, area, here)
        if found:
            out.append(AreaMovementConflict(
                area=area, causes=[c.as_json() for c in found], tokens=dict(here),
                barbarians=board.state.barbarians.get(area, 0)))
    return out


def _change(k: int, params: dict[str, Any], step: int | None) -> AreaMovementConflictChange:
    return AreaMovementConflictChange(
        plan=k, step=step if step is not None else 0, player=params["player"],
        area=params["area"], causes=params.get("causes", params.get("was", [])),
        how=params.get("how"))


def _net(board: Board, before: list[AreaMovementConflict], after: list[AreaMovementConflict],
         caused: list[AreaMovementConflictChange]) -> list[AreaMovementNetConflict]:
    was = {c.area: c.causes for c in before}
    now = {c.area: c.causes for c in after}
    passed = {c.area for c in caused}
    out = []
    for area in board.areas:
        if area not in was and area not in now and area not in passed:
            continue
        stands: Literal["new", "standing", "voided", "caused_and_voided"] = (
            ("standing" if area in now else "voided") if area in was
            else "new" if area in now else "caused_and_voided")
        out.append(AreaMovementNetConflict(area=area, stands=stands, before=was.get(area, []),
                                           after=now.get(area, [])))
    return out


def run_conflicts(request: AreaMovementConflictsRequest) -> AreaMovementConflictsResponse:
    state = request.state
    board = first = compile_board(state)
    caused: list[AreaMovementConflictChange] = []
    voided: list[AreaMovementConflictChange] = []
    refused = None
    for k, plan in enumerate(request.plans):
        check_plan(board, plan.player, plan.steps, root=("plans", k))
        turn = Verdict(CATALOGUE)
        judge_turn(board, plan.player, turn)
        walked = walk(board, plan.player, plan.steps)
        if turn.violations or walked.reported:
            # Laid out as validate lays them out: the whole plan's refusals first.
            violations = turn.violations + walked.reported
            refused = AreaMovementRefusal(
                plan=k, step=walked.first_illegal, whole_plan_violations=len(turn.violations),
                codes=[v.code for v in violations], violations=violations)
            break
        for event in walked.events:
            if event.kind == "conflict_caused":
                caused.append(_change(k, event.params, event.at.step))
            elif event.kind == "conflict_voided":
                voided.append(_change(k, event.params, event.at.step))
        walked.ledger.spelled()
        settled = settle(walked.ledger.draft, AreaMovementState).model
        board = compile_board(settled)  # type: ignore[arg-type]  # that model validated it
    after = _conflicts_on(board)
    return AreaMovementConflictsResponse(
        conflicts=after, net=_net(board, _conflicts_on(first), after, caused), caused=caused,
        voided=voided, refused=refused)

"""The derived questions a frontend asks of a state, served at
``POST /v1/rulesets/territory_conquest/<name>``:

- ``conquest-cost``: for each territory, the fewest pawns and soldier tokens a player needs
  to take it and from which of their territories, with and without double move;
- ``standing``: each player's territories, bonuses, production icons, trap and spy tokens
  and end-of-game victory points; whose action is next and whether the Conquest phase has
  ended;
- and what the engine's ``legal-actions`` (``arbiter.engine.legal``) shows beside the
  actions it lists: whether it is the player's action, and whether the phase has ended
  (``listing_facts``).

``conquest-cost`` builds on the same reach, majority and token rules ``judge`` applies
(``move.py``). Request and response models are plain data.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from arbiter.engine.errors import Problems
from arbiter.engine.index import check_ref
from arbiter.engine.legal import Bounded
from arbiter.engine.wire import Frozen, Id

from .board import Board, compile_board
from .bonuses import controlled_territories, held_locations, production_icons, victory_points
from .candidates import acting
from .models import (
    MAX_TERRITORIES,
    BonusEffect,
    TerritoryConquestAnyAction,
    TerritoryConquestSource,
    TerritoryConquestState,
)
from .move import Reach, free_locations, holds_double_move, reach
from .order import phase_ended, stopped_players, to_act


def _board_for(state: TerritoryConquestState, player: str) -> Board:
    """The compiled board of a query about ``player``, who must be one of its players."""
    board = compile_board(state)
    problems = Problems()
    check_ref(player, board.players, ("player",), "player", problems)
    problems.raise_if_any()
    return board


# --- conquest-cost -----------------------------------------------------------------------

class TerritoryConquestConquestCostRequest(Frozen):
    state: TerritoryConquestState
    player: Id
    targets: list[Id] | None = Field(default=None, max_length=MAX_TERRITORIES,
                                     description="Territories to cost; every territory when "
                                     "omitted.")


class TargetStatus(StrEnum):
    yours = "yours"
    neutral = "neutral"
    enemy = "enemy"
    opponent_castle = "opponent_castle"


class TerritoryConquestSourceOption(Frozen):
    territory: str
    pawns: int
    plain_pawns: int = Field(description="Pawns standing off bonus locations: they leave "
                             "without losing a bonus.")
    bonus_locations: list[str] = Field(description="The player's bonus locations here: a pawn "
                                       "leaving one loses its bonus.")
    distance: int = Field(description="1: adjacent to the target; 2: by double move.")
    via: list[str] = Field(description="Distance 2: the territories the pawns may pass "
                           "through.")


class TerritoryConquestRoute(Frozen):
    sources: list[TerritoryConquestSourceOption]
    pawns_available: int
    enough_pawns: bool
    affordable: bool = Field(description="The player has the soldier tokens needed.")
    feasible: bool = Field(description="The target can be taken this way now (turn aside).")
    plan: list[TerritoryConquestSource] = Field(
        description="One way to move the fewest pawns: pawns off bonus locations first, then "
        "pawns on bonus locations (whose bonuses are lost); empty when not enough pawns.")


class TerritoryConquestTargetCost(Frozen):
    territory: str
    status: TargetStatus
    controller: str | None
    enemy_armies: int
    pawns_needed: int = Field(description="One more than the enemy armies there; 0 for your "
                              "own territories and the opponent's castle (never taken).")
    soldier_tokens_needed: int = Field(description="1 per pawn moved.")
    free_bonus_locations: list[str] = Field(description="Bonus locations a survivor could "
                                            "take there.")
    without_double_move: TerritoryConquestRoute = Field(
        description="Sources adjacent to the target only: what applies without a double move.")
    with_double_move: TerritoryConquestRoute = Field(
        description="Adjacent sources and those two away through no enemy territory: what "
        "applies when holding a double move (shown either way).")


class TerritoryConquestConquestCostResponse(Frozen):
    player: str
    soldier_tokens: int
    holds_double_move: bool = Field(description="Which route applies to the player now.")
    targets: list[TerritoryConquestTargetCost]


def run_conquest_cost(request: TerritoryConquestConquestCostRequest
                  ) -> TerritoryConquestConquestCostResponse:
    board = _board_for(request.state, request.player)
    targets = request.targets if request.targets is not None else sorted(board.territories)
    problems = Problems()
    for i, t in enumerate(targets):
        check_ref(t, board.territories, ("targets", i), "territory", problems)
    problems.raise_if_any()
    player = request.player
    return TerritoryConquestConquestCostResponse(
        player=player, soldier_tokens=board.players[player].soldier_tokens,
        holds_double_move=holds_double_move(board, player),
        targets=[target_cost(board, player, t) for t in targets])


def target_cost(board: Board, player: str, target: str) -> TerritoryConquestTargetCost:
    opponent = board.opponent(player)
    controller = board.controller(target)
    enemy = board.pawns(opponent, target)
    if target == board.castle[opponent]:
        status = TargetStatus.opponent_castle
    elif controller == player:
        status = TargetStatus.yours
    elif controller is None:
        status = TargetStatus.neutral
    else:
        status = TargetStatus.enemy
    needed = enemy + 1 if status in (TargetStatus.neutral, TargetStatus.enemy) else 0
    routes = [_route(board, player, target, status, needed, double_move=d)
              for d in (False, True)]
    return TerritoryConquestTargetCost(
        territory=target, status=status, controller=controller, enemy_armies=enemy,
        pawns_needed=needed, soldier_tokens_needed=needed,
        free_bonus_locations=([] if status is TargetStatus.opponent_castle
                              else free_locations(board, player, target)),
        without_double_move=routes[0], with_double_move=routes[1])


def _route(board: Board, player: str, target: str, status: TargetStatus, needed: int, *,
           double_move: bool) -> TerritoryConquestRoute:
    if status is TargetStatus.opponent_castle:
        return TerritoryConquestRoute(sources=[], pawns_available=0, enough_pawns=False,
                                      affordable=False, feasible=False, plan=[])
    reaches = list(reach(board, player, target, double_move=double_move).values())
    available = sum(board.pawns(player, r.territory) for r in reaches)
    enough = available >= needed
    affordable = board.players[player].soldier_tokens >= needed
    return TerritoryConquestRoute(
        sources=[TerritoryConquestSourceOption(
            territory=r.territory, pawns=board.pawns(player, r.territory),
            plain_pawns=board.plain_pawns(player, r.territory),
            bonus_locations=board.held_locations(player, r.territory),
            distance=r.distance, via=list(r.via)) for r in reaches],
        pawns_available=available, enough_pawns=enough, affordable=affordable,
        feasible=enough and affordable,
        plan=fewest_pawns(board, player, reaches, needed) if enough else [])


def fewest_pawns(board: Board, player: str, reaches: list[Reach],
                  needed: int) -> list[TerritoryConquestSource]:
    nearest_first = sorted(reaches, key=lambda r: (r.distance, r.territory))
    count: dict[str, int] = {}
    leaving: dict[str, list[str]] = {}
    left = needed
    for r in nearest_first:
        take = min(left, board.plain_pawns(player, r.territory))
        if take:
            count[r.territory] = take
            left -= take
    for r in nearest_first:
        for loc in board.held_locations(player, r.territory):
            if left == 0:
                break
            count[r.territory] = count.get(r.territory, 0) + 1
            leaving.setdefault(r.territory, []).append(loc)
            left -= 1
    return [TerritoryConquestSource(territory=t, count=n, from_bonus_locations=leaving.get(t, []))
            for t, n in sorted(count.items())]


# --- standing ----------------------------------------------------------------------------

class TerritoryConquestStandingRequest(Frozen):
    state: TerritoryConquestState


class TerritoryConquestHeldBonus(Frozen):
    location: str
    territory: str
    effect: BonusEffect
    icons: dict[str, int]


class TerritoryConquestPlayerStanding(Frozen):
    player: str
    castle: str
    reserve: int
    pawns_on_board: int
    soldier_tokens: int
    trap_tokens: int
    spy_tokens: int
    territories: list[str] = Field(description="Territories controlled, the castle included.")
    bonuses: list[TerritoryConquestHeldBonus]
    production: dict[str, int] = Field(description="Production icons added in the Production "
                                       "phase: production bonus locations plus the castle "
                                       "territory's icons.")
    krystallium: int = Field(description="Krystallium produced by krystallium production "
                             "bonuses.")
    card_destruction: int = Field(description="Card destruction bonuses held.")
    double_move: bool
    victory_points: int = Field(description="End-of-game victory points of the territories "
                                "controlled now.")


class TerritoryConquestStandingResponse(Frozen):
    players: list[TerritoryConquestPlayerStanding]
    to_act: str | None = Field(description="Whose action is next (at the phase's start, the "
                               "player with more soldier tokens, on a tie the round's first "
                               "player); null once the phase has ended.")
    phase_ended: bool
    stopped: list[str]


def run_standing(request: TerritoryConquestStandingRequest) -> TerritoryConquestStandingResponse:
    board = compile_board(request.state)
    state = request.state
    return TerritoryConquestStandingResponse(
        players=[_player_standing(board, p.id) for p in state.players],
        to_act=to_act(state),
        phase_ended=phase_ended(state), stopped=stopped_players(state))


def _player_standing(board: Board, player: str) -> TerritoryConquestPlayerStanding:
    p = board.players[player]
    held = held_locations(board, player)
    effects = [loc.effect for loc in held]
    return TerritoryConquestPlayerStanding(
        player=player, castle=p.castle, reserve=board.reserve(player),
        pawns_on_board=sum(board.armies[player].values()), soldier_tokens=p.soldier_tokens,
        trap_tokens=board.tokens(player, BonusEffect.trap_token),
        spy_tokens=board.tokens(player, BonusEffect.spy_token),
        territories=controlled_territories(board, player),
        bonuses=[TerritoryConquestHeldBonus(
            location=loc.id, territory=loc.territory, effect=loc.effect,
            icons={r.value: n for r, n in sorted(loc.icons.items(), key=lambda i: i[0].value)})
            for loc in held],
        production=production_icons(board, player),
        krystallium=effects.count(BonusEffect.krystallium_production),
        card_destruction=effects.count(BonusEffect.card_destruction),
        double_move=BonusEffect.double_move in effects,
        victory_points=victory_points(board, player))


# --- beside legal-actions ---------------------------------------------------------------

class TerritoryConquestListingFacts(Frozen):
    """What legal-actions shows beside the actions it lists."""

    to_act: bool = Field(description="It is this player's action (nothing is legal "
                         "otherwise).")
    phase_ended: bool


def listing_facts(board: Board, player: str, found: Bounded[TerritoryConquestAnyAction]
                  ) -> TerritoryConquestListingFacts:
    return TerritoryConquestListingFacts(to_act=acting(board, player),
                                         phase_ended=phase_ended(board.state))

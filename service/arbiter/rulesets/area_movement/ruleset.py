"""The ``area_movement`` ruleset the registry serves, assembled from its parts: models,
catalogue, ``compile_board``, ``judge``, the ``candidates`` generator and the derived
queries, with its picture (``scene``) for ``render``. The engine runs the pipeline
(``arbiter.engine.ruleset.Ruleset``)."""

from __future__ import annotations

from arbiter.engine.legal import Listing
from arbiter.engine.ruleset import Query, Ruleset
from arbiter.pictures.render import pictured

from .board import Board, compile_board
from .candidates import candidates
from .catalogue import CATALOGUE
from .derived import AreaMovementDerived
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE, EXAMPLES
from .judge import judge
from .models import (
    AreaMovementAction,
    AreaMovementAnyAction,
    AreaMovementOptions,
    AreaMovementState,
)
from .queries import (
    AreaMovementCensusOrderRequest,
    AreaMovementCensusOrderResponse,
    AreaMovementCityEligibilityRequest,
    AreaMovementCityEligibilityResponse,
    AreaMovementConflictsRequest,
    AreaMovementConflictsResponse,
    AreaMovementReachableRequest,
    AreaMovementReachableResponse,
    run_census_order,
    run_city_eligibility,
    run_conflicts,
    run_reachable,
)
from .scene import PICTURE
from .why_not import AreaMovementWhyNotRequest, AreaMovementWhyNotResponse, run_why_not

WHY_NOT = Query(
    name="why-not",
    summary="Why a player cannot get tokens into an area: the one-step plan that would (a "
            "step by land, else a voyage of one of his ships) judged as validate judges it, "
            "and what would change the answer (how far his nearest tokens are, which of his "
            "ships reach it).",
    request=AreaMovementWhyNotRequest, response=AreaMovementWhyNotResponse, run=run_why_not,
    examples=({"state": EXAMPLE_STATE, "player": "red", "area": "crete"},))

QUERIES = {q.name: q for q in (
    Query(name="census-order",
          summary="The order players move in (highest census first, A.S.T. rank breaking "
                  "ties), the ties broken, and whose turn it is.",
          request=AreaMovementCensusOrderRequest, response=AreaMovementCensusOrderResponse,
          run=run_census_order, examples=({"state": EXAMPLE_STATE},)),
    Query(name="reachable",
          summary="Where the player's unmoved tokens can step by land, and the areas each of "
                  "his ships (and each ship he could build) reaches within 4 water steps, "
                  "with where it may land tokens and the maintenance due.",
          request=AreaMovementReachableRequest, response=AreaMovementReachableResponse,
          run=run_reachable, examples=({"state": EXAMPLE_STATE, "player": "red"},)),
    Query(name="city-eligibility",
          summary="Per area and player: whether a city may be built there after the "
                  "movement and by how many tokens the player is short (6 on a city site, "
                  "12 in the wilderness, never where the population limit is 0).",
          request=AreaMovementCityEligibilityRequest,
          response=AreaMovementCityEligibilityResponse,
          run=run_city_eligibility, examples=({"state": EXAMPLE_STATE},)),
    Query(name="conflicts",
          summary="The conflict situations after the plans given (in the order they are "
                  "made), each with its cause; where each conflict stands after them (net) "
                  "beside the history (caused, voided); the first plan refused, with its "
                  "violations and their messages.",
          request=AreaMovementConflictsRequest, response=AreaMovementConflictsResponse,
          run=run_conflicts, examples=({"state": EXAMPLE_STATE, "plans": [
              {"player": EXAMPLE_ACTION["player"], "steps": EXAMPLE_ACTION["steps"]}]},)),
)}

LISTING: Listing[Board, AreaMovementAnyAction] = Listing(
    summary="What the player can do next, each action as validate takes it: ending the "
            "movement, and each single step as a plan of one step; bounded by limit.",
    order="ending the movement, then each movement plan of one step the player can take "
          "next: end_movement, maintenances, builds, destroyed ships, land steps, voyages.",
    examples=({"state": EXAMPLE_STATE, "player": "red", "limit": 100},))

RULESET: Ruleset[AreaMovementState, AreaMovementAnyAction, Board] = pictured(Ruleset(
    catalogue=CATALOGUE,
    state_model=AreaMovementState,
    action_model=AreaMovementAction,
    options_model=AreaMovementOptions,
    compile=compile_board,
    judge=judge,
    candidates=candidates,
    listing=LISTING,
    queries=QUERIES,
    why_not=WHY_NOT,
    examples=EXAMPLES,
    derived_model=AreaMovementDerived,
    board_fields=("areas", "seas"),
), PICTURE)

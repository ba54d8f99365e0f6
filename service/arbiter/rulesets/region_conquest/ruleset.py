"""The ``region_conquest`` ruleset the registry serves, assembled from its parts: models,
catalogue, ``compile_board``, ``judge``, the ``candidates`` generator and the derived
queries, with its picture (``scene``) for ``render``. The engine runs the pipeline
(``arbiter.engine.ruleset.Ruleset``)."""

from __future__ import annotations

from arbiter.engine.legal import Beside, Listing
from arbiter.engine.ruleset import Query, Ruleset
from arbiter.pictures.render import pictured

from .board import Board, compile_board
from .candidates import candidates
from .catalogue import CATALOGUE
from .conquest import reported_draws
from .derived import RegionConquestDerived
from .examples import EXAMPLE_STATE, EXAMPLES
from .information import INFORMATION
from .judge import judge
from .models import (
    RegionConquestAction,
    RegionConquestAnyAction,
    RegionConquestOptions,
    RegionConquestState,
)
from .queries import (
    RegionConquestCostRequest,
    RegionConquestCostResponse,
    RegionConquestListingFacts,
    listing_facts,
    run_conquest_cost,
)
from .scene import PICTURE
from .why_not import RegionConquestWhyNotRequest, RegionConquestWhyNotResponse, run_why_not

WHY_NOT = Query(
    name="why-not",
    summary="Why a player cannot conquer a region: the conquest judged as validate judges "
            "it, its cost, and what would change the answer (the race tokens short, the "
            "reinforcement die results that would still make it).",
    request=RegionConquestWhyNotRequest, response=RegionConquestWhyNotResponse, run=run_why_not,
    examples=({"state": EXAMPLE_STATE, "player": "orcs", "region": "farmland"},))

QUERIES = {q.name: q for q in (
    Query(name="conquest-cost",
          summary="The cost of conquering each target region (every region when none is "
                  "named), broken down, with whether the player can pay it now or only with "
                  "the reinforcement die.",
          request=RegionConquestCostRequest, response=RegionConquestCostResponse,
          run=run_conquest_cost,
          examples=({"state": EXAMPLE_STATE, "player": "orcs"},)),
)}

LISTING: Listing[Board, RegionConquestAnyAction] = Listing(
    summary="What the player may do now, each action as validate takes it: redeployment, "
            "the end of the turn, each region they may conquer (border regions on a first "
            "conquest), final conquests; each conquest's cost beside.",
    order="redeploy and end_turn first (when legal), then each conquest, then each final "
          "conquest, regions in map order.",
    examples=({"state": EXAMPLE_STATE, "player": "orcs", "limit": 100},),
    beside=Beside(RegionConquestListingFacts, listing_facts))

RULESET: Ruleset[RegionConquestState, RegionConquestAnyAction, Board] = pictured(Ruleset(
    catalogue=CATALOGUE,
    state_model=RegionConquestState,
    action_model=RegionConquestAction,
    options_model=RegionConquestOptions,
    compile=compile_board,
    judge=judge,
    candidates=candidates,
    listing=LISTING,
    queries=QUERIES,
    why_not=WHY_NOT,
    examples=EXAMPLES,
    derived_model=RegionConquestDerived,
    information=INFORMATION,
    board_fields=("regions",),
    reported_draws=reported_draws,
), PICTURE)

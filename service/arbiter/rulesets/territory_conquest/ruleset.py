"""The ``territory_conquest`` ruleset the registry serves, assembled from its parts: models,
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
from .derived import TerritoryConquestDerived
from .examples import EXAMPLE_STATE, EXAMPLES
from .judge import judge
from .models import (
    TerritoryConquestAction,
    TerritoryConquestAnyAction,
    TerritoryConquestOptions,
    TerritoryConquestState,
)
from .queries import (
    TerritoryConquestConquestCostRequest,
    TerritoryConquestConquestCostResponse,
    TerritoryConquestListingFacts,
    TerritoryConquestStandingRequest,
    TerritoryConquestStandingResponse,
    listing_facts,
    run_conquest_cost,
    run_standing,
)
from .scene import PICTURE
from .why_not import TerritoryConquestWhyNotRequest, TerritoryConquestWhyNotResponse, run_why_not

WHY_NOT = Query(
    name="why-not",
    summary="Why a player cannot take a territory: the move with the fewest pawns judged as "
            "validate judges it, and what would change the answer (pawns or soldier tokens "
            "short, a double move).",
    request=TerritoryConquestWhyNotRequest, response=TerritoryConquestWhyNotResponse,
    run=run_why_not, examples=({"state": EXAMPLE_STATE, "player": "red", "territory": "north"},))

QUERIES = {q.name: q for q in (
    Query(name="conquest-cost",
          summary="For each territory, the fewest pawns and soldier tokens a player needs to "
                  "take it and from which of their territories, with and without double move.",
          request=TerritoryConquestConquestCostRequest,
          response=TerritoryConquestConquestCostResponse,
          run=run_conquest_cost,
          examples=({"state": EXAMPLE_STATE, "player": "red"},)),
    Query(name="standing",
          summary="Each player's territories, bonuses, production icons, trap and spy tokens "
                  "and end-of-game victory points; whose action is next; whether the phase "
                  "has ended.",
          request=TerritoryConquestStandingRequest,
          response=TerritoryConquestStandingResponse,
          run=run_standing,
          examples=({"state": EXAMPLE_STATE},)),
)}

LISTING: Listing[Board, TerritoryConquestAnyAction] = Listing(
    summary="A player's legal recruits, moves and stop, each as validate takes it, bounded "
            "by limit.",
    order="recruits of 1 pawn up to the reserve, then moves by destination (territory "
          "order), by pawns moved and by pawns from each source, then the stop.",
    examples=({"state": EXAMPLE_STATE, "player": "red", "limit": 20},),
    beside=Beside(TerritoryConquestListingFacts, listing_facts))

RULESET: Ruleset[TerritoryConquestState, TerritoryConquestAnyAction, Board] = pictured(Ruleset(
    catalogue=CATALOGUE,
    state_model=TerritoryConquestState,
    action_model=TerritoryConquestAction,
    options_model=TerritoryConquestOptions,
    compile=compile_board,
    judge=judge,
    candidates=candidates,
    listing=LISTING,
    queries=QUERIES,
    why_not=WHY_NOT,
    examples=EXAMPLES,
    derived_model=TerritoryConquestDerived,
    board_fields=("territories", "adjacent"),
), PICTURE)

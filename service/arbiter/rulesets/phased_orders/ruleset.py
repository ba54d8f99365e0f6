"""The ``phased_orders`` ruleset the registry serves, assembled from its parts: models,
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
from .derived import PhasedOrdersDerived
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE, EXAMPLES
from .information import INFORMATION
from .judge import judge
from .models import (
    PhasedOrdersAction,
    PhasedOrdersAnyAction,
    PhasedOrdersOptions,
    PhasedOrdersState,
)
from .queries import PhasedOrdersResolveRequest, PhasedOrdersResolveResponse, run_resolve
from .scene import PICTURE
from .why_not import PhasedOrdersWhyNotRequest, PhasedOrdersWhyNotResponse, run_why_not

WHY_NOT = Query(
    name="why-not",
    summary="Why a unit cannot be ordered to a hex: the player's orders for it (a move along "
            "the fewest hexes, or a hold on its own hex) judged as validate judges a submit, "
            "and what would change the answer (the path's length against the unit's move).",
    request=PhasedOrdersWhyNotRequest, response=PhasedOrdersWhyNotResponse, run=run_why_not,
    examples=({"state": EXAMPLE_STATE, "unit": "red-caravan", "hex": {"q": 4, "r": 2}},))

QUERIES = {q.name: q for q in (
    Query(name="resolve",
          summary="Resolve one turn: the state, every player's orders and the decisions in; "
                  "the turn's status (resolved, pending or illegal), the new state, the "
                  "trace (events, counted by phase) and a result for every order out, or the "
                  "pending decisions with their options.",
          request=PhasedOrdersResolveRequest, response=PhasedOrdersResolveResponse,
          run=run_resolve,
          examples=({"state": EXAMPLE_STATE, "orders": EXAMPLE_ACTION["orders"]},)),
)}

LISTING: Listing[Board, PhasedOrdersAnyAction] = Listing(
    summary="The orders a player may give now, one submit action each as validate takes "
            "it, then resolving the turn; bounded by limit.",
    order="one submit action per order the player may give, unit by unit as the state "
          "lists them, then stronghold by stronghold; then the turn resolved as it stands, "
          "with no orders (the game master's resolve).",
    examples=({"state": EXAMPLE_STATE, "player": "red", "limit": 100},))

RULESET: Ruleset[PhasedOrdersState, PhasedOrdersAnyAction, Board] = pictured(Ruleset(
    catalogue=CATALOGUE,
    state_model=PhasedOrdersState,
    action_model=PhasedOrdersAction,
    options_model=PhasedOrdersOptions,
    compile=compile_board,
    judge=judge,
    candidates=candidates,
    listing=LISTING,
    queries=QUERIES,
    why_not=WHY_NOT,
    examples=EXAMPLES,
    derived_model=PhasedOrdersDerived,
    information=INFORMATION,
    board_fields=("hexes",),
), PICTURE)

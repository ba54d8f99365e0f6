"""The ``hex_maneuver`` ruleset the registry serves, assembled from its parts: models,
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
from .derived import HexManeuverDerived
from .examples import EXAMPLE_STATE, EXAMPLES
from .explore import reported_draws
from .information import INFORMATION
from .judge import judge
from .models import (
    HexManeuverAction,
    HexManeuverAnyAction,
    HexManeuverOptions,
    HexManeuverState,
)
from .queries import (
    HexManeuverReachableRequest,
    HexManeuverReachableResponse,
    run_reachable,
    stream_reachable,
)
from .scene import PICTURE
from .why_not import HexManeuverWhyNotRequest, HexManeuverWhyNotResponse, run_why_not

QUERIES = {q.name: q for q in (
    Query(name="reachable",
          summary="Every hex an army (or some of its units) can end on, with cost, one "
                  "cheapest path, ferry and march flags, and the enemy objects in range there.",
          request=HexManeuverReachableRequest, response=HexManeuverReachableResponse,
          run=run_reachable, streamed=stream_reachable,
          examples=({"state": EXAMPLE_STATE, "army": "red-1"},)),
)}

WHY_NOT = Query(
    name="why-not",
    summary="Why an army (or some of its units) cannot end on a hex: the maneuver along one "
            "cheapest path judged as validate judges it, and what would change the answer "
            "(the path's cost against the column's movement points, with a march; the enemy "
            "armies blocking every path). A reachable hex is possible, with its path and cost.",
    request=HexManeuverWhyNotRequest, response=HexManeuverWhyNotResponse, run=run_why_not,
    examples=({"state": EXAMPLE_STATE, "army": "red-1", "hex": {"q": 0, "r": -2},
               "march": False},))

LISTING: Listing[Board, HexManeuverAnyAction] = Listing(
    summary="A player's legal maneuvers and explorations, each as validate takes it: whole "
            "armies, splits, unpacking, drops and pick-ups; bounded by limit.",
    order="army by army, whole-army maneuvers and explorations first, then splits, "
          "unpacking, drops and pick-ups.",
    examples=({"state": EXAMPLE_STATE, "player": "red", "limit": 50},))

RULESET: Ruleset[HexManeuverState, HexManeuverAnyAction, Board] = pictured(Ruleset(
    catalogue=CATALOGUE,
    state_model=HexManeuverState,
    action_model=HexManeuverAction,
    options_model=HexManeuverOptions,
    compile=compile_board,
    judge=judge,
    candidates=candidates,
    listing=LISTING,
    queries=QUERIES,
    why_not=WHY_NOT,
    examples=EXAMPLES,
    derived_model=HexManeuverDerived,
    information=INFORMATION,
    board_fields=("hexes",),
    ready=Board.ready,
    reported_draws=reported_draws,
), PICTURE)

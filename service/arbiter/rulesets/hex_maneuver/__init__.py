"""Ruleset ``hex_maneuver``: army maneuver and exploration on a hex map (the Maneuver and
Exploration rules of *Glory of Civilizations*; see ../shared/rules/hex_maneuver.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.engine.outcome import Mode, Outcome
from arbiter.engine.registry import Query

from . import catalogue, queries
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE
from .models import HexManeuverAction, HexManeuverOptions, HexManeuverState
from .ruleset import validate


class HexManeuver:
    id = catalogue.RULESET_ID
    version = catalogue.VERSION
    title = "Army maneuver and exploration on a hex map"
    rules = catalogue.RULES
    codes = catalogue.CODES
    event_kinds = catalogue.EVENTS
    state_model = HexManeuverState
    action_model = HexManeuverAction
    options_model = HexManeuverOptions
    action_types = ("maneuver", "explore")
    catalogues: Mapping[str, Any] = {
        "unit_types": {name: t.model_dump(mode="json")
                       for name, t in catalogue.DEFAULT_UNIT_TYPES.items()},
    }
    examples: Mapping[str, Any] = {"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION}
    queries: Mapping[str, Query] = {
        "reachable": Query(
            name="reachable",
            summary="Every hex an army (or some of its units) can end on, with cost, one "
                    "cheapest path, ferry and march flags, and the enemy objects in range there.",
            request=queries.HexManeuverReachableRequest,
            response=queries.HexManeuverReachableResponse,
            run=queries.reachable,
            examples=({"state": EXAMPLE_STATE, "army": "red-1"},),
        ),
        "legal-actions": Query(
            name="legal-actions",
            summary="Every maneuver destination of every undepleted army of a player, bounded "
                    "by limit.",
            request=queries.HexManeuverLegalActionsRequest,
            response=queries.HexManeuverLegalActionsResponse,
            run=queries.legal_actions,
            examples=({"state": EXAMPLE_STATE, "player": "red", "limit": 50},),
        ),
    }

    def validate(self, state: Any, action: Any, mode: Mode = "strict") -> Outcome:
        return validate(state, action, mode)


RULESET = HexManeuver()

"""Ruleset ``territory_conquest``: the Conquest board of the two-player *It's a Wonderful
Kingdom* mini-expansion — recruiting, moving and stopping in the Conquest phase, equal
losses, bonus locations, double move (see ../shared/rules/territory_conquest.md).

Modules: models (wire shapes), catalogue (rules, codes, events), board (compiled state and
its 422 checks), order (turn order and stopping), recruit, move, bonuses (bonus gain and
loss, production and victory point tallies), pieces (the mutable copy an action changes),
ruleset (validate), derived (conquest-cost, standing), legal (legal-actions), examples."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.engine.outcome import Mode, Outcome
from arbiter.engine.registry import Query

from . import catalogue, derived, legal
from .examples import EXAMPLE_ACTION, EXAMPLE_STATE
from .models import (
    ARMY_PAWNS,
    TerritoryConquestAction,
    TerritoryConquestOptions,
    TerritoryConquestState,
)
from .ruleset import validate


class TerritoryConquest:
    id = catalogue.RULESET_ID
    version = catalogue.VERSION
    title = "The two-player Conquest board: recruit, move and stop in the Conquest phase"
    rules = catalogue.RULES
    codes = catalogue.CODES
    event_kinds = catalogue.EVENTS
    state_model = TerritoryConquestState
    action_model = TerritoryConquestAction
    options_model = TerritoryConquestOptions
    action_types = ("recruit", "move", "stop")
    catalogues: Mapping[str, Any] = {
        "army_pawns_per_player": ARMY_PAWNS,
        "bonus_effects": {effect.value: name for effect, name in catalogue.EFFECT_NAMES.items()},
    }
    examples: Mapping[str, Any] = {"state": EXAMPLE_STATE, "action": EXAMPLE_ACTION}
    queries: Mapping[str, Query] = {
        "conquest-cost": Query(
            name="conquest-cost",
            summary="For each territory, the fewest pawns and soldier tokens a player needs to "
                    "take it and from which of their territories, with and without double move.",
            request=derived.TerritoryConquestConquestCostRequest,
            response=derived.TerritoryConquestConquestCostResponse,
            run=derived.conquest_cost,
            examples=({"state": EXAMPLE_STATE, "player": "red"},),
        ),
        "standing": Query(
            name="standing",
            summary="Each player's territories, bonuses, production icons, trap and spy tokens "
                    "and end-of-game victory points; whose action is next; whether the phase "
                    "has ended.",
            request=derived.TerritoryConquestStandingRequest,
            response=derived.TerritoryConquestStandingResponse,
            run=derived.standing,
            examples=({"state": EXAMPLE_STATE},),
        ),
        "legal-actions": Query(
            name="legal-actions",
            summary="A player's legal recruits, moves (bounded by limit) and stop.",
            request=legal.TerritoryConquestLegalActionsRequest,
            response=legal.TerritoryConquestLegalActionsResponse,
            run=legal.legal_actions,
            examples=({"state": EXAMPLE_STATE, "player": "red", "limit": 20},),
        ),
    }

    def validate(self, state: Any, action: Any, mode: Mode = "strict") -> Outcome:
        return validate(state, action, mode)


RULESET = TerritoryConquest()

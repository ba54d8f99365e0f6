"""The model of a territory_conquest outcome's ``derived`` facts (``judge``,
``move.move_facts``): who acts next, and what a move costs and changes. The judge builds
plain dicts (the hot path); this model types them for GraphQL, OpenAPI and the test that
they match (tests/contract/test_catalogue_params.py)."""

from __future__ import annotations

from pydantic import Field

from arbiter.engine.wire import Frozen


class TerritoryConquestSourceFacts(Frozen):
    territory: str
    distance: int = Field(description="1, or 2 for a double move.")
    via: list[str] = Field(description="The territory a double move passes.")


class TerritoryConquestDerived(Frozen):
    """Every action: who acts next and whether the phase ends (out of turn: nobody, no).
    A recruitment adds what it recruits and spends; a move what it moves, loses and
    changes, per player."""

    to_act_next: str | None
    phase_ends: bool
    recruited: int | None = None
    soldier_tokens_spent: int | None = None
    moved: int | None = None
    enemy_armies: int | None = None
    losses: int | None = None
    survivors: int | None = None
    double_move_used: bool | None = None
    sources: list[TerritoryConquestSourceFacts] | None = None
    bonuses_lost: dict[str, list[str]] | None = Field(
        default=None, description="By player: the bonus locations they lose.")
    bonuses_gained: dict[str, list[str]] | None = Field(
        default=None, description="By player: the bonus locations they take.")
    production_icons_change: dict[str, dict[str, int]] | None = Field(
        default=None, description="By player: the change of each production icon.")

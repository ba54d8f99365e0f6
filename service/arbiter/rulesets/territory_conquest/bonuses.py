"""Bonus effects: taking one by placing a pawn on its location (a trap or spy token comes
with it at once), losing one the moment its pawn leaves or is returned to its castle (the
token is discarded), and the tallies a player's bonuses add up to — production icons
(bonus locations plus the castle territory's own icons), krystallium, the other effects,
and end-of-game victory points of the territories controlled."""

from __future__ import annotations

from collections import Counter

from arbiter.engine.outcome import Verdict, location

from .board import Board, BonusLocation
from .catalogue import EFFECT_NAMES, TOKENS
from .ledger import Ledger
from .models import BonusEffect


def effect_name(loc: BonusLocation) -> str:
    """How a location's effect reads in a message: 'card destruction', 'production (1 gold)'."""
    name = EFFECT_NAMES[loc.effect]
    if loc.effect is BonusEffect.production:
        icons = ", ".join(f"{n} {r.value}" for r, n in sorted(loc.icons.items(),
                                                                key=lambda i: i[0].value))
        return f"{name} ({icons})"
    return name


def lose_bonus(board: Board, ledger: Ledger, player: str, location_id: str,
               verdict: Verdict) -> None:
    """The pawn on ``location_id`` leaves it (moved away or returned to its castle)."""
    loc = board.locations[location_id]
    ledger.vacate(player, location_id)
    where = location(region=loc.territory, piece=loc.id)
    verdict.event("bonus_lost", where, player=player, location=loc.id, territory=loc.territory,
                  effect=loc.effect.value, effect_name=effect_name(loc))
    token = TOKENS.get(loc.effect)
    if token is not None:
        # The board check guarantees one token per trap or spy location held. (The count
        # is the player's ``trap_tokens`` or ``spy_tokens``.)
        ledger.players[player][f"{token}_tokens"] -= 1
        verdict.event("token_discarded", where, player=player, token=token, location=loc.id)


def gain_bonus(board: Board, ledger: Ledger, player: str, location_id: str,
               verdict: Verdict) -> None:
    """A surviving pawn is placed on ``location_id``."""
    loc = board.locations[location_id]
    ledger.occupy(player, location_id)
    where = location(region=loc.territory, piece=loc.id)
    verdict.event("bonus_gained", where, player=player, location=loc.id,
                  territory=loc.territory, effect=loc.effect.value, effect_name=effect_name(loc))
    token = TOKENS.get(loc.effect)
    if token is not None:
        ledger.players[player][f"{token}_tokens"] += 1
        verdict.event("token_taken", where, player=player, token=token, location=loc.id)


def held_locations(board: Board, player: str) -> list[BonusLocation]:
    return [board.locations[loc] for loc, who in sorted(board.occupant.items())
            if who == player]


def controlled_territories(board: Board, player: str) -> list[str]:
    return [t for t in sorted(board.territories) if board.controller(t) == player]


def production_icons(board: Board, player: str) -> dict[str, int]:
    """Icons the player adds in the Production phase: those of the production bonus
    locations held and those printed in the castle territory (always controlled)."""
    icons: Counter[str] = Counter()
    for resource, count in board.territories[board.castle[player]].production.items():
        icons[resource.value] += count
    for loc in held_locations(board, player):
        for resource, count in loc.icons.items():
            icons[resource.value] += count
    return {r: n for r, n in sorted(icons.items()) if n > 0}


def victory_points(board: Board, player: str) -> int:
    return sum(board.territories[t].victory_points.get(player, 0)
               for t in controlled_territories(board, player))

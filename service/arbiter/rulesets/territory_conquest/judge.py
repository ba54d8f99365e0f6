"""``judge`` for territory_conquest: a recruit, move or stop judged against every rule —
whose action it is first (``order``), then the action's own rules (``recruit``, ``move``;
a stop has none) — with how to apply it (pieces and turn record advanced, into the
ledger), and the facts a frontend shows beside the verdict (what the move costs and
loses, who acts next, whether the phase ends). An action naming what the state does not
hold (an unknown player, territory or bonus location, more pawns than stand somewhere)
cannot be judged: it raises ``InvalidInput`` with pointers into ``/action``."""

from __future__ import annotations

from typing import Any

from arbiter.engine.draft import Draft
from arbiter.engine.errors import Problems, pointer
from arbiter.engine.judging import Judgement
from arbiter.engine.outcome import Verdict

from .board import Board
from .catalogue import CATALOGUE
from .ledger import Ledger
from .models import TerritoryConquestAnyAction, TerritoryConquestMove, TerritoryConquestRecruit
from .move import MovePlan, apply_move, judge_move, move_facts, move_problems
from .order import announce_stop, judge_turn, next_record
from .recruit import apply_recruit, judge_recruit, recruit_problems


def judge(board: Board, action: TerritoryConquestAnyAction) -> Judgement:
    _action_problems(board, action).raise_if_any()
    verdict = Verdict(CATALOGUE)
    if not judge_turn(board.state, action.player, verdict):
        return Judgement(verdict, derived={"to_act_next": None, "phase_ends": False})
    record = next_record(board.state, action.player, action.type)
    derived: dict[str, Any] = {"to_act_next": record["to_act"], "phase_ends": record["ended"]}
    plan: MovePlan | None = None
    if isinstance(action, TerritoryConquestRecruit):
        judge_recruit(board, action, verdict)
        derived |= {"recruited": action.count, "soldier_tokens_spent": action.count}
    elif isinstance(action, TerritoryConquestMove):
        plan = judge_move(board, action, verdict)

    def apply() -> Draft:
        ledger = Ledger(board)
        if isinstance(action, TerritoryConquestRecruit):
            apply_recruit(board, ledger, action, verdict)
        elif plan is not None:
            apply_move(board, ledger, plan, verdict)
        else:
            announce_stop(verdict, action.player, record)
        # A stop changes no piece, yet its state spells every count out like the others'.
        ledger["conquest"] = record
        return ledger.draft

    def facts() -> dict[str, Any]:
        # Made only for an answer: legal-actions judges many moves and reads none.
        return derived | move_facts(board, plan) if plan is not None else derived

    return Judgement(verdict, apply, facts)


def _action_problems(board: Board, action: TerritoryConquestAnyAction) -> Problems:
    if action.player not in board.players:
        problems = Problems()
        problems.add(pointer("action", "player"), f"unknown player {action.player}")
        return problems
    if isinstance(action, TerritoryConquestRecruit):
        return recruit_problems(action)
    if isinstance(action, TerritoryConquestMove):
        return move_problems(board, action)
    return Problems()

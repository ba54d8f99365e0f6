"""``validate`` for territory_conquest: a recruit, move or stop judged against every rule —
whose action it is first, then the action's own rules — with the resulting state (pieces
and turn record advanced), its events, and the facts a frontend shows beside the verdict
(what the move costs and loses, who acts next, whether the phase ends)."""

from __future__ import annotations

from typing import Any

from arbiter.engine.errors import Problems
from arbiter.engine.judging import conclude
from arbiter.engine.outcome import Mode, Outcome, Verdict

from .board import Board, compile_board
from .catalogue import CODES, EVENTS, RULESET_ID, VERSION
from .models import (
    TerritoryConquestAction,
    TerritoryConquestMove,
    TerritoryConquestRecruit,
    TerritoryConquestState,
    TerritoryConquestStop,
)
from .move import apply_move, judge_move, move_facts, move_problems
from .order import announce_stop, judge_turn, next_record
from .pieces import Pieces
from .recruit import apply_recruit, judge_recruit, recruit_problems

AnyAction = TerritoryConquestRecruit | TerritoryConquestMove | TerritoryConquestStop


def validate(state: TerritoryConquestState, action: TerritoryConquestAction,
             mode: Mode = "strict") -> Outcome:
    board = compile_board(state)
    act = action.root
    _action_problems(board, act).raise_if_any()
    verdict = Verdict(CODES, EVENTS)
    if not judge_turn(state, act.player, verdict):
        return conclude(ruleset_id=RULESET_ID, version=VERSION, verdict=verdict, mode=mode,
                        apply=None, derived={"to_act_next": None, "phase_ends": False})
    record = next_record(state, act.player, act.type)
    derived: dict[str, Any] = {"to_act_next": record["to_act"],
                               "phase_ends": record["ended"]}
    plan = None
    if isinstance(act, TerritoryConquestRecruit):
        judge_recruit(board, act, verdict)
        derived |= {"recruited": act.count, "soldier_tokens_spent": act.count}
    elif isinstance(act, TerritoryConquestMove):
        plan = judge_move(board, act, verdict)
        derived |= move_facts(board, plan)

    def apply() -> TerritoryConquestState:
        pieces = Pieces(board)
        if isinstance(act, TerritoryConquestRecruit):
            apply_recruit(pieces, act, verdict)
        elif plan is not None:
            apply_move(pieces, plan, verdict)
        else:
            announce_stop(verdict, act.player, record)
        return pieces.to_state(record)

    return conclude(ruleset_id=RULESET_ID, version=VERSION, verdict=verdict, mode=mode,
                    apply=apply, derived=derived)


def _action_problems(board: Board, act: AnyAction) -> Problems:
    if act.player not in board.players:
        problems = Problems()
        problems.add("/action/player", f"unknown player {act.player!r}")
        return problems
    if isinstance(act, TerritoryConquestRecruit):
        return recruit_problems(act)
    if isinstance(act, TerritoryConquestMove):
        return move_problems(board, act)
    return Problems()


__all__ = ["validate"]

"""Turn order of the Conquest phase: who takes the first action (more soldier tokens; on a
tie the round's first player), strict alternation of single actions, stopping, and the
phase's end when both players stop one right after the other. Owns the turn record: its
consistency checks (a malformed record is a 422), the judging of whose action it is, and
the record that follows an applied action. Depends on the models only."""

from __future__ import annotations

from typing import Any

from arbiter.engine.errors import Problems, pointer
from arbiter.engine.index import check_ref
from arbiter.engine.outcome import Verdict

from .models import ActionType, TerritoryConquestState


def opponent_of(state: TerritoryConquestState, player: str) -> str:
    first, second = state.players
    return second.id if player == first.id else first.id


def first_to_act(state: TerritoryConquestState) -> tuple[str, str]:
    """The player who takes the phase's first action, and why (for the message)."""
    a, b = state.players
    if a.soldier_tokens != b.soldier_tokens:
        more, fewer = (a, b) if a.soldier_tokens > b.soldier_tokens else (b, a)
        return more.id, (f"more soldier tokens: {more.soldier_tokens} against "
                         f"{fewer.soldier_tokens}")
    return state.round_first_player, (f"soldier tokens tie at {a.soldier_tokens}; "
                                      f"{state.round_first_player} is the round's first player")


def _two_stops(state: TerritoryConquestState) -> bool:
    """The record's last two actions are both players' stops, one right after the other."""
    last = state.conquest.last_actions[-2:]
    return (len(last) == 2 and all(a.type == "stop" for a in last)
            and last[0].player != last[1].player)


def phase_ended(state: TerritoryConquestState) -> bool:
    """Has the Conquest phase ended (stop.2)? The record says so by its flag, or by naming
    both players as stopped, or by showing two stops in a row as its last actions: a client
    that fills only some of these fields still gets the verdict the rules give."""
    record = state.conquest
    return record.ended or len(set(record.stopped)) == 2 or _two_stops(state)


def opponent_just_stopped(state: TerritoryConquestState, player: str) -> bool:
    """Did ``player``'s opponent stop with the action just before this one (and so a stop
    now ends the phase, stop.2)?"""
    return opponent_of(state, player) in stopped_now(state)


def stopped_now(state: TerritoryConquestState) -> list[str]:
    """The players whose stop no recruit or move has answered yet (stop.1). The last
    recorded action settles it when there is one — a stale ``stopped`` entry followed by
    the opponent's recruit or move no longer counts; otherwise ``stopped`` says."""
    record = state.conquest
    if record.last_actions:
        last = record.last_actions[-1]
        return [last.player] if last.type == "stop" else []
    return list(dict.fromkeys(record.stopped))


def stopped_players(state: TerritoryConquestState) -> list[str]:
    """Who has stopped, for display: once the phase has ended, both players in the order
    they stopped (as far as the record tells); before, those whose stop still stands."""
    record = state.conquest
    if not phase_ended(state):
        return stopped_now(state)
    if record.stopped:
        return list(dict.fromkeys(record.stopped))
    return [a.player for a in record.last_actions[-2:] if a.type == "stop"]


def to_act(state: TerritoryConquestState) -> str | None:
    """Whose action it is; None once the phase has ended."""
    record = state.conquest
    if phase_ended(state):
        return None
    if record.to_act is not None:
        return record.to_act
    if record.last_actions:
        # The record may omit to_act: alternation decides it from the last action.
        return opponent_of(state, record.last_actions[-1].player)
    if record.stopped:
        # A stop is an action: its player's opponent acts next.
        return opponent_of(state, record.stopped[-1])
    return first_to_act(state)[0]


def is_first_action(state: TerritoryConquestState) -> bool:
    """Is the next action the phase's first (order.1)? Only when the record shows no action
    at all and does not name another player to act: a record that names the player to act
    without its history is a phase under way, and its word is taken."""
    record = state.conquest
    return (not record.last_actions and not record.stopped
            and record.to_act in (None, first_to_act(state)[0]))


def turn_record_problems(state: TerritoryConquestState, players: set[str],
                         problems: Problems) -> None:
    """A turn record that names unknown players or contradicts alternation cannot be
    judged against (422)."""
    if _unknown_players(state, players, problems):
        return
    record = state.conquest
    if record.ended:
        # A bare flag (nothing else recorded) is taken at its word; a record naming a
        # single stopper and no two stops in a row contradicts it.
        if record.stopped and len(set(record.stopped)) != 2 and not _two_stops(state):
            problems.add(pointer("state", "conquest", "ended"),
                         "the phase ends only when both players have stopped")
        return
    if phase_ended(state) or record.to_act is None:
        return
    _alternation_problems(state, record.to_act, problems)


def _unknown_players(state: TerritoryConquestState, players: set[str],
                     problems: Problems) -> bool:
    """Report every player the record names that the state does not hold, and a stopper
    listed twice; True when any was found (or the state had other problems before), since
    alternation is then not worth checking."""
    record = state.conquest
    at = ("state", "conquest")
    check_ref(state.round_first_player, players, ("state", "round_first_player"), "player",
              problems)
    if record.to_act is not None:
        check_ref(record.to_act, players, (*at, "to_act"), "player", problems)
    for i, past in enumerate(record.last_actions):
        check_ref(past.player, players, (*at, "last_actions", i, "player"), "player", problems)
    for i, player in enumerate(record.stopped):
        if not check_ref(player, players, (*at, "stopped", i), "player", problems):
            continue
        if player in record.stopped[:i]:
            problems.add(pointer(*at, "stopped", i), f"{player} is listed twice")
    return bool(problems.items)


def _alternation_problems(state: TerritoryConquestState, to_act: str,
                          problems: Problems) -> None:
    """The record's ``to_act`` must be the opponent of whoever acted (or stopped) last, and
    not a player whose stop still stands (the phase would have ended)."""
    record = state.conquest
    if record.last_actions:
        expected = opponent_of(state, record.last_actions[-1].player)
        why = f"{record.last_actions[-1].player} took the last action"
    elif record.stopped:
        expected = opponent_of(state, record.stopped[-1])
        why = f"{record.stopped[-1]} stopped"
    else:
        # No history: either the phase's first action or a phase under way recorded by
        # whose action it is alone (see is_first_action).
        expected, why = to_act, ""
    if to_act != expected:
        problems.add(pointer("state", "conquest", "to_act"), f"{expected} is to act ({why})")
    elif to_act in stopped_now(state):
        problems.add(pointer("state", "conquest", "to_act"),
                     f"{to_act} has stopped and the opponent has not recruited or moved "
                     "since, so the phase would have ended")


def judge_turn(state: TerritoryConquestState, player: str, verdict: Verdict) -> bool:
    """Judge whose action it is; False when the phase is over and nothing more can be
    judged (the action's own rules no longer apply: there is no action to take)."""
    if phase_ended(state):
        verdict.violate("phase_over", fatal=True)
        return False
    if is_first_action(state):
        first, reason = first_to_act(state)
        if player != first:
            verdict.violate("not_first_to_act", first=first, reason=reason, player=player,
                            soldier_tokens={p.id: p.soldier_tokens for p in state.players},
                            round_first_player=state.round_first_player)
        return True
    expected = to_act(state)
    if player != expected:
        verdict.violate("not_your_turn", to_act=expected, player=player)
    return True


def next_record(state: TerritoryConquestState, player: str,
                kind: ActionType) -> dict[str, Any]:
    """The turn record after ``player`` took an action of ``kind`` (as JSON data)."""
    record = state.conquest
    opponent = opponent_of(state, player)
    last = [p.model_dump(mode="json") for p in record.last_actions]
    last = [*last, {"player": player, "type": kind}][-2:]
    if kind != "stop":
        # Recruiting or moving brings a stopped opponent back into play.
        return {"to_act": opponent, "last_actions": last, "stopped": [], "ended": False}
    if opponent_just_stopped(state, player):
        # The opponent's stop was the action just before this one: any recruit or move in
        # between would have cleared it.
        return {"to_act": None, "last_actions": last, "stopped": [opponent, player],
                "ended": True}
    return {"to_act": opponent, "last_actions": last, "stopped": [player], "ended": False}


def announce_stop(verdict: Verdict, player: str, record: dict[str, Any]) -> None:
    """A stop changes no piece: its events are all there is to it."""
    verdict.event("conquest_stopped", player=player)
    if record["ended"]:
        verdict.event("conquest_phase_ended")

"""The hidden fields of a state as they travel (the ruleset's ``engine.information``): a
field nobody may read goes as a handle, ``{"sealed": "<seal>", "count": 12}``, in place of
its value, where ``count`` is what anybody may see of it (a stack's height; null for a
seed) and ``sealed`` what only this service opens (``service.sealing``), or null in a view
made without keys (the field is then withheld: questions that need it are refused).

A seal of a hidden field is bound to the ruleset, to the field's pointer and to the rest
of the state (``rest_digest``: the state's canonical JSON without its hidden fields, its
board folded to its id, so the board may travel inline or by reference): moved into
another game, another field or an edited state, it does not open, and the refusal points
at it.

The service opens a state's handles before reading it (``open``), judges the whole state,
and seals the hidden fields of the state it answers when they came sealed (``seal``): a
state sent in the clear comes back in the clear, as a state sent unsigned comes back
unsigned. ``new-game`` seals the first state of a game whenever the service has keys.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import orjson

from arbiter.engine.boards import board_id
from arbiter.engine.canonical import canonical_json, sha256
from arbiter.engine.errors import Problem
from arbiter.engine.information import Hidden
from arbiter.engine.legal import LEGAL_ACTIONS, lister, open_before_the_draw
from arbiter.engine.outcome import Outcome, Violation
from arbiter.engine.registry import AnyRuleset
from arbiter.engine.ruleset import SEED_FIELD, Query
from arbiter.engine.why_not import REPORT_THE_DRAWS, WHY_NOT
from arbiter.pictures.render import Painter
from arbiter.service.problems import Malformed, SignatureRefused
from arbiter.service.sealing import Sealer

HANDLE_KEYS = frozenset({"sealed", "count"})
_SYSTEM = secrets.SystemRandom()


@dataclass(frozen=True, slots=True)
class Opening:
    """What a request's state carried hidden: the pointers that came sealed (its answer's
    state is sealed again) and the handles withheld, by pointer (a view's: an action or a
    question that reads one is refused, and the answer's state withholds them again)."""

    sealed: tuple[str, ...] = ()
    withheld: tuple[tuple[str, dict[str, Any]], ...] = ()

    @property
    def hides(self) -> bool:
        return bool(self.sealed or self.withheld)


CLEAR = Opening()


def is_handle(value: Any) -> bool:
    return isinstance(value, dict) and "sealed" in value and set(value) <= HANDLE_KEYS


class Hiding:
    """Opening and sealing the hidden fields of states with the service's keys."""

    def __init__(self, sealer: Sealer) -> None:
        self.sealer = sealer

    def open(self, ruleset: AnyRuleset, state: Any, at: str = "/state"
             ) -> tuple[Any, Opening]:
        """``state`` (JSON) with each handle replaced by what it holds (a withheld one by
        an empty value of its kind), and what was hidden; the state itself when it hides
        nothing. Refuses at its pointer a seal that does not open here."""
        hidden = ruleset.information.hidden
        if not hidden or not isinstance(state, dict):
            return state, CLEAR
        handles = [(h, v) for h, v in _values(state, hidden) if is_handle(v)]
        if not handles:
            return state, CLEAR
        bound = rest_digest(ruleset, state)
        opened, sealed, withheld = state, [], []
        for h, handle in handles:
            token, count = handle.get("sealed"), handle.get("count")
            where = at + h.pointer
            if count is not None and (type(count) is not int or count < 0):
                raise Malformed([Problem(f"{where}/count", "a count is a whole number, or "
                                         "null for a seed")], "state")
            if token is None:
                opened = _put(opened, h.path, 0 if count is None else [])
                withheld.append((h.pointer, handle))
                continue
            if not isinstance(token, str):
                raise SignatureRefused("a seal is a string the service answered", where + "/sealed")
            value = orjson.loads(self.sealer.open(token, ruleset.id, h.pointer, bound, where,
                                                  f"{h.pointer} ({h.holds})"))
            if count != _count(value):
                raise SignatureRefused(f"{h.pointer} holds {_count(value)}, not {count}: send "
                                       "the handle as the service answered it", f"{where}/count")
            opened = _put(opened, h.path, value)
            sealed.append(h.pointer)
        return opened, Opening(tuple(sealed), tuple(withheld))

    def refuse(self, ruleset: AnyRuleset, opening: Opening,
               actions: Iterable[tuple[Any, str]]) -> None:
        """An action that draws from a field a view withholds cannot be judged from the
        view; in a sealed game, a choice the rules make with a draw in view (a tile's
        rotation) is left to the rules' default, as nobody has seen the draw yet. Each
        action with its pointer (``/action``, ``/actions/2``)."""
        info = ruleset.information
        withheld = dict(opening.withheld)
        for action, at in actions:
            parsed = ruleset.parse_action(action)
            reads = info.reads(parsed)
            missing = [p for p in reads if p in withheld]
            if missing:
                raise Malformed([Problem(f"/state{p}", f"this view withholds {p}: the action at "
                                         f"{at} draws from it, so it needs the whole state")
                                 for p in missing], "state")
            if not set(reads) & set(opening.sealed):
                continue
            reported = ruleset.reported_draws(parsed)
            if reported:  # a draw named at the table would be judged against the sealed one
                raise SignatureRefused(
                    f"this sealed game makes its own draws: the action may not report "
                    f"{reported[0]!r} (leave it out)", f"{at}/{reported[0]}")
            chosen = info.chosen_on_reveal(parsed)
            if chosen:
                raise SignatureRefused(
                    f"in this sealed game nobody has seen the draw yet, so {chosen[0]!r} "
                    "cannot be chosen with it in view: leave it out, and the rules' default "
                    "is taken",
                    f"{at}/{chosen[0]}")

    def conceal(self, ruleset: AnyRuleset, opening: Opening, outcome: Outcome,
                action: Any, drawn: int | None) -> Outcome:
        """``outcome`` as a client of a state that hides may hear it: the resulting state
        hiding what the state judged hid (sealed again, or withheld), its ``state_hash`` of
        the state so written; and an illegal action that would draw from a sealed field,
        refused for a reason that comes before the draw, answered with those reasons alone
        (no facts, events or state: the draw never happened, so nothing it would show).
        Advisory mode, which would apply such an action when the drawn tile fits, answers
        it as not applied too: a warning where the draw fits and an error where it does
        not would tell whether the top tile fits."""
        before = None if outcome.legal else _before_the_draw(ruleset, opening, action,
                                                             outcome.violations, drawn)
        if before:
            outcome = Outcome(
                ruleset=outcome.ruleset, ruleset_version=outcome.ruleset_version,
                legal=False, applied=False,
                violations=[v.model_copy(update={"severity": "error"}) for v in before])
        if outcome.state is None:
            return outcome
        state = self.seal(ruleset, outcome.state) if opening.sealed else outcome.state
        for pointer, handle in opening.withheld:
            state = _put(state, tuple(pointer.strip("/").split("/")), handle)
        return outcome.model_copy(update={"state": state,
                                          "state_hash": sha256(canonical_json(state))})

    def query(self, ruleset: AnyRuleset, query: Query, opening: Callable[[], Opening]
              ) -> Query:
        """``query`` as a state that hides may be asked it (``opening()``: what the state
        hid, once it is read). A state it answers hides what the state asked hid, sealed
        again. The legal actions a sealed state lists are those open before the draw
        (an exploration whether or not the unseen tile fits), each once, with the choices
        made with a draw in view left out (not once per rotation); why-not answers as a
        player who has not seen the draw can know it. A view that withholds a field
        cannot be asked what needs it: the legal actions, or a query that plays the rules
        forward (``Information.drawing_queries``, or one that answers a state)."""
        info = ruleset.information
        answers_state = "state" in query.response.model_fields
        listing, why_not = query.name == LEGAL_ACTIONS, query.name == WHY_NOT
        painter = query.run if isinstance(query.run, Painter) else None
        if not info.hidden or not (listing or why_not or answers_state or painter
                                   or query.name in info.drawing_queries):
            return query

        def run(request: Any) -> Any:
            hid = opening()
            # A picture needs what a view withholds only to judge an action (refused then,
            # as validate refuses it), unless it plays the rules forward.
            if hid.withheld and (painter is None or query.name in info.drawing_queries):
                raise Malformed([Problem(f"/state{p}", f"this view withholds {p}: "
                                         f"{query.name} needs the whole state")
                                 for p, _ in hid.withheld], "state")
            if painter is not None:
                return painter.judging_by(lambda state, action: self._judged(
                    ruleset, hid, state, action))(request) if hid.hides else query.run(request)
            if not hid.sealed:
                return query.run(request)
            if listing:
                listed = lister(ruleset, query.response, open_before_the_draw)(request)
                return self._unseen_choices(ruleset, listed)
            answer = query.run(request)
            if why_not:
                return _why_not_before_the_draw(ruleset, hid, request, answer)
            state = getattr(answer, "state", None)
            if isinstance(state, dict):
                state = self.seal(ruleset, state)
                answer = answer.model_copy(update={"state": state,
                                                   "state_hash": sha256(canonical_json(state))})
            return answer

        return replace(query, run=run)

    def _judged(self, ruleset: AnyRuleset, opening: Opening, state: Any, action: Any
                ) -> Outcome:
        """A proposed action a picture shows, judged as validate judges it in this sealed
        game: refused where it names a draw or a choice made with one in view, and
        concealed where it is refused before its draw."""
        self.refuse(ruleset, opening, [(action, "/overlay/action")])
        ruling = ruleset.ruling(state, action)
        return self.conceal(ruleset, opening, ruling.outcome, ruleset.parse_action(action),
                            ruling.drawn)

    @staticmethod
    def _unseen_choices(ruleset: AnyRuleset, listed: Any) -> Any:
        """A legal-actions answer with each choice made with a draw in view left to the
        rules' default, and the actions that leaves the same listed once."""
        info = ruleset.information
        kept: dict[bytes, Any] = {}
        for action in listed.actions:
            chosen = info.chosen_on_reveal(action)
            unseen = action.model_copy(update=dict.fromkeys(chosen)) if chosen else action
            kept.setdefault(orjson.dumps(unseen.model_dump(mode="json")), unseen)
        return listed.model_copy(update={"actions": list(kept.values())})

    def shuffled(self, ruleset: AnyRuleset, document: Any) -> Any:
        """A new game's request with what its rules keep face down (a stack, a deck)
        shuffled by the operating system's randomness, in digital mode; else as it came."""
        state = document.get("state") if isinstance(document, dict) else None
        if not isinstance(state, dict) or not self.seals(state):
            return document
        for h, value in list(_values(state, ruleset.information.hidden)):
            if h.shuffled and isinstance(value, list):
                value = list(value)
                _SYSTEM.shuffle(value)
                state = _put(state, h.path, value)
        return {**document, "state": state}

    @staticmethod
    def seals(state: Any) -> bool:
        """Whether a state's hidden fields are sealed when the service has keys: in
        digital mode (it has a seed), where the service makes the draws."""
        return isinstance(state, dict) and state.get(SEED_FIELD) is not None

    def seal(self, ruleset: AnyRuleset, state: dict[str, Any], *,
             came: frozenset[str] = frozenset(), withhold: bool = False) -> dict[str, Any]:
        """``state`` (JSON) with each hidden field it has in place of a handle sealing it,
        bound to the rest of it (``withhold``: a handle that seals nothing); the fields at
        the pointers ``came`` are left as they are (handles already)."""
        fields = [(h, v) for h, v in _values(state, ruleset.information.hidden)
                  if v is not None and h.pointer not in came]
        bound = rest_digest(ruleset, state)
        for h, value in fields:
            token = None if withhold else self.sealer.seal(ruleset.id, h.pointer, bound,
                                                           orjson.dumps(value))
            state = _put(state, h.path, {"sealed": token, "count": _count(value)})
        return state

    def view(self, ruleset: AnyRuleset, state: dict[str, Any], opening: Opening = CLEAR
             ) -> dict[str, Any]:
        """``state`` (JSON, as sent: ``opening`` says what it hid) as a player may see it:
        each hidden field as its handle, sealed when the service has keys (the view is
        then judged as the whole state), else withheld; a handle it came with, as it came.
        A table-mode state (no seed) hides nothing: the table holds the stack."""
        if not self.seals(state):
            return state
        came = frozenset(opening.sealed) | {p for p, _ in opening.withheld}
        return self.seal(ruleset, state, came=came, withhold=not self.sealer.on)

    @staticmethod
    def handles(ruleset: AnyRuleset, state: dict[str, Any]
                ) -> list[tuple[str, dict[str, Any]]]:
        """The hidden fields ``state`` (JSON) carries as handles, by pointer."""
        return [(h.pointer, v) for h, v in _values(state, ruleset.information.hidden)
                if is_handle(v)]


def _before_the_draw(ruleset: AnyRuleset, opening: Opening, action: Any,
                     violations: list[Violation], drawn: int | None
                     ) -> list[Violation] | None:
    """The reasons an action that would draw from a sealed field is refused for before
    its draw (the first ``drawn`` of its violations, ``Verdict.drawn``; all of them when
    its judge read no draw); None when it draws from nothing sealed, or when nothing but
    the draw refuses it (the draw happened)."""
    if not set(ruleset.information.reads(action)) & set(opening.sealed):
        return None
    return (violations if drawn is None else violations[:drawn]) or None


def _why_not_before_the_draw(ruleset: AnyRuleset, opening: Opening, request: Any,
                             answer: Any) -> Any:
    """A why-not answer of a sealed state as a player who has not seen the draw can know
    it (as legal-actions lists): an implied action refused before its draw gives those
    reasons alone; one refused only by what the draw would show is possible (the draw
    decides, as at the table). Naming the draws in the action changes nothing here: this
    game makes its own."""
    if answer.possible or answer.action is None:
        return answer
    action = ruleset.parse_action(answer.action)
    if not set(ruleset.information.reads(action)) & set(opening.sealed):
        return answer
    before = ruleset.judge(ruleset.compile(request.state), action).verdict.before_the_draw
    if not before:
        return answer.model_copy(update={"possible": True, "violations": [], "changes": []})
    return answer.model_copy(update={"violations": before, "changes": [
        c for c in answer.changes if c.code != REPORT_THE_DRAWS]})


def rest_digest(ruleset: AnyRuleset, state: dict[str, Any]) -> bytes:
    """What a seal of one of ``state``'s hidden fields is bound to: the sha256 of the
    state's canonical JSON with every hidden field left out and its board fields in one
    ``board`` id, however the board travelled."""
    rest = state
    for h in ruleset.information.hidden:
        rest = _put(rest, h.path, None)
    fields = [f for f in ruleset.board_fields if f in rest]
    if fields:
        rest = {k: v for k, v in rest.items() if k not in fields}
        rest["board"] = board_id({f: state[f] for f in fields})
    return hashlib.sha256(canonical_json(rest)).digest()


def _values(state: dict[str, Any], hidden: tuple[Hidden, ...]) -> Iterator[tuple[Hidden, Any]]:
    """Each hidden field the state has, with its value (None: absent or null)."""
    for h in hidden:
        value: Any = state
        for name in h.path:
            value = value.get(name) if isinstance(value, dict) else None
        yield h, value


def _put(state: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A copy of ``state`` with ``value`` at ``path`` (the objects along it copied, never
    changed: the client's JSON stays as it came); None removes it. An absent parent stays
    absent."""
    head, rest = path[0], path[1:]
    copy = dict(state)
    if rest:
        inner = state.get(head)
        if isinstance(inner, dict):
            copy[head] = _put(inner, rest, value)
        return copy
    if value is None:
        copy.pop(head, None)
    else:
        copy[head] = value
    return copy


def _count(value: Any) -> int | None:
    return len(value) if isinstance(value, list) else None

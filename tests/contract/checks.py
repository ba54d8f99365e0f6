"""What every ruleset owes, as checking functions: each takes a ruleset and a position and
raises ``AssertionError`` saying what broke. The generic contract (``generic.py``) calls
them on positions of every ruleset under test; ``test_breakage.py`` calls them on
deliberately broken copies of the toy ruleset to prove they can fail.

An ``InvalidInput`` where the contract promises an answer (a listed action, a proposed
candidate, a state an action produced) is reported as an ``AssertionError`` too: a
malformed request is the client's fault, and these requests come from the ruleset.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from arbiter.engine.catalogue import Catalogue
from arbiter.engine.errors import InvalidInput
from arbiter.engine.legal import MAX_JUDGED
from arbiter.engine.outcome import Mode, Outcome, state_hash
from arbiter.engine.registry import AnyRuleset
from golden import typed_params

State = dict[str, Any]
# How many legal actions (or candidates) are judged per player and position, spread
# evenly over the first SCANNED the ruleset lists: enough to reach every kind of action on
# the boards of boards.py, few enough to stay fast.
PER_PLAYER = 40
SCANNED = 1000


def _json(value: BaseModel) -> Any:
    return value.model_dump(mode="json")


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 300 else text[:300] + "..."


def compiled(ruleset: AnyRuleset, state: State, what: str) -> tuple[BaseModel, Any]:
    """The state model and the board of a JSON state that must be valid."""
    try:
        model = ruleset.state_model.model_validate(state)
    except ValidationError as exc:
        raise AssertionError(f"{ruleset.id}: {what}: the state model refuses it: {exc}"
                             ) from None
    try:
        board = ruleset.compile(model)
    except InvalidInput as exc:
        raise AssertionError(f"{ruleset.id}: {what}: compile refuses it (422): {exc}") from None
    return model, board


def judged(ruleset: AnyRuleset, state: Any, action: Any, mode: Mode, what: str) -> Outcome:
    """``validate``, where a 422 would be the ruleset's fault."""
    try:
        return ruleset.validate(state, action, mode)
    except InvalidInput as exc:
        raise AssertionError(f"{ruleset.id}: {what}: validate raised InvalidInput (422): "
                             f"{exc}") from None


def waits_for_decisions(outcome: Outcome) -> bool:
    """The one legal outcome with no resulting state: a turn stopped for decisions
    (phased_orders' ``derived.status`` ``pending``), which breaks no rule and asks its
    questions in ``pending_decisions``."""
    return (outcome.legal and not outcome.applied and outcome.state is None
            and outcome.derived.get("status") == "pending"
            and bool(outcome.derived.get("pending_decisions")))


def check_resulting_state(ruleset: AnyRuleset, outcome: Outcome, what: str) -> None:
    """An applied outcome carries a state that validates and compiles, and its hash."""
    assert outcome.applied and outcome.state is not None, (
        f"{ruleset.id}: {what}: not applied ({[v.code for v in outcome.violations]})")
    assert outcome.state_hash == state_hash(outcome.state), f"{ruleset.id}: {what}: stale hash"
    compiled(ruleset, outcome.state, f"the state after {what}")


def spread(actions: Iterable[Any]) -> list[Any]:
    """At most PER_PLAYER of the first SCANNED ``actions``, evenly spaced, in order."""
    found = list(islice(actions, SCANNED))
    if len(found) <= PER_PLAYER:
        return found
    return [found[i * len(found) // PER_PLAYER] for i in range(PER_PLAYER)]


def listed(ruleset: AnyRuleset, board: Any, player: str) -> list[Any]:
    return spread(ruleset.legal_actions(board, player))


def proposed(ruleset: AnyRuleset, board: Any, player: str) -> list[Any]:
    return spread(ruleset.candidates(board, player))


# --- (a) listed actions --------------------------------------------------------------------

def check_listed_actions(ruleset: AnyRuleset, state: State, players: Iterable[str]) -> int:
    """Every action ``legal_actions`` lists is a well-formed wire action (its JSON parses
    back to it), ``validate`` finds it legal, and the state it leads to validates against
    the state model and compiles. Returns how many actions were checked."""
    model, board = compiled(ruleset, state, "the drawn state")
    checked = 0
    for player in players:
        for action in listed(ruleset, board, player):
            what = f"{player}'s listed action {_short(_json(action))}"
            wire = _json(action)
            assert ruleset.parse_action(wire) == action, f"{ruleset.id}: {what}: its JSON " \
                "does not parse back to it"
            outcome = judged(ruleset, model, wire, "strict", what)
            assert outcome.legal, (f"{ruleset.id}: {what} is listed but judged illegal: "
                                   f"{[v.message for v in outcome.violations]}")
            if not waits_for_decisions(outcome):
                check_resulting_state(ruleset, outcome, what)
            checked += 1
    return checked


# --- (a') the legal-actions query: the listing a client gets -------------------------------

# The longest listing asked for per player and position (the ruleset's own maximum when
# lower): long enough to reach splits, drops and pick-ups on the boards of boards.py.
LISTED = 300


def legal_actions(ruleset: AnyRuleset, state: Any, player: str, limit: int) -> Any:
    """The ``legal-actions`` answer as the service serialises it (JSON)."""
    query = ruleset.queries.get("legal-actions")
    assert query is not None, f"{ruleset.id} has no legal-actions query"
    request = query.request.model_validate({"state": state, "player": player,
                                             "limit": limit})
    return query.run(request).model_dump(mode="json")


def max_limit(ruleset: AnyRuleset) -> int:
    """The highest ``limit`` the ruleset's legal-actions request takes, at most LISTED."""
    schema = ruleset.queries["legal-actions"].request.model_json_schema()
    return min(LISTED, int(schema["properties"]["limit"].get("maximum", LISTED)))


def judged_legal(ruleset: AnyRuleset, board: Any, player: str, limit: int
                 ) -> tuple[list[Any], bool]:
    """What a listing of ``limit`` must answer, found without the engine's listing: the
    candidates ``judge`` finds legal among the first MAX_JUDGED proposed, the first
    ``limit`` of them as JSON, and whether it stops short (more legal than ``limit``, or
    candidates left unjudged)."""
    proposed = list(islice(ruleset.candidates(board, player), MAX_JUDGED + 1))
    found = [_json(a) for a in proposed[:MAX_JUDGED]
             if ruleset.judge(board, a).verdict.legal]
    return found[:limit], len(found) > limit or len(proposed) > MAX_JUDGED


def check_listing(ruleset: AnyRuleset, state: State, players: Iterable[str], *,
                  every: bool = False) -> list[Any]:
    """The ``legal-actions`` answer for each player: asked twice, the same bytes; ``count``
    says how many are listed; each listed action (every one, or PER_PLAYER spread over
    the list), sent back unchanged to ``validate``, is legal; one fewer as ``limit`` lists
    the same actions but the last, ``truncated``; and the answer is exactly the candidates
    ``judge`` finds legal, in the generator's order (``judged_legal``). Returns every
    action listed."""
    model, board = compiled(ruleset, state, "the state")
    top = max_limit(ruleset)
    found: list[Any] = []
    for player in players:
        answer = legal_actions(ruleset, state, player, top)
        again = legal_actions(ruleset, state, player, top)
        assert json.dumps(answer) == json.dumps(again), (
            f"{ruleset.id}: {player}'s legal actions differ between two asks")
        actions = answer["actions"]
        assert answer["count"] == len(actions) <= top, f"{ruleset.id}: count is off"
        for item in actions if every else spread(actions):
            what = f"{player}'s listed action {_short(item)}"
            try:
                ruleset.parse_action(item)
            except ValidationError as exc:
                raise AssertionError(f"{ruleset.id}: {what} is no action validate takes: "
                                     f"{exc}") from None
            outcome = judged(ruleset, model, item, "strict", what)
            assert outcome.legal, (f"{ruleset.id}: {what} is listed but judged illegal: "
                                   f"{[v.message for v in outcome.violations]}")
        if len(actions) > 1:
            cut = legal_actions(ruleset, state, player, len(actions) - 1)
            assert cut["truncated"] and cut["actions"] == actions[:-1], (
                f"{ruleset.id}: a limit one short of {player}'s {len(actions)} actions "
                "does not list the same ones but the last, truncated")
        assert (actions, answer["truncated"]) == judged_legal(ruleset, board, player, top), (
            f"{ruleset.id}: {player}'s listing is not the candidates judge finds legal")
        found += actions
    return found


# --- (b) random legal sequences -----------------------------------------------------------

def check_legal_sequence(ruleset: AnyRuleset, state: State,
                         players: Callable[[State], list[str]], picks: Iterable[int]) -> int:
    """Play legal actions chosen by ``picks`` among those listed for every player, each
    step's resulting state validating and compiling, until the picks or the legal actions
    run out. The same actions through ``validate_batch`` in sequence then give the same
    outcomes. Returns how many actions were played."""
    start, current = state, state
    played: list[Any] = []
    outcomes: list[Outcome] = []
    for step, pick in enumerate(picks):
        model, board = compiled(ruleset, current, f"the state before step {step}")
        options = [a for p in players(current) for a in listed(ruleset, board, p)]
        if not options:
            break
        action = _json(options[pick % len(options)])
        what = f"step {step}, {_short(action)}"
        outcome = judged(ruleset, model, action, "strict", what)
        assert outcome.legal, (f"{ruleset.id}: {what} is listed but judged illegal: "
                               f"{[v.message for v in outcome.violations]}")
        played.append(action)
        outcomes.append(outcome)
        if waits_for_decisions(outcome):
            break  # no state to go on from; a batch in sequence stops here too
        check_resulting_state(ruleset, outcome, what)
        assert outcome.state is not None
        current = outcome.state
    if played:
        batch = list(ruleset.validate_batch(start, played, sequence=True))
        assert [o.model_dump_json() for o in batch] == [o.model_dump_json() for o in outcomes], (
            f"{ruleset.id}: validate_batch in sequence differs from the steps one by one")
    return len(played)


# --- (c), (d), (e): one request, asked several ways ----------------------------------------

def answer(ruleset: AnyRuleset, state: Any, action: Any, mode: Mode) -> str:
    """The outcome's JSON, or the 422's problems: what a client would get back."""
    try:
        return ruleset.validate(state, action, mode).model_dump_json()
    except InvalidInput as exc:
        return "422 " + json.dumps([[p.pointer, p.detail] for p in exc.problems])


def _scramble(value: Any) -> None:
    """Empty every list and map inside ``value`` in place."""
    inner: Iterator[Any] = iter(())
    if isinstance(value, dict):
        inner = iter(list(value.values()))
    elif isinstance(value, list):
        inner = iter(list(value))
    for item in inner:
        _scramble(item)
    if isinstance(value, dict | list):
        value.clear()


def check_deterministic(ruleset: AnyRuleset, state: State, action: State, mode: Mode) -> None:
    """The same request twice gives byte-identical JSON, and the second answer is
    untouched by a client that tears the first one's resulting state apart (no answer
    shares a list or a map with another, or with a cache)."""
    first_outcome: Outcome | None
    try:
        first_outcome = ruleset.validate(copy.deepcopy(state), copy.deepcopy(action), mode)
        first = first_outcome.model_dump_json()
    except InvalidInput:
        first_outcome, first = None, answer(ruleset, state, action, mode)
    if first_outcome is not None and first_outcome.state is not None:
        _scramble(first_outcome.state)
    second = answer(ruleset, copy.deepcopy(state), copy.deepcopy(action), mode)
    assert first == second, (f"{ruleset.id}: {_short(action)} in {mode} mode answered twice "
                             f"differently:\n{first[:2000]}\n{second[:2000]}")


def check_no_mutation(ruleset: AnyRuleset, state: State, action: State, mode: Mode) -> None:
    """``validate`` changes neither the models nor the JSON dicts it is given."""
    state_dict, action_dict = copy.deepcopy(state), copy.deepcopy(action)
    state_model = ruleset.state_model.model_validate(state)
    action_model = ruleset.action_model.model_validate(action)
    before = (_json(state_model), _json(action_model))
    answer(ruleset, state_model, action_model, mode)
    answer(ruleset, state_dict, action_dict, mode)
    assert (_json(state_model), _json(action_model)) == before, (
        f"{ruleset.id}: validating {_short(action)} in {mode} mode changed its state or "
        "action model")
    assert state_dict == state and action_dict == action, (
        f"{ruleset.id}: validating {_short(action)} in {mode} mode changed the dicts passed in")


def check_model_or_dict_alike(ruleset: AnyRuleset, state: State, action: State,
                              mode: Mode) -> None:
    """``validate`` answers the same whether the state and action come as models (the
    action as its root model or as the union member) or as JSON dicts."""
    state_model = ruleset.state_model.model_validate(state)
    root = ruleset.action_model.model_validate(action)
    ways = {
        "dicts": answer(ruleset, copy.deepcopy(state), copy.deepcopy(action), mode),
        "models": answer(ruleset, state_model, root, mode),
        "state model, action member": answer(ruleset, state_model, root.root, mode),
        "state dict, action model": answer(ruleset, copy.deepcopy(state), root, mode),
    }
    assert len(set(ways.values())) == 1, (
        f"{ruleset.id}: {_short(action)} in {mode} mode answered differently: "
        + "; ".join(f"{way}: {text[:300]}" for way, text in ways.items()))


# --- candidates and advisory mode ---------------------------------------------------------

def check_candidates(ruleset: AnyRuleset, state: State, players: Iterable[str]) -> int:
    """Every action the generator proposes is well formed: judged without a 422 in strict
    and in advisory mode; applied anyway in advisory mode, it leads to a state that
    validates and compiles (a well-defined effect is one a later request can be judged
    on). Returns how many candidates were checked."""
    model, board = compiled(ruleset, state, "the drawn state")
    checked = 0
    for player in players:
        for action in proposed(ruleset, board, player):
            wire = _json(action)
            what = f"{player}'s candidate {_short(wire)}"
            strict = judged(ruleset, model, wire, "strict", what)
            advisory = judged(ruleset, model, wire, "advisory", f"{what} (advisory)")
            assert strict.legal == advisory.legal, f"{ruleset.id}: {what}: modes disagree"
            if advisory.applied:
                check_resulting_state(ruleset, advisory, f"{what} (advisory)")
            checked += 1
    return checked


# --- (f) golden cases -----------------------------------------------------------------------

def golden_codes(folder: Path) -> set[str]:
    """Every violation code a golden case under ``folder`` expects."""
    shown: set[str] = set()
    for path in folder.glob("**/*.json"):
        shown.update(json.loads(path.read_text()).get("expect", {}).get("codes", []))
    return shown


def check_codes_have_cases(ruleset: AnyRuleset, folder: Path) -> None:
    """Every violation code of the ruleset is expected by at least one golden case."""
    assert folder.is_dir(), f"{ruleset.id}: no golden cases at {folder}"
    missing = sorted(set(ruleset.codes) - golden_codes(folder))
    assert not missing, f"{ruleset.id}: codes without a golden case in {folder}: {missing}"


# --- (g) params and derived facts as declared -------------------------------------------------

def params_misses(catalogue: Catalogue, outcome: dict[str, Any]) -> list[str]:
    """Every violation or event of an outcome (as JSON) whose params are not exactly
    those its catalogue entry declares."""
    misses = []
    for said, items, key in (("violation", outcome["violations"], "code"),
                             ("event", outcome["events"], "kind")):
        for item in items:
            miss = _inexact(catalogue.params_model(said, item[key]), item["params"])
            if miss:
                misses.append(f"{said} {item[key]}: {miss}")
    return misses


def _inexact(model: type[BaseModel], params: dict[str, Any]) -> str | None:
    try:
        parsed = model.model_validate(params)
    except ValueError as exc:
        return f"{params}: {exc}"
    again = parsed.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return None if again == params else f"{params} reads as {again}"


def _results(value: Any) -> list[dict[str, Any]]:
    """The order results (phased_orders) in derived facts, at any depth."""
    if isinstance(value, list):
        return [r for v in value for r in _results(v)]
    if not isinstance(value, dict):
        return []
    here = [value] if {"status", "code", "params"} <= set(value) else []
    return here + [r for v in value.values() for r in _results(v)]


def derived_misses(derived_model: type[BaseModel] | None, outcome: dict[str, Any]
                   ) -> list[str]:
    """The outcome's derived facts, unless they are exactly what the ruleset's derived
    model declares (none: the ruleset derives nothing)."""
    derived = outcome["derived"]
    if derived_model is None:
        return [] if derived == {} else [f"derived {derived} without a derived model"]
    try:
        parsed = derived_model.model_validate(derived, strict=True)
    except ValueError as exc:
        return [f"derived {derived}: {exc}"]
    again = parsed.model_dump(mode="json", exclude_unset=True)
    if again != derived:
        return [f"derived {derived} reads as {again}"]
    # Params typed by their code within the facts: a phased_orders order result's.
    models = typed_params(derived_model)
    return [f"result {r['code']}: {miss}" for r in _results(derived)
            if (miss := _inexact(models[r["code"]], r["params"]))]


def check_declared_params(ruleset: AnyRuleset, outcome: Outcome, what: str) -> None:
    """Every violation's and event's params of ``outcome``, and its derived facts, are
    exactly what the ruleset declares."""
    body = outcome.model_dump(mode="json")
    misses = [*params_misses(ruleset.catalogue, body),
              *derived_misses(ruleset.derived_model, body)]
    assert not misses, f"{ruleset.id}: {what}:\n" + "\n".join(misses[:40])

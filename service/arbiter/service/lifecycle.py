"""The request lifecycle, written once for every transport: read strictly → check the
limits → fill in the board (asking Redis once for a board this replica lacks) → check
the state's signature → judge → sign the resulting state → answer.

REST routes, GraphQL resolvers and the CLI each parse their own wire format, call one
method of ``Service`` and map what it returns, or the typed problem it raises
(``service.problems``, and the engine's ``InvalidInput``), back to their own:

- whole requests (REST, the CLI; GraphQL's new game and boards, their inputs written as
  the body REST would get) hand in the body as it came: ``validate``,
  ``validate_batch``, ``new_game``, ``query``, ``put_board`` and ``get_board`` answer
  with the JSON the client gets;
- a transport that asks one state several questions (GraphQL) opens the state once
  (``open``) and asks each of the same ``Opened``: ``judge``, ``judge_batch``, ``ask``
  (a patch answer is made against the state as ``open`` received it).

Both kinds go through the same steps: ``_open`` (limits, board, signature) and ``_rule``
(judge, sign, answer). The synchronous work of a request runs under its compute budget
(``Compute``), in a worker thread or, for one small action, on the event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, TypeAdapter, ValidationError

from arbiter.engine.canonical import canonical_json, sha256
from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.outcome import Mode
from arbiter.engine.registry import AnyRuleset
from arbiter.engine.ruleset import Query
from arbiter.service.answer_cache import Answers, digest
from arbiter.service.boards import BoardStore
from arbiter.service.catalogue import BoardStored
from arbiter.service.compute import Compute
from arbiter.service.contract import (
    Envelope,
    HiddenShown,
    Returns,
    SealedOrders,
    View,
    contract,
)
from arbiter.service.envelopes import Envelopes, private_of
from arbiter.service.hidden import CLEAR, Hiding, Opening
from arbiter.service.issuing import Issuing
from arbiter.service.limits import Limits
from arbiter.service.opened import Judged, Opened
from arbiter.service.problems import BoardNotFound, Malformed, reroot
from arbiter.service.reading import parse_request, whole_state
from arbiter.service.returns import Held, Returned
from arbiter.service.sealing import Sealer
from arbiter.service.signing import Signer, StateSignature, draw_seed
from arbiter.service.writing import outcome_json

T = TypeVar("T")
# A single action on a state no larger than this (body and kept board together) is judged
# on the event loop itself: it takes a millisecond or two, and the hop to a worker thread
# cost 40% of a small validate's throughput (docs/performance.md). Bounded by this size,
# one action and the loop's share (``LoopShare``), it holds the probes no longer.
INLINE_BYTES = 32 << 10
# Counts the violations found, by ruleset and code (the metrics').
Counter = Callable[[str, Sequence[str]], None]


@dataclass(frozen=True, slots=True)
class Read:
    """A whole request read: its model, its whole state and the id of its board when the
    state named it."""

    request: Any
    state: BaseModel
    board: str | None
    opening: Opening = CLEAR


class Service:
    def __init__(self, limits: Limits, compute: Compute, boards: BoardStore, signer: Signer,
                 answers: Answers, count_violations: Counter | None = None,
                 issuing: Issuing | None = None, hiding: Hiding | None = None) -> None:
        self.limits = limits
        # Who may start a game: by default whoever may when nothing is signed.
        self.issuing = issuing or Issuing(issuer_keys=False, signs=signer.on)
        self.compute = compute
        self.boards = boards
        self.signer = signer
        self.answers = answers
        self.count_violations = count_violations
        # Hidden fields sealed with the state keys (none without: a view withholds them),
        # and the envelopes of sealed orders, with the same keys.
        self.hiding = hiding or Hiding(Sealer())
        self.envelopes = Envelopes(self.hiding.sealer)

    # -- whole requests --------------------------------------------------------------------

    async def validate(self, ruleset: AnyRuleset, body: bytes, document: Any = None) -> bytes:
        """``POST /v1/rulesets/{id}/validate``: the answer's JSON."""
        document = _document(body, document)

        def work() -> bytes:
            read = self._read(ruleset, contract(ruleset).validate_request, body, document)
            req = read.request
            opened = self._open(ruleset, read, req.signature, [(req.action, "/action")])
            action = self._gathered(opened, req.action, getattr(req, "envelopes", ()))
            returned = Returned(req.returns, lambda: document["state"],
                                lambda: opened.state.model_dump(mode="json"))
            written = outcome_json(self._rule(opened, action, req.mode, returned)[0].fields)
            self.limits.check_size(len(written))
            return written

        inline = self._small(ruleset, body, document)
        return await self._with_board(ruleset, lambda: self.compute.run(work, inline))

    async def validate_batch(self, ruleset: AnyRuleset, body: bytes,
                             document: Any = None) -> bytes:
        """``POST /v1/rulesets/{id}/validate-batch``: each outcome written as it is judged,
        its state dropped once written, and the answer measured as it grows, so memory
        stays that of one or two states."""
        document = _document(body, document)

        def work() -> bytes:
            read = self._read(ruleset, contract(ruleset).batch_request, body, document)
            req = read.request
            # Predicted before judging: the body's size stands for the state's.
            self.limits.check_outcomes(len(req.actions), len(body), req.returns == "state")
            opened = self._open(ruleset, read, req.signature,
                                [(a, f"/actions/{i}") for i, a in enumerate(req.actions)])
            returned = Returned(req.returns, lambda: document["state"],
                                lambda: opened.state.model_dump(mode="json"))
            parts, size = [], 0
            for judged in self._rule_all(opened, req.actions, req.mode == "sequence",
                                         req.strictness, returned):
                parts.append(part := outcome_json(judged.fields))
                size += len(part) + 1
                self.limits.check_size(size, f"the outcomes of the first {len(parts)} "
                                       f"actions of {len(req.actions)}")
            return b'{"outcomes":[' + b",".join(parts) + b"]}"

        return await self._with_board(ruleset, lambda: self.compute.run(work))

    async def new_game(self, ruleset: AnyRuleset, body: bytes, document: Any = None, *,
                       issuer: bool = False) -> bytes:
        """``POST /v1/rulesets/{id}/new-game``: a game's first state, from the setup the
        body sends, checked as every state is, with a seed the service draws when the
        state has one (digital mode), signed when the service signs states. Only for a
        caller that may start games (``issuer``: it holds an issuer key; ``issuing``),
        refused before its body is read."""
        self.issuing.check(issuer)
        document = _document(body, document)
        seed = draw_seed()

        def work() -> bytes:
            # A game the service seals starts from its own shuffle of what the rules keep
            # face down: whoever sets it up does not know the order either.
            sealing = self.hiding.sealer.on and bool(ruleset.information.hidden)
            sent = self.hiding.shuffled(ruleset, document) if sealing else document
            read = self._read(ruleset, contract(ruleset).new_game_request,
                              body if sent is document else orjson.dumps(sent), sent)
            first = ruleset.start(read.state, seed, read.board)
            signature = self.signer.sign(ruleset, first.canonical) if self.signer.on else None
            state, state_hash = first.state, first.canonical.hash()
            if sealing and self.hiding.seals(state):
                state = self.hiding.seal(ruleset, state)
                state_hash = sha256(canonical_json(state))
            return orjson.dumps({"ruleset": ruleset.id, "ruleset_version": ruleset.version,
                                 "state": state, "state_hash": state_hash,
                                 "signature": signature.model_dump() if signature else None})

        return await self._with_board(ruleset, lambda: self.compute.run(work))

    async def seal_orders(self, ruleset: AnyRuleset, body: bytes, document: Any = None
                          ) -> bytes:
        """``POST /v1/rulesets/{id}/seal-orders``: a player's orders judged as given alone
        and, when legal, sealed as an envelope for that player and this state."""
        private = private_of(ruleset)
        request = contract(ruleset).seal_request
        assert private is not None and request is not None  # the route is the ruleset's
        document = _document(body, document)

        def work() -> bytes:
            read = self._read(ruleset, request, body, document)
            opened = self._open(ruleset, read, read.request.signature,
                                [(read.request.action, "/action")])
            return self.sealed(opened, read.request.action).model_dump_json().encode()

        return await self._with_board(ruleset, lambda: self.compute.run(work))

    def sealed(self, opened: Opened, action: Any) -> SealedOrders:
        """A player's orders (an action of ``Private.action``'s type) judged alone against
        ``opened`` and, when legal, sealed for that player and this state
        (``seal_orders``; GraphQL's ``sealOrders``)."""
        ruleset = opened.ruleset
        private = private_of(ruleset)
        assert private is not None  # asked only of a ruleset with sealed orders
        parsed = ruleset.parse_action(action)
        if getattr(parsed, "type", None) != private.action:
            raise Malformed([Problem("/action/type", f"the orders to seal go as a "
                                     f"{private.action}, given alone")])
        outcome = opened.position().ruling(parsed).outcome
        answer = SealedOrders(legal=outcome.legal, violations=outcome.violations)
        if not outcome.legal:
            return answer
        envelope, receipt = self.envelopes.seal(
            ruleset, opened.position().canonical().hash(), parsed.player, parsed)
        return answer.model_copy(update={"envelope": envelope, "receipt": receipt})

    async def unseal_orders(self, ruleset: AnyRuleset, body: bytes, document: Any = None
                            ) -> bytes:
        """``POST /v1/rulesets/{id}/unseal-orders``: an envelope opened for the player who
        sealed it (who holds its receipt), for the state it was sealed for."""
        request = contract(ruleset).unseal_request
        assert request is not None  # the route is the ruleset's
        document = _document(body, document)

        def work() -> bytes:
            read = self._read(ruleset, request, body, document)
            req = read.request
            opened = self._open(ruleset, read, req.signature)
            return self.unsealed(opened, req.envelope, req.receipt).model_dump_json().encode()

        return await self._with_board(ruleset, lambda: self.compute.run(work))

    def unsealed(self, opened: Opened, envelope: Envelope, receipt: str) -> BaseModel:
        """An envelope opened for the one holding its receipt (``unseal_orders``;
        GraphQL's ``unsealOrders``): the ruleset's ``UnsealedOrders``."""
        answer = contract(opened.ruleset).unsealed
        assert answer is not None  # asked only of a ruleset with sealed orders
        action = self.envelopes.unseal(opened.ruleset, opened.position().canonical().hash(),
                                       envelope, receipt)
        return answer(player=envelope.player, action=action)

    async def view(self, ruleset: AnyRuleset, body: bytes, document: Any = None) -> bytes:
        """``POST /v1/rulesets/{id}/view``: the state as a player may see it."""
        document = _document(body, document)

        def work() -> bytes:
            read = self._read(ruleset, contract(ruleset).view_request, body, document)
            opened = self._open(ruleset, read, read.request.signature)
            opened.sent = document["state"]
            return self.seen(opened, read.request.player).model_dump_json().encode()

        return await self._with_board(ruleset, lambda: self.compute.run(work))

    def seen(self, opened: Opened, player: str | None, at: str = "/player") -> View:
        """``opened`` as ``player`` may see it (``view``; GraphQL's ``view``)."""
        if player is not None and player not in opened.position().compiled.players:
            raise Malformed([Problem(at, f"{player!r} is not a player of this state")])
        state = self.hiding.view(opened.ruleset, opened.sent, opened.opening)
        hidden = [HiddenShown(pointer=pointer, count=handle["count"],
                              sealed=handle["sealed"] is not None)
                  for pointer, handle in self.hiding.handles(opened.ruleset, state)]
        return View(ruleset=opened.ruleset.id, state=state,
                    state_hash=sha256(canonical_json(state)), hidden=hidden)

    async def query(self, ruleset: AnyRuleset, query: Query, body: bytes,
                    document: Any = None) -> bytes:
        """``POST /v1/rulesets/{id}/{query}``: the answer's JSON, through the cache (a
        query answers facts, never a state: its state is checked when signed, or when
        signatures are required, and nothing is signed). The body is read only on a miss:
        a hit answers from the body's digest."""
        model = contract(ruleset).query_requests[query.name]
        openings: list[Opening] = []

        def request() -> Any:
            read = self._read(ruleset, model, body, _document(body, document))
            opened = self._open(ruleset, read, getattr(read.request, "signature", None))
            openings.append(opened.opening)
            asked = read.request.model_copy(update={"state": opened.state})
            return self._gathered(opened, asked, getattr(asked, "envelopes", ()))

        asked = self.hiding.query(ruleset, query, lambda: openings[-1])
        return await self._with_board(
            ruleset, lambda: self.answers.of_body(ruleset, asked, body, request))

    async def put_board(self, ruleset: AnyRuleset, board: str, body: bytes) -> BoardStored:
        """``PUT /v1/rulesets/{id}/boards/{board}``: keep a board under its id (the id must
        be its content's)."""
        shape = ruleset.boards
        assert shape is not None  # the transport answers a ruleset without boards itself

        def work() -> BoardStored:
            try:
                model = shape.board_model.model_validate_json(body, strict=True)
            except ValidationError as exc:
                raise Malformed.of(exc, _document(body, None)) from None
            self.limits.check_state(model, "")
            self.boards.store(ruleset, board, orjson.loads(body), model, "")
            return BoardStored(board=board, fields=list(shape.fields))

        return await self._with_board(ruleset, lambda: self.compute.run(work))

    async def get_board(self, ruleset: AnyRuleset, board: str) -> BoardStored:
        """``GET /v1/rulesets/{id}/boards/{board}``: the board this service holds, or a
        ``BoardNotFound`` problem."""
        assert ruleset.boards is not None  # the transport answers a ruleset without boards
        if await self.boards.fetch(ruleset, board) is None:
            raise BoardNotFound(ruleset.id, board, "")
        return BoardStored(board=board, fields=list(ruleset.boards.fields))

    # -- one state, several questions ------------------------------------------------------

    async def open(self, ruleset: AnyRuleset, state: Any, signature: Any = None) -> Opened:
        """A state as JSON (with its signature as JSON, or None) opened to be asked
        questions: read as strictly as a REST body's state (a map's keys in the client's
        order), within the limits, its board filled in, its signature checked."""
        try:
            written = orjson.dumps(state)
        except orjson.JSONEncodeError:
            written = b""  # an integer past 64 bits: the model's bounds refuse it
        sent = _signature(signature)
        model = contract(ruleset).state_request

        def work() -> Opened:
            read = self._read_state(ruleset, model, state, written)
            opened = self._open(ruleset, read, sent)
            opened.digest, opened.size, opened.sent = digest(written), len(written), state
            return opened

        return await self._with_board(ruleset, lambda: self.compute.run(work))

    async def judge(self, opened: Opened, action: Any, mode: Mode = "strict",
                    returns: Returns = "state", envelopes: Sequence[Any] = ()) -> Judged:
        """One action (as JSON) judged against ``opened``, its resulting state returned as
        ``returns`` says (a patch against the state as ``opened`` was sent); its answer
        counts against the request's answer limit with the other questions'. With the
        ``envelopes`` of sealed orders (as JSON), their orders added to the action's."""

        def work() -> Judged:
            self.limits.check_outcomes(1, opened.size, returns == "state", add_up=True)
            parsed = self._action(opened.ruleset, action, ("action",))
            self._refuse_draws(opened, [(parsed, "/action")])
            parsed = self._gathered(opened, parsed, envelopes_of(envelopes))
            return self._rule(opened, parsed, mode, _returned(returns, opened))[0]

        return await self.compute.run(work)

    async def judge_batch(self, opened: Opened, actions: list[Any], sequence: bool,
                          strictness: Mode = "strict", returns: Returns = "state"
                          ) -> list[Judged]:
        """Several actions (as JSON) judged against ``opened``, each alone or in order (in
        a sequence, each patch against the state the action before produced)."""

        def work() -> list[Judged]:
            self.limits.check_batch(len(actions))
            self.limits.check_outcomes(len(actions), opened.size, returns == "state",
                                       add_up=True)
            parsed = [self._action(opened.ruleset, a, ("actions", i))
                      for i, a in enumerate(actions)]
            self._refuse_draws(opened, [(a, f"/actions/{i}") for i, a in enumerate(parsed)])
            return list(self._rule_all(opened, parsed, sequence, strictness,
                                       _returned(returns, opened)))

        return await self.compute.run(work)

    async def ask(self, opened: Opened, query: Query, arguments: dict[str, Any]) -> BaseModel:
        """A derived question (its arguments as JSON, the state aside) of ``opened``,
        through the cache."""

        def request() -> BaseModel:
            asked = {k: v for k, v in arguments.items() if k != "envelopes"}
            try:
                req = query.request.model_validate({"state": opened.state, **asked})
            except ValidationError as exc:
                raise Malformed.of(exc, arguments, subject="arguments") from None
            self.limits.check_steps(req, skip=("state",))
            gathered: BaseModel = self._gathered(
                opened, req, envelopes_of(arguments.get("envelopes") or ()))
            return gathered

        asked = self.hiding.query(opened.ruleset, query, lambda: opened.opening)
        return await self.answers.of_question(opened.ruleset, asked, opened.digest,
                                              opened.size, arguments, request)

    # -- the steps ---------------------------------------------------------------------------

    def _read(self, ruleset: AnyRuleset, model: type[BaseModel], body: bytes,
              document: Any, subject: str = "request") -> Read:
        """Hidden fields opened → strict parse → limits → board: the request, and the whole
        state it carries."""
        sent = document.get("state") if isinstance(document, dict) else None
        state_json, opening = self.hiding.open(ruleset, sent)
        if opening.hides:
            document = {**document, "state": state_json}
            body = orjson.dumps(document)
        parsed = parse_request(self.boards, ruleset, model, body, document, subject)
        self.limits.check_request(parsed.request)
        sent = document.get("state") if isinstance(document, dict) else None
        state, board = whole_state(self.boards, ruleset, parsed, sent)
        if state is not parsed.request.state:  # its board was not in the request parsed
            self.limits.check_state(state)
        return Read(parsed.request, state, board, opening)

    def _read_state(self, ruleset: AnyRuleset, model: type[BaseModel], state: Any,
                    written: bytes) -> Read:
        """``_read`` for a state sent alone (its JSON ``written``, or b"" when it cannot
        be written: the model's python reading then refuses it)."""
        if not written:
            try:
                model.model_validate({"state": state})
            except ValidationError as exc:
                raise Malformed.of(exc, {"state": state}, subject="state") from None
        return self._read(ruleset, model, b'{"state":' + written + b"}", {"state": state},
                          "state")

    def _open(self, ruleset: AnyRuleset, read: Read, signature: StateSignature | None,
              actions: Sequence[tuple[Any, str]] = ()) -> Opened:
        """The state read, its signature checked (before anything is judged): refused
        unless it is the state its signature was made for, or when an action (each with
        its pointer) reports a draw its signed game makes itself."""
        opened = Opened(ruleset, read.state, read.board, opening=read.opening)
        if self.signer.check(signature):
            assert signature is not None
            self.signer.verify(ruleset, signature, opened.position().canonical())
            opened.signed = True
        self._refuse_draws(opened, actions)
        return opened

    def _gathered(self, opened: Opened, resolving: Any, envelopes: Sequence[Any]) -> Any:
        """``resolving`` with the orders the envelopes sent beside it hold (each opened for
        its player and this state); itself without any."""
        if not envelopes:
            return resolving
        return self.envelopes.gather(opened.ruleset, opened.position().canonical().hash(),
                                     opened.ruleset.parse_action(resolving)
                                     if hasattr(resolving, "root") else resolving, envelopes)

    def _refuse_draws(self, opened: Opened, actions: Sequence[tuple[Any, str]]) -> None:
        """A signed game's draws are the service's to make; a sealed game's are unseen
        until made, and a view's cannot be made at all."""
        if opened.signed:
            self.signer.refuse_draws(opened.ruleset, opened.state, actions)
        if opened.opening.hides:
            self.hiding.refuse(opened.ruleset, opened.opening, actions)

    def _rule(self, opened: Opened, action: Any, mode: Mode, returned: Returned,
              before: Held | None = None) -> tuple[Judged, dict[str, Any] | None]:
        """Judge one action against ``opened``, sign a legal action's resulting state when
        the state judged was signed, and answer as the request asked (a patch against
        ``before``, default the state sent); with the resulting state's JSON."""
        ruling = opened.position().ruling(action, mode, opened.board)
        outcome = ruling.outcome
        if opened.opening.hides:
            outcome = self.hiding.conceal(opened.ruleset, opened.opening, outcome,
                                          opened.ruleset.parse_action(action), ruling.drawn)
        if self.count_violations is not None and outcome.violations:
            self.count_violations(opened.ruleset.id, [v.code for v in outcome.violations])
        signature = None
        if opened.signed and outcome.legal and ruling.result is not None:
            # Only a legal action's state: one advisory mode applied despite its violations
            # is no state the rules reach, and comes back unsigned.
            signature = self.signer.sign(opened.ruleset, ruling.result.canonical)
        judged = Judged(returned.fields(outcome, signature, before), opened, ruling, action, mode,
                        outcome.state)
        return judged, outcome.state

    def _rule_all(self, opened: Opened, actions: Sequence[Any], sequence: bool, mode: Mode,
                  returned: Returned) -> Iterator[Judged]:
        """Each action judged against ``opened``, or in order, each against the state the
        one before produced (its patch against that state too), stopping after one not
        applied; a malformed action's problems point at ``/actions/<i>``. A generator: a
        batch's answers are written as they are judged, its states never all held."""
        current, before = opened, None
        for i, action in enumerate(actions):
            try:
                judged, state = self._rule(current, action, mode, returned, before)
            except InvalidInput as exc:
                raise reroot(exc, ("actions", i)) from None
            yield judged
            if sequence:
                after = judged.after()
                if after is None:
                    return
                current, before = after, returned.next(before, judged.fields, state)

    async def _with_board(self, ruleset: AnyRuleset, attempt: Callable[[], Awaitable[T]]
                          ) -> T:
        """``attempt()``, and once more after fetching from Redis a board this replica
        did not keep; the boards kept meanwhile are sent to Redis."""
        try:
            try:
                return await attempt()
            except BoardNotFound as missing:
                if await self.boards.fetch(ruleset, missing.board) is None:
                    raise
                return await attempt()
        finally:
            self.boards.publish()

    def _action(self, ruleset: AnyRuleset, value: Any, root: tuple[str | int, ...]) -> Any:
        """An action sent as JSON, as the ruleset's action, within the limits."""
        try:
            action = ruleset.action_model.model_validate(value)
        except ValidationError as exc:
            raise Malformed.of(exc, value, root, "/".join(map(str, root))) from None
        self.limits.check_steps(action, *root)
        return action

    def _small(self, ruleset: AnyRuleset, body: bytes, document: Any) -> bool:
        """The body and the board it names (kept here) within ``INLINE_BYTES``."""
        if len(body) > INLINE_BYTES:
            return False
        if ruleset.boards is None or b'"board"' not in body:
            return True
        state = document.get("state") if isinstance(document, dict) else None
        named = state.get("board") if isinstance(state, dict) else None
        if not isinstance(named, str):
            return True
        kept = self.boards.local(ruleset.id, named)
        return kept is not None and len(body) + kept.size <= INLINE_BYTES


def _document(body: bytes, document: Any) -> Any:
    """The body's JSON (as the transport's strict reading parsed it, else parsed now);
    None when the body is not JSON (its parse says where it breaks)."""
    if document is not None:
        return document
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return None


def _signature(value: Any) -> StateSignature | None:
    """A signature sent as JSON."""
    if value is None:
        return None
    try:
        return StateSignature.model_validate(value)
    except ValidationError as exc:
        raise Malformed.of(exc, value, ("signature",), "signature") from None


def envelopes_of(sent: Sequence[Any]) -> list[Envelope]:
    """Envelopes sent as JSON (GraphQL's arguments), as their model."""
    try:
        return TypeAdapter(list[Envelope]).validate_python(list(sent))
    except ValidationError as exc:
        raise Malformed.of(exc, list(sent), ("envelopes",), "envelopes") from None


def _returned(returns: Returns, opened: Opened) -> Returned:
    """``returns`` for the questions asked of ``opened``: a patch is made against the
    state as it was sent."""
    return Returned(returns, lambda: opened.sent,
                    lambda: opened.state.model_dump(mode="json"))

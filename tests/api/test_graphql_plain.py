"""Plain answer objects completed by their plans (``graphql_plain``) answer exactly as
graphql-core completing them field by field: every golden case over GraphQL, byte for
byte, and the shapes a selection can take (aliases, fragments, directives, __typename),
the values graphql-core refuses (a null where the type forbids one, an Int past 32 bits)
and the compute budget, each with the plans and without them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import strawberry
from pydantic import BaseModel
from starlette.testclient import TestClient

from api.golden_over_http import via_graphql
from api.test_golden_api import CASES
from arbiter.graphql import plain as graphql_plain
from arbiter.graphql.cost import budgeted_execution
from arbiter.graphql.plain import PlainPlans
from arbiter.service.account import opened
from test_golden_engine import REGISTRY, run_engine


class Used:
    """How many objects the plans completed, counted while the plans are on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.objects = 0
        made = PlainPlans._make

        def counted(plans: PlainPlans, *args: Any) -> Any:
            plan = made(plans, *args)
            if plan is None:
                return None

            def completed(source: Any) -> Any:
                done = plan(source)
                self.objects += 1
                return done

            return completed

        monkeypatch.setattr(PlainPlans, "_make", counted)


def plans_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PlainPlans, "plan", lambda self, object_type, selection: None)


class Recorded:
    """The GraphQL requests a helper makes, and the bytes of each answer."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.base_url = client.base_url
        self.seen: list[tuple[dict[str, Any], bytes]] = []

    def post(self, url: str, json: dict[str, Any]) -> Any:
        response = self.client.post(url, json=json)
        self.seen.append((json, response.content))
        return response


@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_every_golden_case_answers_the_same_without_the_plans(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, name: str,
        case: dict[str, Any]) -> None:
    asked = Recorded(client)
    ruleset = REGISTRY.get(case["ruleset"])
    assert ruleset is not None
    # Recorded stands in for the client: it has the two members via_graphql uses.
    via_graphql(asked, ruleset, case, run_engine(case)[1])  # type: ignore[arg-type]
    assert asked.seen
    plans_off(monkeypatch)
    for body, content in asked.seen:
        assert client.post("/graphql", json=body).content == content, body["query"]


def test_a_reachable_answer_is_completed_by_the_plans(client: TestClient,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from arbiter.rulesets.hex_maneuver.examples import EXAMPLE_STATE

    query = ("query($s: HexManeuverState!) { hexManeuver(state: $s) { reachable(army: "
             '"red-1") { army destinations { hex { q r } cost path { q r } inRange { kind '
             "id } } } } }")
    used = Used(monkeypatch)
    body = {"query": query, "variables": {"s": EXAMPLE_STATE}}
    fast = client.post("/graphql", json=body).content
    assert used.objects > 10, used.objects
    plans_off(monkeypatch)
    assert client.post("/graphql", json=body).content == fast


# -- the shapes of a selection, on a schema of its own ---------------------------------

class PointModel(BaseModel):
    q: int
    r: int


class LineModel(BaseModel):
    name: str
    points: list[PointModel]
    tag: str | None = None
    end: PointModel | None = None


@strawberry.type
class Point:
    q: int
    r: int


@strawberry.type
class Line:
    name: str
    points: list[Point]
    tag: str | None
    end: Point | None


LINES: list[Any] = []


@strawberry.type
class Query:
    @strawberry.field
    def lines(self) -> list[Line]:
        return LINES

    @strawberry.field
    def line(self) -> Line:
        return LINES[0]


def execute(query: str, budget_ms: int = 0, spent: float = 0.0,
            variables: dict[str, Any] | None = None) -> dict[str, Any]:
    schema = strawberry.Schema(query=Query, execution_context_class=budgeted_execution(
        lambda _context: budget_ms))

    async def run() -> Any:
        with opened() as account:
            account.seconds = spent
            return await schema.execute(query, variable_values=variables)

    result = asyncio.run(run())
    return {"data": result.data,
            "errors": [e.formatted for e in result.errors or []]}


@pytest.fixture
def lines() -> Iterator[list[Any]]:
    LINES[:] = [LineModel(name=f"l{i}", points=[PointModel(q=i, r=-j) for j in range(i)],
                          tag="t" if i % 2 else None,
                          end=PointModel(q=i, r=i) if i % 3 else None) for i in range(6)]
    yield LINES
    LINES.clear()


SHAPES = {
    "plain": "{ lines { name points { q r } tag end { q } } }",
    "aliases and a field twice": "{ lines { n: name name points { a: q q } p2: points { r } } }",
    "typename": "{ lines { __typename points { __typename q } } }",
    "fragments": ("query { lines { ...L points { ... on Point { r } } } } "
                  "fragment L on Line { name points { q } }"),
    "directives": ("query($yes: Boolean!) { lines { name @include(if: $yes) "
                   "tag @skip(if: $yes) points { q @skip(if: $yes) r } } }"),
}


@pytest.mark.usefixtures("lines")
@pytest.mark.parametrize("shape", list(SHAPES))
def test_each_shape_of_a_selection_answers_as_graphql_core(
        shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    used = Used(monkeypatch)
    fast = execute(SHAPES[shape], variables={"yes": True})
    assert used.objects >= len(LINES), used.objects
    assert not fast["errors"], fast["errors"]
    plans_off(monkeypatch)
    assert execute(SHAPES[shape], variables={"yes": True}) == fast


@pytest.mark.parametrize("broken", ["null in a non-null", "an Int past 32 bits",
                                    "not a list"])
def test_what_graphql_core_refuses_it_still_refuses_at_the_same_path(
        lines: list[Any], broken: str, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = lines[4]
    if broken == "null in a non-null":
        bad.points[2] = PointModel.model_construct(q=None, r=1)
    elif broken == "an Int past 32 bits":
        bad.points[1] = PointModel.model_construct(q=2**40, r=1)
    else:
        lines[4] = LineModel.model_construct(name="bad", points=7, tag=None, end=None)
    query = "{ lines { name points { q r } } }"
    fast = execute(query)
    assert fast["errors"] and fast["errors"][0]["path"][:2] == ["lines", 4], fast["errors"]
    plans_off(monkeypatch)
    assert execute(query) == fast


def test_the_plans_complete_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Completed by the plans, a large answer still counts against the budget: 1 ms left
    of 50 is not enough for 20,000 lines of 10 points."""
    LINES[:] = [LineModel(name="x", points=[PointModel(q=j, r=j) for j in range(10)])
                for _ in range(20_000)]
    try:
        query = "{ lines { name points { q r } } }"
        for plans in (True, False):
            if not plans:
                plans_off(monkeypatch)
            answer = execute(query, budget_ms=50, spent=0.049)
            limits = {e["extensions"]["limit"] for e in answer["errors"]}
            assert limits == {"ARBITER_COMPUTE_BUDGET_MS"}, (plans, answer["errors"][:2])
        assert execute(query)["errors"] == []  # with no budget, the same answer completes
    finally:
        LINES.clear()


def test_a_model_class_is_never_awaited_and_anything_else_is_asked() -> None:
    asked: list[Any] = []
    check = graphql_plain.never_awaited(lambda value: asked.append(value) or False)
    point = PointModel(q=1, r=2)
    assert check(point) is False and check(point) is False
    assert asked == []

    class Awaitable(BaseModel):
        def __await__(self) -> Any:
            yield

    other = object()
    check(Awaitable())
    check(other)
    assert [type(a) for a in asked] == [Awaitable, object]

"""A sixth ruleset touches only its own folder and its golden cases. A copy of the toy
(tests/toy/tic_tac_toe), its catalogue's id the one line changed to
``noughts_and_crosses``, is imported under that name from a temporary folder, with a copy
of the toy's golden cases as its own, and registered beside the five built-in rulesets;
nothing else is edited, in service/ or anywhere. It then gets every generic check the
built-in rulesets get:

- the generic contract (tests/contract/generic.py), on positions played on from its
  example and golden states (it has no board strategy in tests/contract/boards.py);
- the schema export (``export_schema.render(registry)``): its files beside the others',
  which do not change;
- ``create_app(settings, registry)`` answers its validate and legal-actions over REST and
  GraphQL;
- against a real server of the six: its golden cases through the engine, REST and
  GraphQL alike; the hostile corpus (tests/hardening/corpus.py) on every endpoint it
  has; the legal-actions listing over HTTP; and the Python client generated from the
  six's OpenAPI document, asked for a verdict;
- the TypeScript client generated from that document compiles (with the client's own
  toolchain, clients/typescript/node_modules: ``make test`` installs it when npm is
  there; without it the check is skipped outside CI and fails in CI).
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

import golden
from api.golden_over_http import same_verdict
from arbiter.cli.export_schema import render
from arbiter.engine.registry import AnyRuleset, Registry
from arbiter.graphql.types import to_graphql
from arbiter.http.app import create_app
from arbiter.rulesets import builtin_registry
from arbiter.settings import Settings
from contract.generic import CONTRACT, listed_actions_validate_over_http
from contract.under_test import RulesetUnderTest, under_test
from hardening.corpus import check_graphql, check_rest, graphql_corpus, rest_corpus
from support import serve_one_more

SIXTH = "noughts_and_crosses"
ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toy"
TS_CLIENT = ROOT / "clients" / "typescript"
ENDPOINTS = ("validate", "validate-batch", "legal-actions")
STATE = {"players": [{"id": "alice", "mark": "X"}, {"id": "bob", "mark": "O"}],
         "board": ["X", None, None, None, "O", None, None, None, None], "turn": "alice"}
MOVE = {"type": "place", "player": "alice", "cell": 8}


def copy_the_toy(folder: Path) -> Path:
    """The toy's package as ``folder/noughts_and_crosses``, its catalogue's id changed, and
    its golden cases as ``folder/cases/noughts_and_crosses``; returns the cases' folder."""
    package = folder / SIXTH
    shutil.copytree(TOY / "tic_tac_toe", package, ignore=shutil.ignore_patterns("__pycache__"))
    catalogue = package / "catalogue.py"
    text = catalogue.read_text()
    assert text.count('build_catalogue(\n    "tic_tac_toe",') == 1
    catalogue.write_text(text.replace('build_catalogue(\n    "tic_tac_toe",',
                                      f'build_catalogue(\n    "{SIXTH}",'))
    cases = folder / "cases" / SIXTH
    cases.mkdir(parents=True)
    for path in (TOY / "cases").glob("*.json"):
        # A case's ``source`` cites the rule ids, which carry the ruleset's id.
        (cases / path.name).write_text(path.read_text().replace("tic_tac_toe/", f"{SIXTH}/"))
    return cases


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The folder the sixth ruleset is imported from (on ``sys.path`` for the module)."""
    folder = tmp_path_factory.mktemp("sixth")
    copy_the_toy(folder)
    sys.path.insert(0, str(folder))
    try:
        yield folder
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == SIXTH or m.startswith(SIXTH + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def sixth(folder: Path) -> AnyRuleset:
    ruleset: AnyRuleset = importlib.import_module(SIXTH).RULESET
    return ruleset


@pytest.fixture(scope="module")
def registry(sixth: AnyRuleset) -> Registry:
    registry = builtin_registry()
    registry.register(sixth)
    return registry


@pytest.fixture(scope="module")
def checked(sixth: AnyRuleset, folder: Path) -> RulesetUnderTest:
    return under_test(sixth, folder / "cases" / SIXTH)


@pytest.fixture(scope="module")
def http(folder: Path) -> Iterator[httpx.Client]:
    """A real server of the five and the sixth."""
    with serve_one_more(SIXTH, str(folder)) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        yield client


def cases_of(checked: RulesetUnderTest) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) | {"ruleset": SIXTH}
            for p in sorted(checked.cases.glob("*.json"))]


def test_the_copy_differs_from_the_toy_by_its_id_alone(folder: Path, registry: Registry,
                                                       sixth: AnyRuleset) -> None:
    changed = [p.name for p in sorted((folder / SIXTH).glob("*.py"))
               if p.read_text() != (TOY / "tic_tac_toe" / p.name).read_text()]
    assert changed == ["catalogue.py"]
    assert sixth.id == SIXTH and sixth.rules[0].id == f"{SIXTH}/turn.1"
    assert registry.ids() == sorted([*builtin_registry().ids(), SIXTH])
    assert len(registry.ids()) == 6


@pytest.mark.parametrize("check", list(CONTRACT))
def test_the_generic_contract(checked: RulesetUnderTest, check: str) -> None:
    CONTRACT[check](checked)


def test_the_schema_export_adds_its_files_and_changes_no_others(registry: Registry,
                                                                 sixth: AnyRuleset) -> None:
    five, six = render(builtin_registry()), render(registry)
    added = {f"jsonschema/{SIXTH}.state.json", f"jsonschema/{SIXTH}.action.json"}
    assert set(six) == set(five) | added
    assert all(six[name] == five[name] for name in five if name.startswith("jsonschema/"))
    assert json.loads(six[f"jsonschema/{SIXTH}.state.json"]) == \
        sixth.state_model.model_json_schema()
    openapi = json.loads(six["openapi.json"])
    assert {f"/v1/rulesets/{SIXTH}/{e}" for e in ENDPOINTS} <= set(openapi["paths"])
    assert "  noughtsAndCrosses(state: NoughtsAndCrossesState!" in six["schema.graphql"].decode()


def test_create_app_serves_it_over_rest_and_graphql(registry: Registry,
                                                    sixth: AnyRuleset) -> None:
    expected = sixth.validate(STATE, MOVE)
    with TestClient(create_app(Settings.from_env({}), registry)) as client:
        validated = client.post(f"/v1/rulesets/{SIXTH}/validate",
                                json={"state": STATE, "action": MOVE}).json()
        assert validated["legal"] and validated["state_hash"] == expected.state_hash
        listed = client.post(f"/v1/rulesets/{SIXTH}/legal-actions",
                             json={"state": STATE, "player": "alice", "limit": 2}).json()
        assert listed["actions"] == [{"type": "place", "player": "alice", "cell": 1},
                                     {"type": "place", "player": "alice", "cell": 2}]
        text = ("query($state: NoughtsAndCrossesState!, $action: NoughtsAndCrossesActionInput!)"
                " { noughtsAndCrosses(state: $state) { validate(action: $action) { legal "
                "stateHash } legalActions(player: \"alice\", limit: 1) { count } } }")
        variables = {"state": STATE, "action": to_graphql(sixth.action_model, MOVE)}
        asked = client.post("/graphql", json={"query": text, "variables": variables}).json()
    assert asked == {"data": {"noughtsAndCrosses": {
        "validate": {"legal": True, "stateHash": expected.state_hash},
        "legalActions": {"count": 1}}}}


@pytest.mark.server
def test_its_golden_cases_get_the_engines_verdict_over_rest_and_graphql(
        http: httpx.Client, checked: RulesetUnderTest) -> None:
    for case in cases_of(checked):
        engine = golden.run_engine(checked.ruleset, case)
        assert golden.expectation_misses(case, *engine) == [], case["description"]
        same_verdict(http, checked.ruleset, case, engine)


@pytest.mark.server
@pytest.mark.parametrize("endpoint", [*ENDPOINTS, "graphql"])
def test_the_hostile_corpus_gets_problems_naming_the_pointer(
        http: httpx.Client, registry: Registry, endpoint: str) -> None:
    entries = (graphql_corpus(registry, SIXTH) if endpoint == "graphql"
               else rest_corpus(registry, SIXTH, endpoint))
    url = "/graphql" if endpoint == "graphql" else f"/v1/rulesets/{SIXTH}/{endpoint}"
    check = check_graphql if endpoint == "graphql" else check_rest
    assert any(e.name == "very-long-id" for e in entries)
    failures = []
    for entry in entries:
        response = http.post(url, content=entry.body,
                             headers={"content-type": "application/json"})
        why = check(entry, response)
        if why:
            failures.append(f"{entry.id}: {why}")
    assert not failures, "\n".join(failures)


@pytest.mark.server
def test_the_listing_over_http_validates(http: httpx.Client, checked: RulesetUnderTest) -> None:
    listed_actions_validate_over_http(checked, http)


@pytest.fixture(scope="module")
def openapi(registry: Registry, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The OpenAPI document of the six, as ``make schema`` would write it."""
    path = tmp_path_factory.mktemp("schema") / "openapi.json"
    path.write_bytes(render(registry)["openapi.json"])
    return path


@pytest.mark.server
def test_the_python_client_generated_for_the_six_asks_it(http: httpx.Client, openapi: Path,
                                                         tmp_path: Path) -> None:
    package = tmp_path / "arbiter_client"
    shutil.copytree(ROOT / "clients" / "python" / "arbiter_client", package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, str(ROOT / "clients" / "python" / "generate.py"),
                    "--schema", str(openapi), "--out", str(package)], check=True,
                   capture_output=True)
    script = ("import sys, json\nfrom arbiter_client import ArbiterClient\n"
              "client = ArbiterClient(sys.argv[1])\n"
              f"answer = client.{SIXTH}.validate({STATE!r}, {MOVE!r})\n"
              "print(json.dumps([type(answer).__name__, answer.legal, answer.state_hash]))\n")
    # A fresh interpreter, so the generated client is the one imported, not this one's.
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script, str(http.base_url)], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    name, legal, digest = json.loads(done.stdout)
    assert name == "NoughtsAndCrossesOutcome" and legal
    assert digest == http.post(f"/v1/rulesets/{SIXTH}/validate",
                               json={"state": STATE, "action": MOVE}).json()["state_hash"]


def test_the_typescript_client_generated_for_the_six_compiles(openapi: Path,
                                                              tmp_path: Path) -> None:
    tsc = TS_CLIENT / "node_modules" / "typescript" / "bin" / "tsc"
    node = shutil.which("node")
    if not tsc.is_file() or node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but the TypeScript client's toolchain is not installed "
                        "(make test installs it with npm)")
        pytest.skip("no node or clients/typescript/node_modules: run make test with npm")
    shutil.copytree(TS_CLIENT / "src", tmp_path / "src")
    shutil.copy(TS_CLIENT / "tsconfig.json", tmp_path / "tsconfig.json")
    generated = tmp_path / "src" / "generated"
    for args in (["--document", str(openapi), "--out", str(generated)],
                 ["-p", str(tmp_path / "tsconfig.json"), "--noEmit"]):
        tool = TS_CLIENT / "scripts" / "generate.mjs" if args[0] == "--document" else tsc
        done = subprocess.run([node, str(tool), *args], cwd=TS_CLIENT, capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    operations = (generated / "operations.ts").read_text()
    assert "export class NoughtsAndCrossesClient" in operations
    assert "readonly noughtsAndCrosses: NoughtsAndCrossesClient;" in operations

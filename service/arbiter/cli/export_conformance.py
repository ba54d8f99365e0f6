"""The conformance suite in ``conformance/``: every golden case of ``tests/cases/`` as a
neutral request and the answer a conforming engine must give (conformance/README.md,
conformance/schema.json), written by ``arbiter export-conformance`` (the cases, the manifest
and the README's contents table) and checked for drift by the tests and
``make conformance-check``.

A case's request is the HTTP request a client sends (``POST /v1/rulesets/<id>/validate`` or
the query's route, with its JSON body); its expectation is what the golden case asserts,
with each violation code and event kind given the rule id the ruleset's catalogue gives it
(a code enforces one rule), so an engine is judged on the rule it cites as well as the
code. Each case is filed under a rule (``_group``): of the rules its expected violations
cite (else the codes and kinds it asserts: events, order results, questions), the one
fewest cases cite; a case citing none is filed under the query it asks, as malformed
input (a 422), or as a legal action. Numbers (``<rule> #n``) count the cases of
a group in the order of their ids, within one version of the suite; the ids (the golden
case's path) are what stays.

The suite's version is semver, decided by comparing the cases written with those already
in the folder: a case removed, or its request or expectation changed, is a major version
(an engine that passed may now fail); a case added a minor one; any other change (a
description, a group) a patch. Writing the same cases again keeps the version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arbiter.engine.registry import Registry
from arbiter.rulesets import builtin_registry

SUITE = "arbiter-conformance"
FIRST_VERSION = "1.0.0"
MANIFEST = "manifest.json"
CASES = "cases"
README = "README.md"
# The README's contents table (``contents``), between these lines.
CONTENTS = ("<!-- contents: written by `make conformance` from the manifest -->\n",
            "<!-- end of contents -->\n")


def _dumps(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode()


def golden_cases(source: Path) -> list[tuple[str, str, dict[str, Any]]]:
    """(id, ruleset, case) of every golden case under ``source`` (``tests/cases``), the id
    its path without ``.json``, in the order of their paths (as tests/golden.py reads
    them)."""
    out = []
    for path in sorted(source.glob("*/**/*.json")):
        rel = path.relative_to(source)
        out.append((rel.with_suffix("").as_posix(), rel.parts[0],
                    json.loads(path.read_text())))
    return out


def vector(case_id: str, ruleset: Any, case: dict[str, Any]) -> dict[str, Any]:
    """The suite's case of one golden case (conformance/schema.json), without its group
    (``_group``)."""
    catalogue = ruleset.catalogue
    if "query" in case:
        path, body = f"/v1/rulesets/{ruleset.id}/{case['query']}", case["request"]
    else:
        path = f"/v1/rulesets/{ruleset.id}/validate"
        body = {"state": case["state"], "action": case["action"],
                "mode": case.get("mode", "strict")}
    given = case["expect"]
    expect: dict[str, Any]
    if isinstance(given.get("status"), int):  # an HTTP status; a word is the answer's own
        expect = {"status": given["status"], "pointers": sorted(given["pointers"])}
    elif "query" in case:
        expect = {"status": 200, "answer": given}
    else:
        outcome: dict[str, Any] = {}
        for key in ("legal", "applied", "reversible"):
            if key in given:
                outcome[key] = given[key]
        if "codes" in given:
            outcome["violations"] = [{"code": code, "rule": catalogue.codes[code].rule}
                                     for code in sorted(given["codes"])]
        if "events" in given:
            outcome["events"] = [{"kind": kind, "rule": catalogue.events[kind].rule}
                                 for kind in given["events"]]
        for key in ("state", "derived"):
            if key in given:
                outcome[key] = given[key]
        expect = {"status": 200, "outcome": outcome}
    out: dict[str, Any] = {"id": case_id, "ruleset": ruleset.id,
                           "description": case["description"]}
    if "source" in case:
        out["source"] = case["source"]
    out["request"] = {"method": "POST", "path": path, "body": body}
    out["expect"] = expect
    return out


def _rules_by_name(ruleset: Any) -> tuple[dict[str, str], dict[str, str]]:
    """The rule of each code (violations, and the codes the catalogue's data lists with a
    rule: phased_orders' order results) and of each kind (events, and the kinds the data
    lists: phased_orders' questions), as the catalogue publishes them."""
    catalogue = ruleset.catalogue
    codes = {code: ref.rule for code, ref in catalogue.codes.items()}
    kinds = {kind: ref.rule for kind, ref in catalogue.events.items()}
    for listed in catalogue.data.values():
        for entry in listed if isinstance(listed, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("rule"), str):
                if isinstance(entry.get("code"), str):
                    codes.setdefault(entry["code"], entry["rule"])
                if isinstance(entry.get("kind"), str):
                    kinds.setdefault(entry["kind"], entry["rule"])
    return codes, kinds


def _cited(names: tuple[dict[str, str], dict[str, str]], case: dict[str, Any]) -> list[str]:
    """The rules a case's expectation cites: its violations' when it expects some, else
    those of every code and kind it asserts (events, order results, questions)."""
    expect = case["expect"]
    violations = expect.get("outcome", {}).get("violations")
    if violations:
        return [v["rule"] for v in violations]
    codes, kinds = names
    found: list[str] = []
    stack = [expect.get("outcome", expect.get("answer"))]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            for key, rules in (("code", codes), ("kind", kinds)):
                name = value.get(key)
                if isinstance(name, str) and name in rules:
                    found.append(rules[name])
            stack.extend(value.values())
    return found


def _group(ruleset: Any, case: dict[str, Any], cited: list[str], counts: dict[str, int]
           ) -> str:
    """The rule a case is filed under: of those it cites, the one fewest of the ruleset's
    cases cite (the most particular: every turn of phased_orders tells ``orders_received``),
    the catalogue's first on a tie; a case citing none under its query, as malformed input,
    or as a legal action."""
    order = {rule.id: i for i, rule in enumerate(ruleset.catalogue.rules)}
    if cited:
        return min(cited, key=lambda rule: (counts[rule], order[rule]))
    if "answer" in case["expect"]:
        return f"{ruleset.id}/query/{case['request']['path'].rsplit('/', 1)[1]}"
    if case["expect"]["status"] != 200:
        return f"{ruleset.id}/input"
    return f"{ruleset.id}/legal"


def _groups(ruleset: Any, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The groups of a ruleset's cases: the catalogue's rules in its order, then malformed
    input, legal actions and the queries (by name); each group's case ids in order."""
    by_group: dict[str, list[str]] = {}
    for case in cases:
        by_group.setdefault(case["group"], []).append(case["id"])
    titles = {rule.id: rule.paraphrase for rule in ruleset.catalogue.rules}
    order = list(titles)
    rank = {g: (order.index(g) if g in titles else len(order), g) for g in by_group}
    return [{"group": g, "title": titles[g] if g in titles else _title(g),
             "cases": sorted(by_group[g])} for g in sorted(by_group, key=rank.__getitem__)]


def _title(group: str) -> str:
    kind = group.split("/", 1)[1]
    if kind.startswith("query/"):
        return f"the {kind.removeprefix('query/')} query"
    return {"input": "malformed input: a 422 with the JSON pointer of each bad field",
            "legal": "legal actions whose asserted facts cite no rule"}[kind]


def render(source: Path, previous: Path | None = None,
           registry: Registry | None = None) -> dict[str, bytes]:
    """Relative path -> file content of the suite built from the golden cases in
    ``source``; ``previous``, the folder's current suite, decides the version."""
    registry = registry or builtin_registry()
    by_ruleset: dict[str, list[dict[str, Any]]] = {}
    for case_id, ruleset_id, case in golden_cases(source):
        ruleset = registry.get(ruleset_id)
        if ruleset is None:
            raise KeyError(f"{case_id}: no ruleset {ruleset_id!r}")
        by_ruleset.setdefault(ruleset_id, []).append(vector(case_id, ruleset, case))
    files: dict[str, bytes] = {}
    rulesets: dict[str, Any] = {}
    for ruleset_id, cases in sorted(by_ruleset.items()):
        ruleset = registry.get(ruleset_id)
        assert ruleset is not None  # every case's ruleset was found above
        names = _rules_by_name(ruleset)
        cited = {case["id"]: sorted(set(_cited(names, case))) for case in cases}
        counts: dict[str, int] = {}
        for rules in cited.values():
            for rule in rules:
                counts[rule] = counts.get(rule, 0) + 1
        cases = [{**case, "group": _group(ruleset, case, cited[case["id"]], counts)}
                 for case in cases]
        groups = _groups(ruleset, cases)
        number = {case_id: (g["group"], n) for g in groups
                  for n, case_id in enumerate(g["cases"], 1)}
        for case in cases:
            group, n = number[case["id"]]
            ordered = {"id": case["id"], "ruleset": case["ruleset"], "group": group,
                       "number": n, **{k: v for k, v in case.items()
                                       if k not in ("id", "ruleset", "group")}}
            files[f"{CASES}/{case['id']}.json"] = _dumps(ordered)
        rulesets[ruleset_id] = {"ruleset_version": ruleset.version, "cases": len(cases),
                                "groups": groups}
    manifest = {
        "suite": SUITE,
        "version": _version(files, previous),
        "case_schema": "schema.json",
        "generated_from": "tests/cases",
        "cases": sum(r["cases"] for r in rulesets.values()),
        "rulesets": rulesets,
    }
    files[MANIFEST] = _dumps(manifest)
    if previous is not None and (previous / README).is_file():
        files[README] = with_contents((previous / README).read_text(), manifest).encode()
    return files


def contents(manifest: dict[str, Any]) -> str:
    """The README's table of the suite's version and cases per ruleset."""
    rows = [f"| `{r}` | {e['ruleset_version']} | {e['cases']} | {len(e['groups'])} |"
            for r, e in manifest["rulesets"].items()]
    n = len(manifest["rulesets"])
    return "\n".join([
        f"Version **{manifest['version']}**: {manifest['cases']} cases over {n} "
        f"ruleset{'' if n == 1 else 's'}.", "",
        "| ruleset | ruleset version | cases | groups |", "|---|---|---|---|", *rows, ""])


def with_contents(readme: str, manifest: dict[str, Any]) -> str:
    """``readme`` with its contents table (between the ``CONTENTS`` lines) made anew."""
    begin, end = CONTENTS
    if begin not in readme or end not in readme:
        raise ValueError(f"the suite's {README} has no contents lines ({begin.strip()})")
    head, rest = readme.split(begin, 1)
    return head + begin + contents(manifest) + end + rest.split(end, 1)[1]


def _version(files: dict[str, bytes], previous: Path | None) -> str:
    """The suite's version: the previous one, bumped by what changed (the module's
    docstring)."""
    if previous is None or not (previous / MANIFEST).is_file():
        return FIRST_VERSION
    old_version = str(json.loads((previous / MANIFEST).read_text())["version"])
    old = {p.relative_to(previous).as_posix(): p.read_bytes()
           for p in (previous / CASES).rglob("*.json")}
    new = {rel: content for rel, content in files.items() if rel.startswith(f"{CASES}/")}
    if old == new:
        return old_version
    major, minor, patch = (int(part) for part in old_version.split("."))

    def judged(content: bytes) -> Any:
        case = json.loads(content)
        return case["request"], case["expect"]

    if any(rel not in new or judged(old[rel]) != judged(new[rel]) for rel in old):
        return f"{major + 1}.0.0"
    if set(new) - set(old):
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}"


def _generated(out: Path) -> dict[str, bytes]:
    """The files of ``out`` the generator writes (the manifest, the cases and the README,
    whose contents table it makes; the rest of the README and the case schema are written
    by hand)."""
    found = {p.relative_to(out).as_posix(): p.read_bytes()
             for p in (out / CASES).rglob("*") if p.is_file()}
    for name in (MANIFEST, README):
        if (out / name).is_file():
            found[name] = (out / name).read_bytes()
    return found


def export(source: Path, out: Path, registry: Registry | None = None) -> list[Path]:
    """Write the suite into ``out``: the cases and the manifest, an earlier case no golden
    case gives any more removed."""
    files = render(source, out, registry)
    written = []
    for rel in set(_generated(out)) - set(files):
        (out / rel).unlink()
    for rel, content in sorted(files.items()):
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != content:
            path.write_bytes(content)
            written.append(path)
    for folder in sorted((out / CASES).rglob("*"), reverse=True):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    return written


def stale(source: Path, out: Path, registry: Registry | None = None) -> list[str]:
    """The suite's files in ``out`` that differ from what ``source`` gives (or are missing
    or extra)."""
    expected, found = render(source, out, registry), _generated(out)
    return sorted(rel for rel in set(expected) | set(found)
                  if expected.get(rel) != found.get(rel))

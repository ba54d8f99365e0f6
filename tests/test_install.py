"""The two commands are honest and reproducible: `make run` installs what serving needs and
nothing else, `make test` the rest, both through the lock (constraints.txt), which CI and
the image use too; the lock pins every dependency at a version pyproject.toml allows; the
checkout reads nothing outside itself and leaves no stray folder."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
MAKEFILE = (ROOT / "Makefile").read_text()
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
LOCK = ROOT / "constraints.txt"


def target(name: str) -> str:
    """A Makefile rule: its line of prerequisites and its recipe."""
    match = re.search(rf"^{re.escape(name)}:(.*?)(?=^\S|\Z)", MAKEFILE, re.M | re.S)
    assert match, f"no target {name}"
    return match.group(1)


def pins() -> dict[str, str]:
    found = {}
    for line in LOCK.read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not a pin: {line}"
            found[canonicalize_name(name)] = version
    return found


def test_the_lock_pins_every_dependency_within_its_range() -> None:
    locked = pins()
    wanted = [*PYPROJECT["dependencies"], *(d for extra in PYPROJECT["optional-dependencies"]
                                           .values() for d in extra)]
    for spec in map(Requirement, wanted):
        name = canonicalize_name(spec.name)
        assert name in locked, f"{spec.name} is not in constraints.txt: run make lock"
        assert spec.specifier.contains(locked[name]), f"{spec.name}=={locked[name]} vs {spec}"
    assert "pip" in locked and "arbiter" not in locked


def test_make_run_installs_serving_needs_only_and_make_test_the_rest() -> None:
    run_stamp, test_stamp = target("$(RUN_STAMP)"), target("$(TEST_STAMP)")
    assert "$(INSTALL) -e ." in run_stamp and "[" not in run_stamp
    assert "$(INSTALL) -e '.[test,dev]'" in test_stamp
    assert re.search(r"^INSTALL := .*--constraint \$\(LOCK\)$", MAKEFILE, re.M)
    assert "$(LOCK)" in run_stamp and "$(LOCK)" in test_stamp
    assert target("run").split()[0] == "$(RUN_STAMP)"
    # No host or port on the command line: ARBITER_HOST, ARBITER_PORT and the rest decide.
    assert target("run").split("\n", 1)[1].split() == ["$(BIN)/arbiter", "serve"]
    assert "$(TEST_STAMP)" in target("test") and "$(TEST_STAMP)" in target("test-fast")


def test_ci_and_the_image_install_through_the_lock() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci and "make docs-check" in ci and "make schema-check" in ci
    assert "make source-check" in ci and "[ -d ../shared/rules ]" in ci
    assert ".ci/source_texts" in target("source-check")
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "--constraint constraints.txt" in dockerfile
    python = re.search(r"Python (3\.\d+\.\d+)", LOCK.read_text())
    assert python, "the lock names the Python it was made with"
    assert f"python:{python.group(1)}-slim" in dockerfile, "the image runs the lock's Python"


def test_the_tests_read_nothing_beside_the_checkout() -> None:
    """The checkout is self-contained: no test opens ../shared (the checks against the rules
    texts are in .ci/source_texts, run by .ci/run outside the suite, where the texts are)."""
    offenders = []
    for path in (ROOT / "tests").rglob("*.py"):
        text = path.read_text()
        if re.search(r"parents\[3\]|\"shared\"", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders


def test_a_test_run_leaves_no_untracked_folder() -> None:
    ignored = (ROOT / ".gitignore").read_text().split()
    # .venv without its slash: a symlink to a virtualenv is left out too.
    for folder in (".schemathesis/", ".hypothesis/", ".pytest_cache/", ".venv"):
        assert folder in ignored

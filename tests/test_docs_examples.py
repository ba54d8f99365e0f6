"""The examples of the documentation site that no other test runs, run as pasted in a
scratch folder whose `.venv` is the one running the suite: the configuration page's
refused start (its output as the page shows it) and the conformance page's run of the
suite against a server it starts (its summary as the page shows it, but for the time)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import free_port

DOCS = Path(__file__).resolve().parents[1] / "docs"


def blocks(page: str, kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", (DOCS / page).read_text(), re.S)


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    (tmp_path / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    return tmp_path


def test_a_refused_setting_is_said_as_the_configuration_page_shows(scratch: Path) -> None:
    [block] = blocks("configuration.md", "console")
    command, _, shown = block.removeprefix("$ ").partition("\n")
    done = subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True,
                          text=True, check=False, timeout=60)
    assert done.returncode == 2
    assert done.stdout + done.stderr == shown


@pytest.mark.server
def test_the_conformance_page_runs_the_suite_as_it_shows(scratch: Path) -> None:
    # The run and, in the block after it, what it prints.
    run, shown = re.findall(r"```sh\n(.*?)```\n\n```\n(.*?)```",
                            (DOCS / "conformance.md").read_text(), re.S)[0]
    port = str(free_port())
    # As pasted, but on a free port, and the server stopped once the suite has run.
    script = run.replace("8000", port) + 'status=$?; kill %1; wait; exit "$status"\n'
    done = subprocess.run(["bash", "-c", script], cwd=scratch, capture_output=True,
                          text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    said = done.stdout.splitlines()[-1]
    page = shown.strip().splitlines()[-1]
    untimed = re.compile(r"http://127\.0\.0\.1:\d+|in [\d.]+ s$")
    assert untimed.sub("", said) == untimed.sub("", page)

"""The documentation of the `arbiter` command (docs/cli.md) runs as pasted: its `sh` blocks
(which write the example files) and every `$ ` command of its `console` blocks, in order, in
a scratch folder whose `.venv` is the one running the suite, each command's output
(standard output and error) and exit status (`# exits N`, else 0) as the page shows them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "cli.md"
EXITS = re.compile(r"#\s*exits (\d+)\s*$")


def section() -> str:
    return PAGE.read_text()


def steps() -> list[tuple[str, str, int]]:
    """(command, output shown, exit status shown), an ``sh`` block as one command with no
    output shown, in the page's order."""
    out: list[tuple[str, str, int]] = []
    for kind, block in re.findall(r"```(sh|console)\n(.*?)```", section(), re.S):
        if kind == "sh":
            out.append((block, "", 0))
            continue
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            status = EXITS.search(command)
            out.append((command, shown, int(status.group(1)) if status else 0))
    return out


def test_the_section_shows_each_table_command() -> None:
    commands = " ".join(command for command, _, _ in steps())
    for name in ("check", "reachable", "legal-actions", "conquest-cost", "render"):
        assert f".venv/bin/arbiter {name} " in commands
    assert "| .venv/bin/arbiter check hex_maneuver state.json - " in commands


def test_every_example_runs_as_pasted(tmp_path: Path) -> None:
    (tmp_path / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    for command, shown, status in steps():
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True,
                              text=True, check=False)
        said = done.stdout + done.stderr
        assert (done.returncode, said) == (status, shown), command
    assert (tmp_path / "board.svg").read_text().startswith("<?xml")

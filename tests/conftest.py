"""Shared by the whole suite: test helpers importable as top-level modules, and one real
``arbiter serve`` process with the default settings for every test that talks HTTP to it
(the API, golden-case and hardening tests)."""

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

# Test helpers (golden.py, support.py, ...) import as top-level modules.
sys.path.insert(0, str(Path(__file__).parent))

from support import serve


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """Base URL of a real `arbiter serve` process (uvicorn over a real socket)."""
    with serve() as base:
        yield base


@pytest.fixture(scope="session")
def http(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=30) as c:
        yield c


# The timing suite: a test marked ``timing`` checks how long something took against the
# wall clock (a probe's latency beside hostile work, a budget kept within a tenth), which a
# busy machine can break without the code being wrong. `make test` leaves them out;
# `make check-timing` (``--timing``) runs them alone, on a machine kept quiet for them.
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--timing", action="store_true",
                     help="run the tests marked timing (wall-clock bounds) too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--timing") or "timing" in (config.getoption("-m") or ""):
        return
    timed = [item for item in items if item.get_closest_marker("timing")]
    if timed:
        config.hook.pytest_deselected(items=timed)
        items[:] = [item for item in items if not item.get_closest_marker("timing")]

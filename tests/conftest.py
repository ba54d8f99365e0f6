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

"""Fixtures for the API tests: the in-process app and client, and a real uvicorn server
started in a subprocess on a free port (the entry point the Dockerfile runs)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from starlette.testclient import TestClient

from arbiter.app import create_app
from arbiter.settings import Settings
from support import serve


@pytest.fixture(scope="session")
def app() -> object:
    return create_app(Settings.from_env())


@pytest.fixture(scope="session")
def client(app: object) -> Iterator[TestClient]:
    with TestClient(app) as c:  # type: ignore[arg-type]
        yield c


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """Base URL of a real `arbiter serve` process (uvicorn over a real socket)."""
    with serve() as base:
        yield base


@pytest.fixture(scope="session")
def http(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=30) as c:
        yield c

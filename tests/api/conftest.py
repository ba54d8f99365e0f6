"""Fixtures for the API tests: the in-process app and client (the real server, `server`
and `http`, is the suite's: tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from arbiter.http.app import create_app
from arbiter.settings import Settings


@pytest.fixture(scope="session")
def app() -> object:
    return create_app(Settings.from_env())


@pytest.fixture(scope="session")
def client(app: object) -> Iterator[TestClient]:
    with TestClient(app) as c:  # type: ignore[arg-type]
        yield c

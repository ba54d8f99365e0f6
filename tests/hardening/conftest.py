"""Fixtures for the hardening tests: one real server with the default settings, shared by
the schemathesis run and the bad-input corpus."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from support import serve


@pytest.fixture(scope="session")
def live() -> Iterator[str]:
    with serve() as base:
        yield base


@pytest.fixture(scope="session")
def live_http(live: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live, timeout=30) as c:
        yield c


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The figures the hardening issue asks for: corpus size, schemathesis examples."""
    from hardening import test_corpus, test_schemathesis

    lines = []
    if test_corpus.RAN:
        lines.append(f"bad-input corpus: {sum(test_corpus.RAN.values())} requests over "
                     f"{len(test_corpus.RAN)} endpoints")
    if test_schemathesis.RAN:
        ops = test_schemathesis.RAN
        lines.append(f"schemathesis: {sum(ops.values())} examples over {len(ops)} "
                     f"operation runs (max {test_schemathesis.EXAMPLES} each); examples the "
                     f"generator could not make: {len(test_schemathesis.GENERATOR_SKIPS)}")
    if lines:
        terminalreporter.write_sep("-", "hardening")
        for line in lines:
            terminalreporter.write_line(line)

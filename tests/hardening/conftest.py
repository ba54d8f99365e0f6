"""The hardening tests' report: the figures the issue asks for. Their server is the
suite's (``server`` and ``http`` in tests/conftest.py)."""

from __future__ import annotations

import pytest


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

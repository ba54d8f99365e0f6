"""The generic contract (``generic.CONTRACT``) on every ruleset the suite checks by default:
the built-in ones, as ``builtin_registry()`` serves them, and the toy tic-tac-toe of
tests/toy (``under_test.DEFAULT_IDS``). Each check on each ruleset is one test, so
``-k <ruleset>`` or ``-k <check>`` narrows a run; ``ARBITER_RULESETS`` narrows the
built-in rulesets, as it narrows the service (the toy is always checked).

A ruleset registered from outside the package gets the same checks from its own test
(tests/test_sixth_ruleset.py shows how)."""

from __future__ import annotations

import pytest

from .generic import CONTRACT
from .under_test import DEFAULT_IDS, by_default


@pytest.mark.parametrize("check", list(CONTRACT))
@pytest.mark.parametrize("ruleset_id", DEFAULT_IDS)
def test_contract(ruleset_id: str, check: str) -> None:
    CONTRACT[check](by_default(ruleset_id))

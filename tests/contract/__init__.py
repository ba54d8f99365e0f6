"""The generic contract tests every ruleset must pass (see test_contract.py), their
checking functions (checks.py) and the random positions they run on (boards.py)."""

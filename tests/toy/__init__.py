"""The toy ruleset, tic-tac-toe, written exactly on the one ruleset shape: the worked
example of docs/adding-a-ruleset.md and the known-good subject of the contract tests
(tests/contract). It is not served by default; a test registers it beside the built-in
rulesets. Its tests: ``test_tic_tac_toe.py`` (golden cases under ``cases/``, in process
and over REST, and its own rules)."""
